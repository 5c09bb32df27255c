// Segmentation of large fusions within its budget: every phase stops when its budget (a deadline and a
// count of steps) runs out and still returns a valid partition; the greedy strategies keep their kernel
// count on a long transformer stack; the exact search's incremental lower bound equals the bound
// computed from scratch. Budgets are checked by steps or a zero deadline, never by timing a run.
#include <gtest/gtest.h>

#include "passes/pipeline.h"
#include "segment/exact_search.h"
#include "segment/greedy_fallback.h"
#include "segment/nvfuser_greedy.h"
#include "segment/random_dag.h"
#include "segment/segment.h"
#include "support/error.h"
#include "workloads/transformer.h"

namespace seam {
namespace {

Fusion stack(int layers) {
  TransformerConfig c;
  c.layers = layers;
  return run_pipeline(build_transformer_stack(c));
}

// Each node in one group, each group accepted as its kind, reading only earlier groups, costed right.
void expect_valid(const SegmentGraph& graph, const Partition& p) {
  std::vector<int> group_of(static_cast<size_t>(graph.size()), -1);
  for (size_t i = 0; i < p.groups.size(); ++i) {
    const PartitionGroup& g = p.groups[i];
    ASSERT_FALSE(g.members.empty());
    EXPECT_TRUE(std::is_sorted(g.members.begin(), g.members.end()));
    EXPECT_EQ(graph.classify(g.members), g.kind) << "group " << i;
    for (int u : g.members) {
      ASSERT_EQ(group_of[u], -1) << "node " << u << " in two groups";
      group_of[u] = static_cast<int>(i);
    }
  }
  for (int u = 0; u < graph.size(); ++u) {
    ASSERT_GE(group_of[u], 0) << "node " << u << " in no group";
    for (int pred : graph.preds(u)) EXPECT_LE(group_of[pred], group_of[u]) << "node " << u;
  }
  EXPECT_EQ(p.cost, partition_cost(graph, p.groups));
}

Budget steps(int64_t n) { return Budget::until(Budget::Clock::time_point::max(), n); }

// A 20-layer stack: fast under the sanitizers. The exact search proves 1 + 13 per layer
// (search_scale_test.cpp); the greedy strategies reach it too, as the expanding compares are recomputed
// where they are read.
constexpr int kLayers = 20;

TEST(SegmentBudget, GreedyStrategiesKeepTheirKernelCountOnALongStack) {
  Fusion f = stack(kLayers);
  SegmentGraph graph(f, {});
  bool finished = false;
  Partition merged = greedy_merge(graph, {}, &finished);
  EXPECT_TRUE(finished);
  expect_valid(graph, merged);
  EXPECT_EQ(merged.cost.launches, 1 + 13 * kLayers);
  Partition baseline = nvfuser_greedy(graph);
  expect_valid(graph, baseline);
  EXPECT_EQ(baseline.cost.launches, 1 + 13 * kLayers);
  SegmentOptions o;
  o.strategy = SegmentStrategy::Greedy;
  o.time_budget_seconds = 1e6;  // Greedy finishes by itself; this keeps a slow sanitizer run from cutting it
  EXPECT_EQ(segment_fusion(f, o).num_kernels(), 1 + 13 * kLayers);
}

TEST(SegmentBudget, EveryGreedyPhaseStopsAtItsStepBudgetWithAValidPartition) {
  Fusion f = stack(3);
  SegmentGraph graph(f, {});
  const int n = graph.size();
  int64_t previous = -1;
  for (int64_t budget : {0, 1, 10, 100, 1000}) {
    bool finished = true;
    Partition merged = greedy_merge(graph, steps(budget), &finished);
    EXPECT_FALSE(finished) << budget;
    expect_valid(graph, merged);
    // A step per merge tried, so at most `budget` merges.
    EXPECT_GE(static_cast<int64_t>(merged.groups.size()), n - budget) << budget;
    Partition baseline = nvfuser_greedy(graph, steps(budget));
    expect_valid(graph, baseline);
    EXPECT_GE(static_cast<int64_t>(baseline.groups.size()), n - budget) << budget;
    if (previous >= 0) {
      EXPECT_LE(merged.cost.launches, previous) << budget;
    }
    previous = merged.cost.launches;
  }
  EXPECT_EQ(greedy_merge(graph, steps(0)).groups.size(), static_cast<size_t>(n));  // nothing merged

  // Windows: no step, no change; one step, one window at most.
  Partition start = greedy_merge(graph, steps(200));
  GreedyOptions g;
  g.time_budget_seconds = 1e6;
  int solved = -1;
  Partition same = improve_by_windows(graph, start, g, &solved, nullptr, steps(0));
  EXPECT_EQ(solved, 0);
  EXPECT_EQ(same.cost, start.cost);
  Partition one = improve_by_windows(graph, start, g, &solved, nullptr, steps(1));
  EXPECT_LE(solved, 1);
  expect_valid(graph, one);
  EXPECT_LE(one.cost, start.cost);
}

TEST(SegmentBudget, AZeroBudgetStillGivesAValidUnprovenSegmentation) {
  // With no time at all, the greedy strategies stop at their first check and leave one group per node,
  // which segment_fusion checks like any result. Auto's search stops too, but its fallback always runs
  // the linear baseline to its end: a huge fusion on a small budget never becomes a kernel per op.
  Fusion f = stack(kLayers);
  for (SegmentStrategy strategy : {SegmentStrategy::Greedy, SegmentStrategy::NvfuserGreedy}) {
    SegmentOptions o;
    o.strategy = strategy;
    o.time_budget_seconds = 0;
    SegmentedFusion s = segment_fusion(f, o);  // runs check_segmentation
    EXPECT_FALSE(s.proven_optimal);
    EXPECT_GT(s.num_kernels(), 2 + 13 * kLayers);
  }
  SegmentOptions baseline;
  baseline.strategy = SegmentStrategy::NvfuserGreedy;
  baseline.time_budget_seconds = 1e6;
  SegmentOptions zero;
  zero.time_budget_seconds = 0;
  SegmentedFusion s = segment_fusion(f, zero);
  EXPECT_FALSE(s.proven_optimal);
  EXPECT_LE(s.num_kernels(), segment_fusion(f, baseline).num_kernels());
  SegmentOptions exact;
  exact.strategy = SegmentStrategy::Exact;
  exact.time_budget_seconds = 0;
  EXPECT_THROW(segment_fusion(f, exact), Error);  // the exact strategy has no fallback
}

TEST(SegmentBudget, AutoOnALongStackIsValidAndNoWorseThanTheGreedy) {
  SegmentOptions o;
  o.time_budget_seconds = 1e6;  // proven in ~20 ms in Release; no timing is asserted
  SegmentedFusion s = segment_fusion(stack(kLayers), o);
  EXPECT_TRUE(s.proven_optimal);
  EXPECT_EQ(s.num_kernels(), 1 + 13 * kLayers);
}

TEST(SegmentBudget, IncrementalBoundEqualsTheBoundFromScratch) {
  int searches = 0;
  for (uint64_t seed = 0; seed < 400; ++seed) {
    testing::RandomDagOptions o;
    o.ops = 3 + static_cast<int>(seed % 12);
    o.width = 1 + static_cast<int>(seed % 4);
    Fusion f = testing::random_dag(seed + 50000, o);
    SegmentGraph graph(f, {});
    ExactSearchOptions eo;
    eo.check_incremental_bound = true;
    eo.time_budget_seconds = 1e6;
    eo.maximal_groups_only = seed % 2 == 0;
    // The whole graph, and a window: prefixes in node order are down-sets.
    NodeSet prefix = graph.empty_set(), window = graph.empty_set();
    for (int u = 0; u < graph.size(); ++u) {
      if (u < graph.size() / 3) prefix.set(u);
      if (u < 2 * graph.size() / 3 + 1) window.set(u);
    }
    ExactSearchResult whole = exact_search(graph, graph.empty_set(), graph.all(), eo);  // asserts
    EXPECT_TRUE(whole.finished) << "seed " << seed;
    ExactSearchResult part = exact_search(graph, prefix, window, eo);
    EXPECT_TRUE(part.finished) << "seed " << seed;
    searches += 2;
  }
  // And on the stack, whose rotary tables are read by every layer.
  Fusion f = stack(2);
  SegmentGraph graph(f, {});
  ExactSearchOptions eo;
  eo.check_incremental_bound = true;
  eo.time_budget_seconds = 1e6;
  EXPECT_TRUE(exact_search(graph, graph.empty_set(), graph.all(), eo).finished);
  EXPECT_EQ(searches, 800);
}

}  // namespace
}  // namespace seam
