// Scans through segmentation, planning, code generation and the host backend, against the reference
// interpreter (tests/testing/scan_cases.h; cumprod, cummin and cummax through the whole-tool check), and
// the scan's place in the plan: a kernel of its own, the rows kernel for long innermost lines, the lines
// kernel otherwise, views copied first.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "exec/executable.h"
#include "interp/compare.h"
#include "interp/interpreter.h"
#include "ir/builder.h"
#include "support/error.h"
#include "testing/random_fusion.h"
#include "testing/scan_cases.h"
#include "testing/whole_tool_check.h"

namespace seam {
namespace {

using testing_scan::scan_cases;
using testing_scan::scan_tolerance;

std::unique_ptr<Executable> compile_host(const Fusion& fusion) {
  ExecutableOptions options;
  options.backend = Backend::Host;
  options.poison_outputs = true;
  return Executable::compile(fusion, options);
}

void expect_matches_interpreter(const Fusion& fusion, Executable& exe, int64_t extent, uint64_t seed) {
  const std::vector<HostTensor> inputs = random_inputs(fusion, seed);
  const std::vector<HostTensor> expected = interpret(fusion, inputs);
  const std::vector<HostTensor> actual = exe.run(inputs);
  const std::vector<Comparison> comparisons =
      compare_outputs(fusion, inputs, actual, expected, [&](DType d) { return scan_tolerance(d, extent); });
  for (size_t o = 0; o < comparisons.size(); ++o)
    EXPECT_TRUE(comparisons[o].ok) << fusion.name() << " output " << o << ": " << comparisons[o].message;
}

TEST(ScanExecutable, HostBackendMatchesInterpreter) {
  for (const testing_scan::ScanCase& c : scan_cases()) {
    SCOPED_TRACE(c.name);
    auto exe = compile_host(c.fusion);
    expect_matches_interpreter(c.fusion, *exe, c.extent, 3);
  }
}

// Every stage of the tool on each case (text round trip, passes, segmentation, both printers), then the
// host backend against the interpreter: rows of a full chunk and a part, middle axes, transposed inputs,
// NaNs and signed zeros.
TEST(ScanExecutable, ProductsAndExtremaAgreeWithTheInterpreter) {
  for (const testing_scan::ScanCase& c : testing_scan::product_and_extremum_cases(true)) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(host_backend_disagreement(c.fusion), "");
  }
}

// The f32 cumprod tolerance against rounding and a real mistake: a serial f32 product of the long rows'
// 100000 factors 1 +- 2^-7 stays within it of the double product everywhere, one factor dropped does not;
// it stays far below what dropping or repeating a factor makes: 2^-7 for the long rows, 5e-4 for a factor
// in [0.999, 1.001] at the Python tests' lengths (up to 4097).
TEST(ScanExecutable, FloatProductToleranceAdmitsRoundingAndCatchesADroppedFactor) {
  const int64_t n = 100000;
  const double rtol = testing_scan::float_product_rtol(n);
  EXPECT_LT(rtol, 0x1p-7 / 20);
  EXPECT_LT(testing_scan::float_product_rtol(4097), 5e-4 / 20);
  std::mt19937_64 rng(7);
  float single = 1;
  double exact = 1, dropped = 1, rounding = 0, missing = 0;
  for (int64_t k = 0; k < n; ++k) {
    const double factor = (rng() & 1) ? 1 + 0x1p-7 : 1 - 0x1p-7;
    single *= static_cast<float>(factor);
    exact *= factor;
    if (k != n / 2) dropped *= factor;
    rounding = std::max(rounding, std::fabs(single - exact) / std::fabs(exact));
    missing = std::max(missing, std::fabs(dropped - exact) / std::fabs(exact));
  }
  EXPECT_GT(rounding, 0);
  EXPECT_LE(rounding, rtol);
  EXPECT_GT(missing, rtol);
}

TEST(ScanExecutable, ProductsAndExtremaTakeTheRowsAndLinesKernels) {
  std::unique_ptr<Executable> exe;
  for (const testing_scan::ScanCase& c : testing_scan::product_and_extremum_cases(true))
    if (c.name.starts_with("extrema_f16_")) exe = compile_host(c.fusion);
  ASSERT_NE(exe, nullptr);
  int rows = 0, lines = 0, several_chunks = 0, maxima = 0;
  for (const CompiledStep& step : exe->steps()) {
    if (step.kind != StepKind::Scan) continue;
    const kir::ScanLaunch& s = *step.kernel.scan;
    EXPECT_TRUE(s.combine == kir::ScanCombine::Min || s.combine == kir::ScanCombine::Max);
    maxima += s.combine == kir::ScanCombine::Max;
    rows += s.rows();
    lines += !s.rows();
    several_chunks += s.rows() && s.extent > s.chunk();
  }
  EXPECT_EQ(rows, 8);            // the long row, the NaN row, the transposed rows, the zeros: min and max
  EXPECT_EQ(several_chunks, 4);  // the long row and the NaN row
  EXPECT_EQ(lines, 4);           // the middle axis and the transposed columns
  EXPECT_EQ(maxima, 6);
}

const kir::ScanLaunch& only_scan(const Executable& exe) {
  const kir::ScanLaunch* scan = nullptr;
  for (const CompiledStep& step : exe.steps()) {
    if (step.kind != StepKind::Scan) continue;
    EXPECT_EQ(scan, nullptr) << "more than one scan step";
    scan = &*step.kernel.scan;
  }
  SEAM_ASSERT(scan != nullptr, "no scan step");
  return *scan;
}

TEST(ScanExecutable, LongInnermostLinesTakeTheRowsKernel) {
  auto rows = compile_host(testing_scan::cumsum_fusion("rows", DType::Float16, {3, 4097}, -1));
  EXPECT_EQ(rows->segmented().num_kernels(), 1);
  const kir::ScanLaunch& r = only_scan(*rows);
  EXPECT_TRUE(r.rows());
  EXPECT_EQ(r.items, 8);  // 16 bytes of f16
  EXPECT_EQ(r.threads, 256);
  EXPECT_EQ(r.blocks, 3);
  EXPECT_EQ(r.extent, 4097);

  // Short rows and other axes: a thread per line.
  // The executables outlive the launches read from them.
  auto short_rows = compile_host(testing_scan::cumsum_fusion("short", DType::Float32, {9, 33}, 1));
  const kir::ScanLaunch& s = only_scan(*short_rows);
  EXPECT_FALSE(s.rows());
  EXPECT_EQ(s.lines, 9);
  auto middle_axis = compile_host(testing_scan::cumsum_fusion("middle", DType::Int32, {4, 1000, 5}, 1));
  const kir::ScanLaunch& m = only_scan(*middle_axis);
  EXPECT_FALSE(m.rows());
  EXPECT_EQ(m.lines, 20);
  EXPECT_EQ(m.inner, 5);
  EXPECT_TRUE(m.contiguous);
}

TEST(ScanExecutable, ScanIsAlonePointwiseNeighboursAndViewsCopiedFirst) {
  for (const testing_scan::ScanCase& c : scan_cases()) {
    if (c.name != "around") continue;
    auto exe = compile_host(c.fusion);
    int scans = 0, copies = 0;
    for (const CompiledStep& step : exe->steps()) {
      scans += step.kind == StepKind::Scan;
      copies += step.copy_of >= 0;
      if (step.kind == StepKind::Scan) {
        EXPECT_EQ(step.kernel_fusion.fusion.num_nodes(), 2);  // input, cumsum
      }
    }
    EXPECT_EQ(scans, 2);
    EXPECT_EQ(copies, 1);                          // the permuted input the second scan reads
    EXPECT_EQ(exe->segmented().num_kernels(), 4);  // mul, two scans, exp
  }
}

TEST(ScanExecutable, RunIntoCallerBuffersMatchesRun) {
  const Fusion fusion = testing_scan::cumsum_fusion("into", DType::Int32, {7, 1000}, 1);
  auto exe = compile_host(fusion);
  std::vector<HostTensor> inputs = random_inputs(fusion, 5);
  const std::vector<HostTensor> expected = exe->run(inputs);
  HostTensor out = HostTensor::zeros(DType::Int64, {7, 1000});
  auto caller = [](HostTensor& t) {
    return DeviceTensor{reinterpret_cast<DevicePtr>(t.storage().data()), t.dtype(), t.shape(), t.strides(),
                        nullptr};
  };
  exe->run_into({caller(inputs[0])}, {caller(out)}, nullptr);
  EXPECT_EQ(out.storage(), expected[0].storage());
}

TEST(ScanExecutable, RandomFusionsWithScans) {
  RandomFusionOptions options;
  options.scans = true;
  options.opaque = false;
  int with_scans = 0;
  for (uint64_t seed = 0; seed < 60; ++seed) {
    const Fusion fusion = random_fusion(seed, options);
    bool has_scan = false;
    for (const Node& n : fusion.nodes()) has_scan = has_scan || n.category() == OpCategory::Scan;
    if (!has_scan) continue;
    ++with_scans;
    SCOPED_TRACE("seed " + std::to_string(seed));
    auto exe = compile_host(fusion);
    expect_matches_interpreter(fusion, *exe, 64, seed);
  }
  EXPECT_GE(with_scans, 12);
}

}  // namespace
}  // namespace seam
