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
  bool knob_load_ahead = false;  // row_load_ahead set: the plan loads ahead where blocks loop over row groups
};

// Whether a launch's blocks loop over several row groups: the grid of an outer reduction is sized by the
// multiprocessors (partial_blocks), so this depends on the card as well as the shape.
bool blocks_loop(const kir::RowLaunch& rows) {
  const int64_t groups = (std::max<int64_t>(rows.rows, 1) + rows.rows_per_block - 1) / rows.rows_per_block;
  return rows.partial_blocks > 0 && groups > rows.partial_blocks;
}

// Compiles every case at once (NVRTC takes most of a case's time), then for each: one row kernel, run
// twice with poisoned outputs against the interpreter (f32 within the case's tolerance); both runs give
// the same bits (fixed orders everywhere, whichever block finishes last). Returns how many cases loaded
// the next row group ahead.
int check_all(const std::vector<Case>& cases) {
  auto exes = compile_row_cases(cases);
  int loaded_ahead = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    Executable& exe = *exes[i];
    EXPECT_EQ(exe.steps().size(), 1u) << c.what;
    if (exe.steps().size() != 1u || !exe.steps()[0].kernel.rows.has_value()) {
      ADD_FAILURE() << c.what << ": not one row kernel";
      continue;
    }
    const kir::RowLaunch& rows = *exe.steps()[0].kernel.rows;
    if (c.knob_load_ahead && rows.iterations > 0 && !rows.peel && rows.cluster == 1) {
      EXPECT_EQ(rows.load_ahead, blocks_loop(rows))
          << c.what << ": " << rows.rows << " rows, " << rows.rows_per_block << " per block, "
          << rows.partial_blocks << " blocks";
    }
    loaded_ahead += rows.load_ahead ? 1 : 0;
    const std::vector<HostTensor> expected = interpret(c.fusion, c.inputs);
    const std::vector<HostTensor> first = exe.run(c.inputs), second = exe.run(c.inputs);
    if (first.size() != expected.size()) {
      ADD_FAILURE() << c.what << ": " << first.size() << " outputs, expected " << expected.size();
      continue;
    }
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
  return loaded_ahead;
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
  // 1000 x 4096 loops over row groups at every share on a 132-multiprocessor card; whether 1031 x 5000
  // does depends on the card's multiprocessors (the plan's rule is checked per case).
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
        cases.push_back({fusion, launch, random_inputs(fusion, 23), 1e-4, describe(fusion, variant), true});
    }
  // Every share and both fusions at 1000 x 4096 at least: the loaded-ahead kernels ran.
  EXPECT_GE(check_all(cases), 8);
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
