// Properties of segment_fusion on random DAGs: coverage, acyclic order and accepted groups (checked by
// check_segmentation, which segment_fusion runs), independence from the node order, must-cuts.
#include <gtest/gtest.h>

#include "schedule/registry.h"
#include "segment/random_dag.h"
#include "segment/segment.h"
#include "support/error.h"

namespace seam {
namespace {

SegmentOptions exact_options(bool maximal = false) {
  SegmentOptions o;
  o.strategy = SegmentStrategy::Exact;
  o.maximal_groups_only = maximal;
  o.time_budget_seconds = 10;
  return o;
}

Cost cost_of(const SegmentedFusion& s) { return {s.num_kernels(), s.boundary_bytes()}; }

TEST(SegmentProperties, EveryStrategyCoversEachOpOnceInATopologicalOrder) {
  for (uint64_t seed = 0; seed < 300; ++seed) {
    testing::RandomDagOptions o;
    o.ops = 3 + static_cast<int>(seed % 12);
    o.width = 1 + static_cast<int>(seed % 4);
    Fusion f = testing::random_dag(seed, o);
    for (SegmentStrategy strategy :
         {SegmentStrategy::Auto, SegmentStrategy::Greedy, SegmentStrategy::NvfuserGreedy}) {
      SegmentOptions options;
      options.strategy = strategy;
      SegmentedFusion s = segment_fusion(f, options);
      // Independent re-statement of the coverage rule: owned nodes counted across groups.
      std::vector<int> times(f.num_nodes(), 0);
      for (const SegmentGroup& g : s.groups)
        for (int32_t id : g.nodes) ++times[id];
      for (int32_t id = 0; id < f.num_nodes(); ++id) {
        bool input = f.node(Value{id}).op == OpKind::Input;
        if (input)
          EXPECT_EQ(times[id], 0);
        else if (s.duplicable[id] && !f.is_output(Value{id}))
          EXPECT_EQ(times[id], 0);
        else
          EXPECT_EQ(times[id], 1) << "seed " << seed << " node %" << id;
      }
      for (const SegmentGroup& g : s.groups) EXPECT_TRUE(can_schedule(g.kind, f, g.nodes));
      EXPECT_NO_THROW(check_segmentation(s));
    }
  }
}

TEST(SegmentProperties, AutoNeedsNoMoreKernelsThanGreedyOrTheBaseline) {
  for (uint64_t seed = 0; seed < 300; ++seed) {
    testing::RandomDagOptions o;
    o.ops = 3 + static_cast<int>(seed % 14);
    o.width = 1 + static_cast<int>(seed % 4);
    Fusion f = testing::random_dag(seed + 7000, o);
    SegmentOptions a, g, n;
    g.strategy = SegmentStrategy::Greedy;
    n.strategy = SegmentStrategy::NvfuserGreedy;
    Cost autoc = cost_of(segment_fusion(f, a));
    // Kernels only: the pruned search is exact in kernels, not in bytes (docs/SEGMENTER.md).
    EXPECT_LE(autoc.launches, segment_fusion(f, g).num_kernels()) << "seed " << seed;
    EXPECT_LE(autoc.launches, segment_fusion(f, n).num_kernels()) << "seed " << seed;
  }
}

TEST(SegmentProperties, RelabellingDoesNotChangeTheOptimum) {
  for (uint64_t seed = 0; seed < 400; ++seed) {
    testing::RandomDagOptions o;
    o.ops = 3 + static_cast<int>(seed % 7);
    o.width = 1 + static_cast<int>(seed % 4);
    Fusion f = testing::random_dag(seed + 3000, o);
    Fusion g = testing::relabel(f, seed);
    EXPECT_EQ(cost_of(segment_fusion(f, exact_options())), cost_of(segment_fusion(g, exact_options())))
        << "seed " << seed;
    EXPECT_EQ(segment_fusion(f).num_kernels(), segment_fusion(g).num_kernels()) << "seed " << seed;
  }
}

TEST(SegmentProperties, AMustCutNeverLowersTheOptimum) {
  int cuts = 0;
  for (uint64_t seed = 0; seed < 400; ++seed) {
    testing::RandomDagOptions o;
    o.ops = 3 + static_cast<int>(seed % 7);
    o.width = 1 + static_cast<int>(seed % 4);
    Fusion f = testing::random_dag(seed + 5000, o);
    SegmentedFusion free = segment_fusion(f, exact_options());
    // Cut two nodes of the optimum's largest group, so the cut matters.
    const SegmentGroup* largest = nullptr;
    for (const SegmentGroup& g : free.groups)
      if (!largest || g.nodes.size() > largest->nodes.size()) largest = &g;
    if (!largest || largest->nodes.size() < 2) continue;
    SegmentOptions cut = exact_options();
    cut.rules.must_cut = {{largest->nodes.front(), largest->nodes.back()}};
    SegmentedFusion s = segment_fusion(f, cut);
    EXPECT_GE(cost_of(s), cost_of(free)) << "seed " << seed;
    EXPECT_NE(s.groups.size(), 0u);
    ++cuts;
  }
  EXPECT_GT(cuts, 100);
}

TEST(SegmentProperties, MustCutOnAnInputIsAnError) {
  Builder b;
  Value x = b.input(Type::tensor(DType::Float32, {4}));
  Value y = b.exp(x);
  Fusion f = b.finish({y});
  SegmentOptions o;
  o.rules.must_cut = {{x.id, y.id}};
  EXPECT_THROW(segment_fusion(f, o), Error);
  o.rules.must_cut = {{y.id, 99}};
  EXPECT_THROW(segment_fusion(f, o), Error);
}

}  // namespace
}  // namespace seam
