// Training row kernels on the GPU, poisoned outputs against the interpreter. Cross-entropy's gradient (the
// backward alone, and the forward that also writes the gradient): one kernel each, persistent and
// streamed rows, peeled rows (odd vocabularies), clusters (long rows), rows whose target is ignore_index
// and -inf logits. Normalization backwards with the next row group loaded ahead into registers
// (row_load_ahead) at the shares and blocks per multiprocessor the benchmark sweeps, run twice (the
// same bits: the partials' order does not depend on which block finishes last), and over rows no vector
// divides (peeled by columns).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "exec/executable.h"
#include "interp/compare.h"
#include "interp/interpreter.h"
#include "row_cases.h"
#include "runtime/cuda_driver.h"
#include "testing/cross_entropy.h"
#include "testing/norm_backward.h"

namespace seam {
namespace {

struct Case {
  Fusion fusion;
  LaunchParams launch;
  std::vector<HostTensor> inputs;
  double f32_tolerance = 1e-5;
  std::string what;
  bool expect_load_ahead = false;  // the plan loads ahead only where blocks loop over several row groups
};

// Compiles every case at once (NVRTC takes most of a case's time), then for each: one row kernel, run
// twice with poisoned outputs against the interpreter (f32 within the case's tolerance); both runs give
// the same bits (fixed orders everywhere, whichever block finishes last).
void check_all(const std::vector<Case>& cases) {
  auto exes = compile_row_cases(cases);
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    Executable& exe = *exes[i];
    ASSERT_EQ(exe.steps().size(), 1u) << c.what;
    ASSERT_TRUE(exe.steps()[0].kernel.rows.has_value()) << c.what;
    if (c.expect_load_ahead) {
      EXPECT_TRUE(exe.steps()[0].kernel.rows->load_ahead) << c.what;
    }
    const std::vector<HostTensor> expected = interpret(c.fusion, c.inputs);
    const std::vector<HostTensor> first = exe.run(c.inputs), second = exe.run(c.inputs);
    ASSERT_EQ(first.size(), expected.size());
    for (size_t o = 0; o < expected.size(); ++o) {
      const Tolerance tolerance = expected[o].dtype() == DType::Float32
                                      ? Tolerance{c.f32_tolerance, c.f32_tolerance}
                                      : default_tolerance(expected[o].dtype());
      const Comparison r = compare_tensors(first[o], expected[o], tolerance);
      EXPECT_TRUE(r.ok) << c.what << " output " << o << ": " << r.message;
      EXPECT_TRUE(first[o].storage() == second[o].storage())
          << c.what << " output " << o << " differs between two runs";
    }
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
  std::vector<Case> cases;
  for (auto [m, n] : shapes)
    for (bool persistent : {true, false}) {
      LaunchParams launch;
      launch.row_persistent = persistent;
      for (const Fusion& fusion : {cross_entropy_backward(m, n), cross_entropy_forward_backward(m, n)})
        cases.push_back({fusion, launch, cross_entropy_inputs(fusion, 17), 1e-5,
                         describe(fusion, persistent ? "persistent" : "streamed")});
    }
  check_all(cases);
}

// The share per thread and blocks per multiprocessor that bench/reductions/norm_backward_variants.sh
// measures, the next row group loaded ahead.
TEST(GpuTrainingRows, NormalizationBackwardLoadedAhead) {
  if (!driver_status().available) GTEST_SKIP() << driver_status().reason;
  std::vector<Case> cases;
  for (auto [share, threads_per_sm] :
       std::vector<std::pair<int, int>>{{0, 0}, {16, 768}, {16, 1024}, {8, 1024}})
    for (auto [m, n] : std::vector<std::pair<int64_t, int64_t>>{{4099, 64}, {1000, 4096}, {1031, 5000}}) {
      LaunchParams launch;
      launch.row_load_ahead = true;
      launch.row_outer_share = share;
      launch.row_outer_threads_per_sm = threads_per_sm;
      const std::string variant =
          "share " + std::to_string(share) + " threads/SM " + std::to_string(threads_per_sm);
      for (const Fusion& fusion :
           {rmsnorm_backward(m, n, DType::BFloat16), layernorm_backward(m, n, DType::BFloat16)})
        // 64-element rows: a block holds all of its rows at once, nothing to load ahead.
        cases.push_back(
            {fusion, launch, random_inputs(fusion, 23), 1e-4, describe(fusion, variant), n != 64});
    }
  check_all(cases);
}

// Hidden sizes no 16-byte vector divides: rows peeled by columns (kir::RowLaunch::peel_columns), x, dy
// and dx in the accesses each row's alignment allows, the weight's vectors aligned.
TEST(GpuTrainingRows, NormalizationBackwardPeeledByColumns) {
  if (!driver_status().available) GTEST_SKIP() << driver_status().reason;
  std::vector<Case> cases;
  for (auto [m, n] :
       std::vector<std::pair<int64_t, int64_t>>{{1031, 4097}, {1000, 1025}, {300, 5001}, {64, 19}})
    for (bool persistent : {true, false}) {
      LaunchParams launch;
      launch.row_persistent = persistent;
      for (const Fusion& fusion :
           {rmsnorm_backward(m, n, DType::BFloat16), layernorm_backward(m, n, DType::BFloat16),
            layernorm_backward(m, n, DType::Float32)})
        cases.push_back({fusion, launch, random_inputs(fusion, 29), 1e-4,
                         describe(fusion, persistent ? "persistent" : "streamed")});
    }
  check_all(cases);
}

}  // namespace
}  // namespace seam
