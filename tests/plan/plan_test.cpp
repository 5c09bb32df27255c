// The plan stage: one step per launching group (the segmenter's count is what launches), the grid
// formula, row kernels' launch summaries, the plan's text.
#include "plan/plan.h"

#include <gtest/gtest.h>

#include "ir/builder.h"
#include "passes/pipeline.h"
#include "plan/dump.h"
#include "segment/segment.h"
#include "support/error.h"
#include "testing/random_fusion.h"
#include "text/printer.h"
#include "workloads/rope.h"
#include "workloads/transformer.h"

namespace seam {
namespace {

using DType::BFloat16;
using DType::Float32;

int group_steps(const FusionPlan& plan) {
  int n = 0;
  for (const PlannedStep& step : plan.steps) n += step.copy_of < 0;
  return n;
}

FusionPlan plan_of(const Fusion& fusion, int64_t max_inlined_reduction = 8) {
  SegmentOptions options;
  options.rules.limits.max_inlined_reduction = max_inlined_reduction;
  return plan_fusion(segment_fusion(fusion, options), PlanOptions{});
}

Fusion softmax(const Shape& shape) {
  Builder b("softmax");
  Value x = b.input(Type::tensor(BFloat16, shape), "x");
  Value xf = b.cast(x, Float32);
  Value m = b.broadcast_to(b.reduce(OpKind::Max, xf, {-1}, true), shape);
  Value e = b.exp(b.sub(xf, m));
  Value s = b.broadcast_to(b.sum(e, {-1}, true), shape);
  return b.finish({b.cast(b.div(e, s), BFloat16)});
}

// The property the executable asserts for every fusion it compiles: the segmenter's kernel count is the
// plan's (plan_fusion throws InternalError otherwise), on random fusions with reductions, with and
// without small reductions inlined into pointwise kernels.
TEST(Plan, EveryLaunchingGroupIsOneStepOnRandomFusions) {
  RandomFusionOptions options;
  options.reductions = true;
  int row_kernels = 0;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    const Fusion fusion = run_pipeline(random_fusion(seed, options), PipelineOptions{});
    for (int64_t inline_limit : {int64_t{0}, int64_t{8}}) {
      SCOPED_TRACE("seed " + std::to_string(seed) + ", inlining " + std::to_string(inline_limit));
      SegmentOptions segment;
      segment.rules.limits.max_inlined_reduction = inline_limit;
      const SegmentedFusion segmented = segment_fusion(fusion, segment);
      FusionPlan plan;
      ASSERT_NO_THROW(plan = plan_fusion(segmented, PlanOptions{})) << print_fusion(fusion);
      EXPECT_EQ(group_steps(plan), segmented.num_kernels());
      for (const PlannedStep& step : plan.steps) row_kernels += step.kind == StepKind::Rows;
    }
  }
  EXPECT_GT(row_kernels, 30) << "the property should see many row kernels";
}

// A reduction read through a permute (at another row) stays out of the reduction's group: the segmenter
// counts the two kernels that run.
TEST(Plan, TransposedReadOfAReductionIsItsOwnKernel) {
  Builder b("transposed");
  Value x = b.input(Type::tensor(Float32, {4, 4}), "x");
  Value m = b.reduce(OpKind::Max, x, {1}, true);
  Value y = b.sub(x, b.expand(b.permute(m, {1, 0}), {4, 4}));
  const FusionPlan plan = plan_of(b.finish({y}), 0);
  ASSERT_EQ(plan.steps.size(), 2u);
  EXPECT_EQ(plan.steps[0].kind, StepKind::Rows);
  EXPECT_EQ(plan.steps[1].kind, StepKind::Pointwise);
}

// RMSNorm as a frontend may write it: the mean without keepdim, unsqueezed by a broadcast, then
// expanded. Read at its own row: one row kernel, as before the predicate's alignment condition; the same
// unsqueeze spelled as a reshape too (docs/CODEGEN.md, "Reductions").
TEST(Plan, UnsqueezedReductionStaysInTheRowKernel) {
  for (bool reshape : {false, true}) {
    Builder b("unsqueezed");
    Value x = b.input(Type::tensor(Float32, {64, 256}), "x");
    Value s = b.sum(b.mul(x, x), {1});
    Value row = reshape ? b.reshape(s, {64, 1}) : b.broadcast(s, {1});
    const FusionPlan plan = plan_of(b.finish({b.div(x, b.expand(row, {64, 256}))}));
    ASSERT_EQ(plan.steps.size(), 1u) << print_plan(plan);
    EXPECT_EQ(plan.steps[0].kind, StepKind::Rows);
  }
}

// The launch line `seam emit` prints above a row kernel is the row kernel's own: its block of
// rows_per_block x threads_per_row threads and its grid, not the pointwise knobs (block 128,
// chunks/thread...) it printed before.
TEST(Plan, RowKernelLaunchSummaryIsItsOwn) {
  const FusionPlan plan = plan_of(softmax({64, 4096}));
  ASSERT_EQ(plan.steps.size(), 1u);
  const PlannedStep& step = plan.steps[0];
  ASSERT_EQ(step.kind, StepKind::Rows);
  // 64 rows of 4096 f32: vectors of 4, a row over 512 threads (too few rows for blocks of several).
  EXPECT_EQ(step.grid, (KernelGrid{64, 512}));
  const std::string summary = launch_summary(step);
  EXPECT_EQ(
      summary,
      "row kernel: block 512 (1 rows x 512 threads), grid 64 blocks, no register cap, lanes contiguous");
  EXPECT_EQ(summary.find("chunks/thread"), std::string::npos);
}

TEST(Plan, PointwiseLaunchSummaryIsItsKnobs) {
  const FusionPlan plan = plan_of(build_rope(rope_config("W2"), RopeOptions{}));
  ASSERT_FALSE(plan.steps.empty());
  for (const PlannedStep& step : plan.steps) {
    ASSERT_EQ(step.kind, StepKind::Pointwise);
    EXPECT_EQ(launch_summary(step), step.params.to_string());
  }
}

// One grid formula: a block per block_size * chunks_per_thread chunks, or per rows_per_block rows (or
// block of chunk-program chunks, if more), capped per multiprocessor.
TEST(Plan, GridFormula) {
  kir::Kernel pointwise;
  pointwise.outputs.resize(1);
  pointwise.outputs[0].chunks = 1000;
  LaunchParams params;
  params.block_size = 128;
  params.chunks_per_thread = 2;
  EXPECT_EQ(plan_grid(pointwise, params), (KernelGrid{4, 128}));
  params.max_blocks_per_sm = 1;
  params.sm_count = 3;
  EXPECT_EQ(plan_grid(pointwise, params), (KernelGrid{3, 128}));
  pointwise.outputs[0].chunks = 0;
  EXPECT_EQ(plan_grid(pointwise, LaunchParams{}), (KernelGrid{1, 128}));

  kir::Kernel rows;
  rows.rows = kir::RowLaunch{};
  rows.rows->rows = 10;
  rows.rows->rows_per_block = 4;
  rows.rows->threads_per_row = 64;
  EXPECT_EQ(plan_grid(rows, LaunchParams{}), (KernelGrid{3, 256}));
  rows.outputs.resize(1);
  rows.outputs[0].chunks = 256 * 5 + 1;  // chunk programs need more blocks than the rows
  EXPECT_EQ(plan_grid(rows, LaunchParams{}), (KernelGrid{6, 256}));
}

// The plan as text names each step's kind, kernel and grid, its chunk orders or rows, and every knob.
TEST(Plan, PrintsStepsAndKnobs) {
  const std::string text = print_plan(plan_of(run_pipeline(build_transformer_stack(TransformerConfig{}))));
  EXPECT_NE(text.find("step 0: group 0, rows, kernel "), std::string::npos) << text;
  EXPECT_NE(text.find("by the library"), std::string::npos) << text;
  EXPECT_NE(text.find("knobs: block_size=128 "), std::string::npos) << text;
  EXPECT_NE(text.find("chunks of 8 lanes"), std::string::npos) << text;
}

// Per-kernel knobs: groups of 2 and a register cap only for pointwise kernels that sum per chunk
// (GQA backward); row kernels go without both.
TEST(Plan, KnobsDecidedPerKernel) {
  RopeOptions backward;
  backward.direction = Direction::Backward;
  const FusionPlan gqa = plan_of(run_pipeline(build_rope(rope_config("W3"), backward)));
  ASSERT_EQ(gqa.steps.size(), 1u);
  EXPECT_EQ(gqa.steps[0].params.max_group, 2);
  EXPECT_EQ(gqa.steps[0].params.min_blocks_per_sm, 9);
  const FusionPlan rows = plan_of(softmax({8, 64}));
  EXPECT_EQ(rows.steps[0].params.max_group, 1);
  EXPECT_EQ(rows.steps[0].params.min_blocks_per_sm, 0);
}

// SEAM_DUMP's value: stage names, comma-separated; a typo is an error naming the stages.
TEST(Plan, DumpStagesParse) {
  EXPECT_EQ(parse_dump_stages("plan,kir,,cuda"), (std::set<std::string, std::less<>>{"cuda", "kir", "plan"}));
  EXPECT_TRUE(parse_dump_stages("").empty());
  try {
    parse_dump_stages("segments,kri");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("unknown stage 'kri' (segments, plan, kir, cuda or host)"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace seam
