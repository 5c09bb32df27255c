// Scans on the GPU against the reference interpreter (tests/testing/scan_cases.h): the rows kernel's
// shuffle and block scans and its carried chunks, the lines kernel, every scan op and dtype, strided
// inputs, views copied first (GpuSuite.*, so that scripts/gpu_check.sh also runs them under
// compute-sanitizer memcheck); kernel times of a few shapes for the log (GpuScan.Times).
#include <gtest/gtest.h>

#include <cstdio>

#include "device_tensors.h"
#include "exec/executable.h"
#include "interp/compare.h"
#include "interp/interpreter.h"
#include "support/parallel.h"
#include "testing/scan_cases.h"

namespace seam {
namespace {

using testing_scan::ScanCase;

// Each case compiled for the GPU (on worker threads), run on random inputs from `seed` on, and compared
// with the interpreter at the case's tolerance.
void expect_gpu_matches_interpreter(const std::vector<ScanCase>& cases, uint64_t seed) {
  std::vector<std::unique_ptr<Executable>> exes = parallel_map(cases.size(), [&](size_t i) {
    ExecutableOptions options;
    options.backend = Backend::Cuda;
    options.poison_outputs = true;
    return Executable::compile(cases[i].fusion, options);
  });
  for (size_t i = 0; i < cases.size(); ++i) {
    const ScanCase& c = cases[i];
    SCOPED_TRACE(c.name);
    const std::vector<HostTensor> inputs = random_inputs(c.fusion, seed + i);
    const std::vector<HostTensor> expected = interpret(c.fusion, inputs);
    const std::vector<HostTensor> actual = exes[i]->run(inputs);
    const std::vector<Comparison> comparisons =
        compare_outputs(c.fusion, inputs, actual, expected, [&](DType d) { return c.tolerance(d); });
    for (size_t o = 0; o < comparisons.size(); ++o)
      EXPECT_TRUE(comparisons[o].ok) << c.name << " output " << o << ": " << comparisons[o].message;
  }
}

TEST(GpuSuite, ScanMatchesInterpreter) {
  SKIP_WITHOUT_GPU();
  expect_gpu_matches_interpreter(testing_scan::scan_cases(), 11);
}

// cumprod, cummin and cummax of every dtype (lines of 100000: many chunks carried), NaNs and signed zeros;
// extrema exactly, products at a relative tolerance (tests/testing/scan_cases.h).
TEST(GpuSuite, ProductAndExtremumScansMatchInterpreter) {
  SKIP_WITHOUT_GPU();
  expect_gpu_matches_interpreter(testing_scan::product_and_extremum_cases(false), 29);
}

// Outputs written through run_into on device memory, as Python calls it.
TEST(GpuSuite, ScanRunIntoDeviceBuffers) {
  SKIP_WITHOUT_GPU();
  const Fusion fusion = testing_scan::cumsum_fusion("into", DType::BFloat16, {64, 8192}, -1);
  ExecutableOptions options;
  options.backend = Backend::Cuda;
  auto exe = Executable::compile(fusion, options);
  const std::vector<HostTensor> inputs = random_inputs(fusion, 4);
  const DeviceTensor out = to_device(HostTensor::zeros(DType::BFloat16, {64, 8192}));
  exe->run_into({to_device(inputs[0])}, {out}, nullptr);
  const Comparison c = compare_tensors(to_host(out), interpret(fusion, inputs)[0],
                                       testing_scan::scan_tolerance(DType::BFloat16, 8192));
  EXPECT_TRUE(c.ok) << c.message;
}

// Kernel times of representative shapes, printed for the log (not a pass/fail criterion).
TEST(GpuScan, Times) {
  SKIP_WITHOUT_GPU();
  struct Shape2 {
    const char* name;
    Shape shape;
    int64_t axis;
  };
  for (const Shape2& s :
       {Shape2{"rows_4096x4096_f32", {4096, 4096}, 1}, Shape2{"rows_32x1M_f32", {32, 1 << 20}, 1},
        Shape2{"rows_65536x128_f32", {65536, 128}, 1}, Shape2{"cols_4096x4096_f32", {4096, 4096}, 0}}) {
    const Fusion fusion = testing_scan::cumsum_fusion(s.name, DType::Float32, s.shape, s.axis);
    ExecutableOptions options;
    options.backend = Backend::Cuda;
    auto exe = Executable::compile(fusion, options);
    const Timing t = exe->time_gpu({random_inputs(fusion, 1)}, 20);
    const double bytes = 8.0 * static_cast<double>(fusion.type(fusion.outputs()[0].value).numel());
    std::printf("scan %s: median %.1f us, %.0f GB/s\n", s.name, t.median_ms * 1e3,
                bytes / (t.median_ms * 1e6));
  }
}

}  // namespace
}  // namespace seam
