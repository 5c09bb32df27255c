// Generated kernels executed through the host backend must match the reference interpreter: random
// pointwise/movement fusions at several sizes (so vectorized and scalar paths both run).
#include <gtest/gtest.h>

#include "codegen/kernel_printer.h"
#include "exec/host_compiler.h"
#include "exec/host_kernel_runner.h"
#include "interp/compare.h"
#include "interp/interpreter.h"
#include "lower/lower_pointwise.h"
#include "plan/pointwise_plan.h"
#include "testing/random_fusion.h"
#include "text/printer.h"

namespace seam {
namespace {

Tolerance codegen_tolerance(DType dtype) {
  // The generated code computes transcendental functions in float (as the GPU does); the interpreter
  // in double rounded to float. One bf16/f16 rounding step may then land on the other side.
  switch (dtype) {
    case DType::Float32:
    case DType::Float64: return {1e-5, 1e-6};  // an f64 output may come from f32 math
    default: return default_tolerance(dtype);
  }
}

struct Case {
  Fusion fusion;
  kir::Kernel kernel;
};

void check_random_fusions(uint64_t first_seed, int count, RandomFusionOptions options,
                          LoweringOptions lowering = {}) {
  std::vector<Case> cases;
  std::vector<std::string> sources;
  for (int k = 0; k < count; ++k) {
    uint64_t seed = first_seed + static_cast<uint64_t>(k);
    Fusion fusion = random_fusion(seed, options);
    lowering.kernel_name = "kernel_" + std::to_string(seed);
    kir::Kernel kernel = plan_and_lower_pointwise(fusion, lowering);
    sources.push_back(print_host_kernel(kernel));
    cases.push_back({std::move(fusion), std::move(kernel)});
  }
  auto module = compile_host_kernels(sources);
  int vectorized = 0, tiled = 0, grouped = 0;
  for (Case& c : cases) {
    const uint64_t seed = std::stoull(c.kernel.name.substr(7));
    std::vector<HostTensor> inputs = random_inputs(c.fusion, seed * 7 + 1);
    std::vector<HostTensor> expected = interpret(c.fusion, inputs);
    std::vector<Type> types;
    for (const FusionOutput& o : c.fusion.outputs()) types.push_back(c.fusion.type(o.value));
    std::vector<HostTensor> actual = run_host_kernel(*module, c.kernel, inputs, types);
    for (const kir::OutputProgram& p : c.kernel.outputs)
      vectorized += p.lanes > 1, tiled += p.order.tile > 1, grouped += p.order.group > 1;
    const std::vector<Comparison> comparisons =
        compare_outputs(c.fusion, inputs, actual, expected, codegen_tolerance);
    for (size_t o = 0; o < actual.size(); ++o) {
      const Comparison& cmp = comparisons[o];
      EXPECT_TRUE(cmp.ok) << "seed " << seed << " output " << o << ": " << cmp.message << "\n"
                          << print_fusion(c.fusion) << "\n"
                          << print_host_kernel(c.kernel);
    }
  }
  if (options.max_extent >= 8) {
    EXPECT_GT(vectorized, count / 4) << "vector paths barely exercised";
  }
  if (lowering.row_tile > 1 && lowering.row_tile_min_bytes == 0) {
    EXPECT_GT(tiled, count / 4) << "the tiled order barely exercised";
  }
  if (lowering.max_group > 1) {
    EXPECT_GT(grouped, count / 10) << "chunk groups barely exercised";
  }
}

RandomFusionOptions pointwise_options() {
  RandomFusionOptions o;
  o.reductions = false;
  o.opaque = false;
  o.special_values = true;
  return o;
}

// Extents up to 16 and none empty: wide enough for vectors, row tiles and chunk groups.
RandomFusionOptions wide_pointwise_options() {
  RandomFusionOptions o = pointwise_options();
  o.max_extent = 16;
  o.zero_extent_probability = 0;
  return o;
}

// Lowering options that force the row-tiled chunk order on every output of rank >= 3.
LoweringOptions tiled_rows(LoweringOptions options = {}) {
  options.row_tile = 2;
  options.row_tile_min_bytes = 0;
  return options;
}

TEST(HostCodegen, RandomSmallFusionsMatchInterpreter) {
  check_random_fusions(1000, 200, pointwise_options());
}

TEST(HostCodegen, RandomWiderFusionsExerciseVectorPaths) {
  RandomFusionOptions o = wide_pointwise_options();
  o.max_rank = 3;
  o.num_ops = 16;
  check_random_fusions(5000, 100, o);
}

// The branchy lowering of pad and cat (LoweringOptions::branch_free off) stays correct too.
TEST(HostCodegen, RandomFusionsWithBranchyPiecesMatchInterpreter) {
  LoweringOptions branchy;
  branchy.branch_free = false;
  check_random_fusions(7000, 100, wide_pointwise_options(), branchy);
}

// The row-tiled chunk order (LoweringOptions::row_tile), forced on every output of rank >= 3.
TEST(HostCodegen, RandomFusionsWithTiledRowsMatchInterpreter) {
  check_random_fusions(8000, 100, wide_pointwise_options(), tiled_rows());
}

// Chunk groups (LoweringOptions::max_group) wherever some loads ignore an axis (broadcast inputs), with
// tiled rows too.
TEST(HostCodegen, RandomFusionsWithChunkGroupsMatchInterpreter) {
  LoweringOptions grouped;
  grouped.max_group = 4;
  check_random_fusions(9000, 100, wide_pointwise_options(), grouped);
  check_random_fusions(9500, 100, wide_pointwise_options(), tiled_rows(grouped));
}

}  // namespace
}  // namespace seam
