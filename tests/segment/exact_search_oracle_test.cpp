// The exact search against brute force on thousands of small random DAGs, and the pruned search against
// the unpruned one.
#include <gtest/gtest.h>

#include "segment/brute_force.h"
#include "segment/exact_search.h"
#include "segment/random_dag.h"
#include "segment/segment.h"

namespace seam {
namespace {

ExactSearchResult search(const SegmentGraph& g, bool maximal, double seconds = 30) {
  ExactSearchOptions o;
  o.maximal_groups_only = maximal;
  o.time_budget_seconds = seconds;
  o.state_budget = 50'000'000;
  return exact_search(g, g.empty_set(), g.all(), o);
}

TEST(ExactSearchOracle, UnprunedEqualsBruteForceAndPrunedKeepsKernels) {
  int compared = 0, pruned_paid_bytes = 0;
  for (uint64_t seed = 0; seed < 2200; ++seed) {
    testing::RandomDagOptions o;
    o.ops = 2 + static_cast<int>(seed % 8);  // up to 9 ops
    o.width = 1 + static_cast<int>(seed % 4);
    Fusion f = testing::random_dag(seed, o);
    SegmentGraph g(f, {});
    if (g.size() > 11) continue;
    Cost brute = testing::brute_force_optimum(g);
    ExactSearchResult full = search(g, false), pruned = search(g, true);
    ASSERT_TRUE(full.finished && full.partition && pruned.finished && pruned.partition) << "seed " << seed;
    EXPECT_EQ(full.partition->cost, brute) << "seed " << seed;
    EXPECT_EQ(pruned.partition->cost.launches, brute.launches) << "seed " << seed;
    EXPECT_GE(pruned.partition->cost.bytes, brute.bytes) << "seed " << seed;
    pruned_paid_bytes += pruned.partition->cost.bytes != brute.bytes;
    ++compared;
  }
  EXPECT_GT(compared, 1800);
  RecordProperty("pruned_search_paid_extra_bytes", pruned_paid_bytes);
}

TEST(ExactSearchOracle, PrunedKeepsKernelsOnLargerGraphs) {
  // The unpruned search is exponential in the width; graphs where it runs out are skipped and counted.
  int compared = 0;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    testing::RandomDagOptions o;
    o.ops = 10 + static_cast<int>(seed % 7);  // up to 16 ops
    o.width = 1 + static_cast<int>(seed % 2);
    Fusion f = testing::random_dag(1000 + seed, o);
    SegmentGraph g(f, {});
    ExactSearchResult full = search(g, false, 0.5), pruned = search(g, true);
    ASSERT_TRUE(pruned.finished) << "seed " << seed;
    if (!full.finished) continue;
    ++compared;
    EXPECT_EQ(pruned.partition->cost.launches, full.partition->cost.launches) << "seed " << seed;
    EXPECT_GE(pruned.partition->cost.bytes, full.partition->cost.bytes) << "seed " << seed;
  }
  EXPECT_GT(compared, 150);
}

}  // namespace
}  // namespace seam
