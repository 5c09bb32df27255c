// The exact search on long graphs and the bytes proof: the transformer stack is proven in kernels at
// several depths; whenever segment_fusion claims bytes proven, brute force agrees.
#include <gtest/gtest.h>

#include "passes/pipeline.h"
#include "segment/brute_force.h"
#include "segment/exact_search.h"
#include "segment/random_dag.h"
#include "segment/segment.h"
#include "workloads/transformer.h"

namespace seam {
namespace {

TEST(SearchScale, TransformerStackIsProvenAtEveryDepth) {
  // 14 kernels for one layer; each further layer adds 13 (its first RMSNorm absorbs the residual add).
  for (int layers : {1, 2, 3, 6}) {
    TransformerConfig c;
    c.layers = layers;
    Fusion f = run_pipeline(build_transformer_stack(c));
    SegmentOptions o;
    o.strategy = SegmentStrategy::Exact;
    o.time_budget_seconds = 30;  // a Debug build; Release takes ~10 ms at 6 layers
    SegmentedFusion s = segment_fusion(f, o);
    EXPECT_TRUE(s.proven_optimal) << layers;
    EXPECT_EQ(s.num_kernels(), 1 + 13 * layers) << layers;
    // The greedy never beats a proof.
    SegmentOptions g;
    g.strategy = SegmentStrategy::Greedy;
    EXPECT_GE(segment_fusion(f, g).num_kernels(), s.num_kernels()) << layers;
  }
}

// A property of optimized builds (the default budget is wall time): a Debug or sanitized build on a
// loaded machine may run out of it, and says nothing about the product then.
TEST(SearchScale, TransformerStackFitsTheDefaultBudget) {
#if !defined(NDEBUG) || defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "a wall-time budget: checked in optimized builds";
#endif
  TransformerConfig c;
  c.layers = 4;
  SegmentedFusion s = segment_fusion(run_pipeline(build_transformer_stack(c)));
  EXPECT_TRUE(s.proven_optimal);
  EXPECT_EQ(s.strategy, "exact");
}

TEST(SearchScale, BytesProvenMeansBruteForceBytes) {
  int proven = 0, improved_by_bytes_phase = 0;
  for (uint64_t seed = 0; seed < 800; ++seed) {
    testing::RandomDagOptions o;
    o.ops = 2 + static_cast<int>(seed % 8);
    o.width = 1 + static_cast<int>(seed % 4);
    Fusion f = testing::random_dag(seed + 20000, o);
    SegmentGraph g(f, {});
    if (g.size() > 11) continue;
    Cost brute = testing::brute_force_optimum(g);
    SegmentOptions opts;
    opts.bytes_time_budget_seconds = 5;
    SegmentedFusion s = segment_fusion(f, opts);
    ASSERT_TRUE(s.proven_optimal) << "seed " << seed;
    EXPECT_EQ(s.num_kernels(), brute.launches) << "seed " << seed;
    if (!s.bytes_proven_optimal) continue;
    ++proven;
    EXPECT_EQ(s.boundary_bytes(), brute.bytes) << "seed " << seed;
    SegmentOptions kernels_only = opts;
    kernels_only.prove_bytes = false;
    improved_by_bytes_phase += segment_fusion(f, kernels_only).boundary_bytes() > s.boundary_bytes();
  }
  EXPECT_GT(proven, 700);
  EXPECT_GT(improved_by_bytes_phase, 0);  // the bytes phase matters on some graphs
  RecordProperty("bytes_phase_improved", improved_by_bytes_phase);
}

TEST(SearchScale, TheBoundNeverExceedsTheOptimum) {
  for (uint64_t seed = 0; seed < 400; ++seed) {
    testing::RandomDagOptions o;
    o.ops = 2 + static_cast<int>(seed % 8);
    o.width = 1 + static_cast<int>(seed % 4);
    Fusion f = testing::random_dag(seed + 30000, o);
    SegmentGraph g(f, {});
    if (g.size() > 11) continue;
    ExactSearchOptions eo;
    eo.maximal_groups_only = false;
    eo.time_budget_seconds = 30;
    ExactSearchResult r = exact_search(g, g.empty_set(), g.all(), eo);
    EXPECT_LE(r.lower_bound, testing::brute_force_optimum(g)) << "seed " << seed;
  }
}

}  // namespace
}  // namespace seam
