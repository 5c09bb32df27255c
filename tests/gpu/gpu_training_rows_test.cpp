// Training row kernels on the GPU, poisoned outputs against the interpreter. Cross-entropy's gradient (the
// backward alone, and the forward that also writes the gradient): one kernel each, persistent and
// streamed rows, peeled rows (odd vocabularies), clusters (long rows), rows whose target is ignore_index
// and -inf logits. Normalization backwards with the next row group loaded ahead into registers
// (row_load_ahead) at the shares and blocks per multiprocessor the benchmark sweeps, run twice (the
// same bits: the partials' order does not depend on which block finishes last), and over rows no vector
// divides (peeled by columns).
#include <gtest/gtest.h>

#include <cstring>

#include "exec/executable.h"
#include "interp/compare.h"
#include "interp/interpreter.h"
#include "runtime/cuda_driver.h"
#include "testing/cross_entropy.h"
#include "testing/norm_backward.h"

namespace seam {
namespace {

// Compiles `fusion` for the GPU with poisoned outputs as `launch` says, checks that it is one row kernel,
// runs it twice on `inputs` and compares with the interpreter (f32 within `f32_tolerance`); both runs
// give the same bits (fixed orders everywhere, whichever block finishes last).
void check(const Fusion& fusion, const LaunchParams& launch, const std::vector<HostTensor>& inputs,
           double f32_tolerance, const std::string& what) {
  ExecutableOptions options;
  options.backend = Backend::Cuda;
  options.poison_outputs = true;
  options.segment.rules.limits.max_inlined_reduction = 0;
  options.launch = launch;
  auto exe = Executable::compile(fusion, options);
  ASSERT_EQ(exe->steps().size(), 1u) << what;
  ASSERT_TRUE(exe->steps()[0].kernel.rows.has_value()) << what;
  if (launch.row_load_ahead) EXPECT_TRUE(exe->steps()[0].kernel.rows->load_ahead) << what;
  const std::vector<HostTensor> expected = interpret(fusion, inputs);
  const std::vector<HostTensor> first = exe->run(inputs), second = exe->run(inputs);
  ASSERT_EQ(first.size(), expected.size());
  for (size_t o = 0; o < expected.size(); ++o) {
    const Tolerance tolerance = expected[o].dtype() == DType::Float32
                                    ? Tolerance{f32_tolerance, f32_tolerance}
                                    : default_tolerance(expected[o].dtype());
    const Comparison c = compare_tensors(first[o], expected[o], tolerance);
    EXPECT_TRUE(c.ok) << what << " output " << o << ": " << c.message;
    EXPECT_EQ(std::memcmp(first[o].storage().data(), second[o].storage().data(), first[o].storage().size()),
              0)
        << what << " output " << o << " differs between two runs";
  }
}

std::string describe(const Fusion& fusion, const std::string& variant) {
  return fusion.name() + " " + shape_to_string(fusion.type(fusion.inputs()[0]).shape) + " " + variant;
}

TEST(GpuTrainingRows, CrossEntropyGradients) {
  if (!driver_status().available) GTEST_SKIP() << driver_status().reason;
  const std::vector<std::pair<int64_t, int64_t>> shapes = {
      {1, 1},      {5, 7},      {4, 513},    {3, 4097},   {1, 4096},   {300, 4096},
      {64, 32000}, {48, 32064}, {32, 50257}, {8, 128256}, {4, 151936}, {2, 262144}};
  for (auto [m, n] : shapes)
    for (bool persistent : {true, false}) {
      LaunchParams launch;
      launch.row_persistent = persistent;
      for (const Fusion& fusion : {cross_entropy_backward(m, n), cross_entropy_forward_backward(m, n)})
        check(fusion, launch, cross_entropy_inputs(fusion, 17), 1e-5,
              describe(fusion, persistent ? "persistent" : "streamed"));
    }
}

// The share per thread and blocks per multiprocessor that bench/reductions/norm_backward_variants.sh
// measures, the next row group loaded ahead.
TEST(GpuTrainingRows, NormalizationBackwardLoadedAhead) {
  if (!driver_status().available) GTEST_SKIP() << driver_status().reason;
  for (auto [share, threads_per_sm] :
       std::vector<std::pair<int, int>>{{0, 0}, {16, 768}, {16, 1024}, {8, 1024}})
    for (auto [m, n] : std::vector<std::pair<int64_t, int64_t>>{{4099, 64}, {1000, 4096}, {4099, 5000}}) {
      LaunchParams launch;
      launch.row_load_ahead = true;
      launch.row_outer_share = share;
      launch.row_outer_threads_per_sm = threads_per_sm;
      const std::string variant =
          "share " + std::to_string(share) + " threads/SM " + std::to_string(threads_per_sm);
      for (const Fusion& fusion :
           {rmsnorm_backward(m, n, DType::BFloat16), layernorm_backward(m, n, DType::BFloat16)})
        check(fusion, launch, random_inputs(fusion, 23), 1e-4, describe(fusion, variant));
    }
}

// Hidden sizes no 16-byte vector divides: rows peeled by columns (kir::RowLaunch::peel_columns), x, dy
// and dx in the accesses each row's alignment allows, the weight's vectors aligned.
TEST(GpuTrainingRows, NormalizationBackwardPeeledByColumns) {
  if (!driver_status().available) GTEST_SKIP() << driver_status().reason;
  for (auto [m, n] :
       std::vector<std::pair<int64_t, int64_t>>{{4099, 4097}, {1000, 1025}, {300, 5001}, {64, 19}})
    for (bool persistent : {true, false}) {
      LaunchParams launch;
      launch.row_persistent = persistent;
      for (const Fusion& fusion :
           {rmsnorm_backward(m, n, DType::BFloat16), layernorm_backward(m, n, DType::BFloat16),
            layernorm_backward(m, n, DType::Float32)})
        check(fusion, launch, random_inputs(fusion, 29), 1e-4,
              describe(fusion, persistent ? "persistent" : "streamed"));
    }
}

}  // namespace
}  // namespace seam
