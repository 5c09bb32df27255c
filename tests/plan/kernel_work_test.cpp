// Per-kernel choices made from the lowered kernel: the bytes a chunk loads on its heaviest path (which
// decides the register cap of kernels that sum per chunk) and the chunk order of outputs whose rows end
// inside a cache line (pairs of rows), and the row tile of large slabs.
#include <gtest/gtest.h>

#include "lower/lower_pointwise.h"
#include "passes/pipeline.h"
#include "plan/kernel_knobs.h"
#include "plan/pointwise_plan.h"
#include "workloads/rope.h"

namespace seam {
namespace {

LoweringOptions lowering_options(const LaunchParams& params) {
  LoweringOptions options;
  static_cast<LaunchParams&>(options) = params;
  options.kernel_name = "k";
  return options;
}

kir::Stmt load(DType dtype, int lanes) {
  kir::Stmt s{kir::Stmt::Kind::Define};
  s.var = kir::Var{"v", dtype, lanes};
  s.expr = kir::Expr{kir::Expr::Kind::Load};
  return s;
}

TEST(KernelWork, LoadedBytesFollowTheHeaviestBranch) {
  kir::Block body = {load(DType::BFloat16, 8)};  // 16 bytes on every path
  kir::Stmt branch{kir::Stmt::Kind::If};
  branch.then_block = {load(DType::Float32, 4)};                            // 16
  branch.else_block = {load(DType::BFloat16, 8), load(DType::Float32, 1)};  // 20
  body.push_back(branch);
  EXPECT_EQ(kir::loaded_bytes_on_heaviest_path(body), 16 + 20);
  kir::Stmt loop{kir::Stmt::Kind::Loop};
  loop.unroll = 2;
  loop.then_block = {load(DType::BFloat16, 8)};
  body.push_back(loop);
  EXPECT_EQ(kir::loaded_bytes_on_heaviest_path(body), 16 + 20 + 32);
}

// The register cap goes to GQA backward kernels whose chunks load more than 56 registers hold (Llama-3's
// 4:1 groups), not to those that sum only two terms per chunk (gemma's 2:1 groups). Lowered as the
// executable lowers them: after the passes (which merge autodiff's pads into one cat).
TEST(KernelWork, RegisterCapOnlyForChunksLoadingMoreThanItHolds) {
  RopeOptions backward;
  backward.direction = Direction::Backward;
  const LoweringOptions options = lowering_options(choose_lowering_params(true, LaunchParams{}));
  const int64_t four_to_one = kir::loaded_bytes_per_chunk(
      plan_and_lower_pointwise(run_pipeline(build_rope(rope_config("W3"), backward)), options));
  const int64_t two_to_one = kir::loaded_bytes_per_chunk(
      plan_and_lower_pointwise(run_pipeline(build_rope(rope_config("W9"), backward)), options));
  EXPECT_GT(four_to_one, 56 * 4);
  EXPECT_LE(two_to_one, 56 * 4);
  const LaunchParams defaults;
  EXPECT_EQ(choose_launch_params({1 << 24, true, four_to_one}, defaults).min_blocks_per_sm, 9);
  EXPECT_EQ(choose_launch_params({1 << 24, true, two_to_one}, defaults).min_blocks_per_sm, 0);
}

// Groups only where the ungrouped chunk loads at most max_group_loaded_bytes: GQA backward with 4
// queries per group (10 loads of 16 bytes) is grouped, with 8 (18 loads) it is not, unless the limit is
// lifted.
TEST(KernelWork, GroupsOnlyForChunksThatLoadLittle) {
  RopeOptions backward;
  backward.direction = Direction::Backward;
  LoweringOptions options = lowering_options(choose_lowering_params(true, LaunchParams{}));
  ASSERT_EQ(options.max_group_loaded_bytes, 224);
  auto group_of = [&](const char* workload) {
    return plan_and_lower_pointwise(run_pipeline(build_rope(rope_config(workload), backward)), options)
        .outputs[0]
        .order.group;
  };
  EXPECT_EQ(group_of("W3"), 2);
  EXPECT_EQ(group_of("W5"), 1);
  options.max_group_loaded_bytes = 0;
  EXPECT_EQ(group_of("W5"), 2);
}

// Rows of 96 bf16 (192 bytes) end inside a 128-byte line: the chunk order takes pairs of rows. Rows of
// 128 bf16 (256 bytes) keep the row-major order, and so does a row-major request (row_tile 0).
TEST(KernelWork, RowsEndingInsideALineAreTakenInPairs) {
  RopeOptions forward;
  forward.seq_len = 16;
  const LoweringOptions defaults;
  EXPECT_EQ(plan_and_lower_pointwise(build_rope({"hs96", 4, 4, 96, 96, 16}, forward), defaults)
                .outputs[0]
                .order.tile,
            2);
  EXPECT_EQ(plan_and_lower_pointwise(build_rope({"hs128", 4, 4, 128, 128, 16}, forward), defaults)
                .outputs[0]
                .order.tile,
            1);
  LoweringOptions row_major;
  row_major.row_tile = 0;
  EXPECT_EQ(plan_and_lower_pointwise(build_rope({"hs96", 4, 4, 96, 96, 16}, forward), row_major)
                .outputs[0]
                .order.tile,
            1);
}

// Slabs of at least row_tile_min_bytes are tiled: by 2 rows (row_tile) where the output is enumerated
// plainly (RoPE forward), by 32 (run_row_tile) where it is taken in runs (RoPE backward's dqkv).
TEST(KernelWork, RowTilesOfTwoExceptInRuns) {
  RopeOptions forward, backward;
  backward.direction = Direction::Backward;
  LoweringOptions options = lowering_options(choose_lowering_params(true, LaunchParams{}));
  options.row_tile_min_bytes = 0;  // tile these small slabs
  const kir::OutputProgram q =
      plan_and_lower_pointwise(build_rope(rope_config("W2"), forward), options).outputs[0];
  EXPECT_EQ(q.order.tile, 2);
  EXPECT_EQ(q.order.run, 0);
  const kir::OutputProgram dqkv =
      plan_and_lower_pointwise(run_pipeline(build_rope(rope_config("W2"), backward)), options).outputs[0];
  EXPECT_GT(dqkv.order.run, 0);
  EXPECT_EQ(dqkv.order.tile, 32);
}

}  // namespace
}  // namespace seam
