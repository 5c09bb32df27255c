// Row kernels with outer reductions on the GPU (normalization backward's weight gradients in dx's
// kernel, docs/CODEGEN.md "Reductions"): poisoned outputs against the interpreter, persistent and
// streamed rows, grids from one block per group of rows to one per multiprocessor with many rows each;
// every kernel runs twice (its last blocks leave the counters zero for the next launch) and gives the
// same bits both times (the partials are summed in a fixed order, whichever block finishes last).
#include <gtest/gtest.h>

#include <cstring>

#include "exec/executable.h"
#include "interp/compare.h"
#include "interp/fast_random.h"
#include "interp/interpreter.h"
#include "runtime/cuda_driver.h"
#include "testing/norm_backward.h"

namespace seam {
namespace {

void check(const Fusion& fusion, size_t outer_sums, bool persistent, bool prefetch = false) {
  ExecutableOptions options;
  options.launch.row_prefetch = prefetch;
  options.backend = Backend::Cuda;
  options.poison_outputs = true;
  options.segment.rules.limits.max_inlined_reduction = 0;
  options.launch.row_persistent = persistent;
  const Shape& shape = fusion.type(fusion.inputs()[0]).shape;
  const std::string what = fusion.name() + " " + shape_to_string(shape) + " " +
                           std::string(dtype_name(fusion.type(fusion.inputs()[0]).dtype)) +
                           (persistent ? " persistent" : " streamed") + (prefetch ? " prefetch" : "");
  auto exe = Executable::compile(fusion, options);
  ASSERT_EQ(exe->steps().size(), 1u) << what;
  ASSERT_TRUE(exe->steps()[0].kernel.rows.has_value()) << what;
  EXPECT_EQ(exe->steps()[0].kernel.rows->outer.size(), outer_sums) << what;
  const std::vector<HostTensor> inputs = fast_random_inputs(fusion, 11);
  const std::vector<HostTensor> expected = interpret(fusion, inputs);
  const std::vector<HostTensor> first = exe->run(inputs), second = exe->run(inputs);
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

// Every variant on shapes the interpreter checks quickly: one block per group of rows, odd columns,
// partial vectors and grids that end in a partial group.
TEST(GpuOuterReduction, NormalizationBackward) {
  if (!driver_status().available) GTEST_SKIP() << driver_status().reason;
  const std::vector<std::pair<int64_t, int64_t>> shapes = {
      {2, 64}, {3, 5000}, {17, 7}, {1000, 4096}, {4099, 64}};
  for (auto [m, n] : shapes)
    for (bool persistent : {true, false}) {
      check(rmsnorm_backward(m, n, DType::BFloat16), 1, persistent);
      check(layernorm_backward(m, n, DType::BFloat16), 2, persistent);
      check(rmsnorm_backward(m, n, DType::Float32), 1, persistent);
      check(both_axes(m, n, DType::Float32), 1, persistent);
    }
}

// Rows staged in shared memory while the block computes the previous ones (row_prefetch: cp.async,
// two stages in dynamic shared memory, per-row scalars staged too): many rows per block.
TEST(GpuOuterReduction, PrefetchedRows) {
  if (!driver_status().available) GTEST_SKIP() << driver_status().reason;
  for (auto [m, n] : std::vector<std::pair<int64_t, int64_t>>{{1000, 4096}, {4099, 64}, {4099, 5000}}) {
    check(rmsnorm_backward(m, n, DType::BFloat16), 1, true, true);
    check(layernorm_backward(m, n, DType::BFloat16), 2, true, true);
    check(layernorm_backward(m, n, DType::Float32), 2, true, true);
  }
  check(rmsnorm_backward(16384, 4096, DType::BFloat16), 1, true, true);
}

// The benchmark's shapes, many rows per block on one block per multiprocessor: bf16 only (the
// interpreter's references of these take most of the time).
TEST(GpuOuterReduction, NormalizationBackwardAtBenchmarkShapes) {
  if (!driver_status().available) GTEST_SKIP() << driver_status().reason;
  for (auto [m, n] : std::vector<std::pair<int64_t, int64_t>>{{4099, 5000}, {16384, 4096}})
    for (bool persistent : {true, false}) {
      check(rmsnorm_backward(m, n, DType::BFloat16), 1, persistent);
      check(layernorm_backward(m, n, DType::BFloat16), 2, persistent);
    }
}

}  // namespace
}  // namespace seam
