// Every RoPE workload, both contracts, after the pass pipeline: the forward is one kernel plus views
// (rope-only v), proven; the backward's minimum is stated and proven.
#include <gtest/gtest.h>

#include "passes/pipeline.h"
#include "schedule/view.h"
#include "segment/dump.h"
#include "segment/segment.h"
#include "workloads/rope.h"

namespace seam {
namespace {

SegmentedFusion segment_rope(const RopeConfig& config, RopeContract contract, Direction direction) {
  RopeOptions o;
  o.contract = contract;
  o.direction = direction;
  return segment_fusion(run_pipeline(build_rope(config, o)));
}

TEST(RopeSegments, ForwardIsOneKernelPlusViews) {
  for (const RopeConfig& config : rope_configs())
    for (RopeContract contract : {RopeContract::Thunder, RopeContract::RopeOnly}) {
      SegmentedFusion s = segment_rope(config, contract, Direction::Forward);
      SCOPED_TRACE(s.fusion.name() + "\n" + dump_segments(s));
      EXPECT_EQ(s.num_kernels(), 1);
      EXPECT_TRUE(s.proven_optimal);
      // Outputs left to NoOp groups are exactly those that are views of qkv: v when it is not expanded.
      int views = 0;
      for (const SegmentGroup& g : s.groups)
        if (g.kind == SchedulerKind::NoOp) views += static_cast<int>(g.outputs.size());
      int expected_views = 0;
      for (const FusionOutput& out : s.fusion.outputs())
        expected_views += view_of_input(s.fusion, out.value).has_value();
      EXPECT_EQ(views, expected_views);
      EXPECT_EQ(views, expands_kv(config, contract) ? 0 : 1);
    }
}

TEST(RopeSegments, BackwardIsOneKernelProven) {
  for (const RopeConfig& config : rope_configs())
    for (RopeContract contract : {RopeContract::Thunder, RopeContract::RopeOnly}) {
      SegmentedFusion s = segment_rope(config, contract, Direction::Backward);
      SCOPED_TRACE(s.fusion.name() + "\n" + dump_segments(s));
      // GQA under the thunder contract sums the expanded k and v gradients over qpk <= 8 copies: a small
      // reduction, inlined into the pointwise kernel.
      EXPECT_EQ(s.num_kernels(), 1);
      EXPECT_TRUE(s.proven_optimal);
    }
}

}  // namespace
}  // namespace seam
