// The benchmark's normalization backward fusions segment into one proven kernel: the weight gradients
// (sums over the rows) are outer reductions of dx's row kernel (schedule/outer_reduction_pair.h), and
// the plan launches exactly that kernel, with its workspace.
#include <gtest/gtest.h>

#include "plan/plan.h"
#include "segment/dump.h"
#include "segment/segment.h"
#include "text/parser.h"

namespace seam {
namespace {

void expect_one_kernel(const std::string& name, size_t outer_sums) {
  const Fusion f = parse_fusion_file(std::string(SEAM_TEST_DATA_DIR) + "/../../bench/reductions/" + name);
  const SegmentedFusion s = segment_fusion(f, {});
  EXPECT_EQ(s.num_kernels(), 1) << dump_segments(s);
  EXPECT_TRUE(s.proven_optimal) << name;
  const FusionPlan plan = plan_fusion(s, {});
  ASSERT_EQ(plan.launches(), 1) << name;
  const PlannedStep& step = plan.steps[0];
  ASSERT_TRUE(step.kernel.rows.has_value()) << name;
  EXPECT_EQ(step.kernel.rows->outer.size(), outer_sums) << name;
  EXPECT_GT(step.kernel.rows->iterations, 0) << name << ": the rows stay in registers";
  EXPECT_EQ(step.grid.blocks, step.kernel.rows->partial_blocks) << name;
  // Per outer sum a row of f32 partials per block, one per group of blocks and the totals, after the
  // counters.
  const kir::OuterWorkspace w = kir::outer_workspace(*step.kernel.rows);
  EXPECT_EQ(w.groups, (step.grid.blocks + w.group_size - 1) / w.group_size) << name;
  EXPECT_GE(w.header, 1 + w.groups) << name;
  EXPECT_EQ(step.workspace_bytes,
            4 * (w.header + static_cast<int64_t>(outer_sums) * (step.grid.blocks + w.groups + 1) * 4096))
      << name;
}

TEST(NormBackwardSegment, RmsNormIsOneKernel) { expect_one_kernel("rmsnorm_bwd_16384x4096.seam", 1); }
TEST(NormBackwardSegment, LayerNormIsOneKernel) { expect_one_kernel("layernorm_bwd_16384x4096.seam", 2); }

}  // namespace
}  // namespace seam
