// Row kernels with outer reductions on the GPU (normalization backward's weight gradients in dx's
// kernel, docs/CODEGEN.md "Reductions"): poisoned outputs against the interpreter, persistent and
// streamed rows, grids from one block per group of rows to one per multiprocessor with many rows each;
// every kernel runs twice (its last blocks leave the counters zero for the next launch) and gives the
// same bits both times (the partials are summed in a fixed order, whichever block finishes last).
#include <gtest/gtest.h>

#include <cstring>

#include "exec/executable.h"
#include "interp/compare.h"
#include "interp/interpreter.h"
#include "ir/builder.h"
#include "runtime/cuda_driver.h"
#include "support/parallel.h"
#include "tensor/fast_random.h"
#include "testing/norm_backward.h"

namespace seam {
namespace {

struct Case {
  Fusion fusion;
  size_t outer_sums = 0;
  bool persistent = true;
};

ExecutableOptions options_of(const Case& c) {
  ExecutableOptions options;
  options.backend = Backend::Cuda;
  options.poison_outputs = true;
  options.segment.rules.limits.max_inlined_reduction = 0;
  options.launch.row_persistent = c.persistent;
  return options;
}

// Compiles every case at once (NVRTC takes most of a case's time), then runs each twice against the
// interpreter.
void check_all(const std::vector<Case>& cases) {
  auto exes = parallel_map(
      cases.size(), [&](size_t i) { return Executable::compile(cases[i].fusion, options_of(cases[i])); });
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& k = cases[i];
    const Fusion& fusion = k.fusion;
    Executable& exe = *exes[i];
    const Shape& shape = fusion.type(fusion.inputs()[0]).shape;
    const std::string what = fusion.name() + " " + shape_to_string(shape) + " " +
                             std::string(dtype_name(fusion.type(fusion.inputs()[0]).dtype)) +
                             (k.persistent ? " persistent" : " streamed");
    ASSERT_EQ(exe.steps().size(), 1u) << what;
    ASSERT_TRUE(exe.steps()[0].kernel.rows.has_value()) << what;
    EXPECT_EQ(exe.steps()[0].kernel.rows->outer.size(), k.outer_sums) << what;
    const std::vector<HostTensor> inputs = fast_random_inputs(fusion, 11);
    const std::vector<HostTensor> expected = interpret(fusion, inputs);
    const std::vector<HostTensor> first = exe.run(inputs), second = exe.run(inputs);
    ASSERT_EQ(first.size(), expected.size());
    for (size_t o = 0; o < expected.size(); ++o) {
      const Tolerance tolerance = expected[o].dtype() == DType::Float32
                                      ? Tolerance{1e-4, 1e-4}
                                      : default_tolerance(expected[o].dtype());
      const Comparison c = compare_tensors(first[o], expected[o], tolerance);
      EXPECT_TRUE(c.ok) << what << " output " << o << ": " << c.message;
      EXPECT_EQ(std::memcmp(first[o].storage().data(), second[o].storage().data(), first[o].storage().size()),
                0)
          << what << " output " << o << " differs between two runs";
    }
  }
}

// Every variant on small shapes: one block per group of rows, odd columns, partial vectors and grids that
// end in a partial group; then many rows per block.
TEST(GpuOuterReduction, NormalizationBackward) {
  if (!driver_status().available) GTEST_SKIP() << driver_status().reason;
  std::vector<Case> cases;
  for (auto [m, n] :
       std::vector<std::pair<int64_t, int64_t>>{{2, 64}, {3, 5000}, {17, 7}, {1000, 4096}, {4099, 64}})
    for (bool persistent : {true, false}) {
      cases.push_back({rmsnorm_backward(m, n, DType::BFloat16), 1, persistent});
      cases.push_back({layernorm_backward(m, n, DType::BFloat16), 2, persistent});
      cases.push_back({rmsnorm_backward(m, n, DType::Float32), 1, persistent});
      cases.push_back({both_axes(m, n, DType::Float32), 1, persistent});
    }
  // Many rows per block on one block per multiprocessor, partial last groups. The benchmark's own shape
  // (16384 x 4096) takes the same path; bench/reductions_vs_torch.py checks its outputs against eager.
  for (auto [m, n] : std::vector<std::pair<int64_t, int64_t>>{{4099, 5000}})
    for (bool persistent : {true, false}) {
      cases.push_back({rmsnorm_backward(m, n, DType::BFloat16), 1, persistent});
      cases.push_back({layernorm_backward(m, n, DType::BFloat16), 2, persistent});
    }
  check_all(cases);
}

// A weight gradient alone in its kernel: the sums over the leading axes run as the outer reductions of
// rows over the kept axes (lower_rows.cpp, lone_outer_row_axes), at Llama's hidden size and at one no
// vector divides.
TEST(GpuOuterReduction, WeightGradientAlone) {
  if (!driver_status().available) GTEST_SKIP() << driver_status().reason;
  check_all({{weight_gradient_alone({2053, 2048}, 1, DType::BFloat16), 1},
             {weight_gradient_alone({4, 300, 1025}, 2, DType::BFloat16), 1},
             {weight_gradient_alone({1000, 768}, 1, DType::Float32), 1, false}});
}

// Two outer-reduction kernels of different workspace layouts in one plan (a bias gradient of 1536 and one
// of 256 columns, as a Qwen2 layer's backward has), run several times: each kernel has its own part of
// the plan's workspace. Sharing one let a kernel with fewer groups write its partials over the other's
// counters, and the other's next launch summed too early (a wrong gradient, seen in a training step).
TEST(GpuOuterReduction, KernelsOfTwoLayoutsShareAPlan) {
  if (!driver_status().available) GTEST_SKIP() << driver_status().reason;
  Builder b("two_bias_gradients");
  auto column_sum = [&](int64_t columns, const char* name) {
    const Value dy = b.cast(b.input(Type::tensor(DType::BFloat16, {4096, columns}), name), DType::Float32);
    return b.cast(b.sum(dy, {0}), DType::BFloat16);
  };
  const Value wide = column_sum(1536, "dq");
  const Value narrow = column_sum(256, "dk");
  const Fusion fusion = b.finish({wide, narrow});
  ExecutableOptions options;
  options.backend = Backend::Cuda;
  options.poison_outputs = true;
  auto exe = Executable::compile(fusion, options);
  ASSERT_EQ(exe->steps().size(), 2u);
  for (const CompiledStep& step : exe->steps()) ASSERT_GT(step.workspace_bytes, 0);
  const std::vector<HostTensor> inputs = fast_random_inputs(fusion, 13);
  const std::vector<HostTensor> expected = interpret(fusion, inputs);
  for (int run = 0; run < 4; ++run) {
    const std::vector<HostTensor> actual = exe->run(inputs);
    for (size_t o = 0; o < expected.size(); ++o) {
      const Comparison c = compare_tensors(actual[o], expected[o], default_tolerance(expected[o].dtype()));
      EXPECT_TRUE(c.ok) << "run " << run << " output " << o << ": " << c.message;
    }
  }
}

}  // namespace
}  // namespace seam
