// Row kernels at the edges of the plan on the GPU (docs/CODEGEN.md, "Reductions"), outputs poisoned,
// against the interpreter: peeled rows (no wide vector divides the row: every alignment of a row's start,
// weights broadcast over rows, strided inputs) and rows over thread block clusters (distributed shared
// memory combines; Hopper), at the plan's own thresholds and with them forced down. Skips without a GPU.
#include <gtest/gtest.h>

#include <string>

#include "exec/cuda_executable.h"
#include "exec/executable.h"
#include "interp/compare.h"
#include "interp/fast_random.h"
#include "interp/interpreter.h"
#include "runtime/cuda_driver.h"
#include "testing/row_fusions.h"

namespace seam {
namespace {

using enum DType;

#define SKIP_WITHOUT_GPU() \
  if (!driver_status().available) GTEST_SKIP() << driver_status().reason

Tolerance tolerance_for(DType dtype) {
  return dtype == Float32 ? Tolerance{1e-5, 1e-5} : default_tolerance(dtype);
}

// Runs `fusion` on the GPU and the interpreter; returns the row launch the plan chose.
kir::RowLaunch check_on_gpu(const Fusion& fusion, const LaunchParams& launch, const std::string& what) {
  ExecutableOptions options;
  options.backend = Backend::Cuda;
  options.poison_outputs = true;
  options.segment.rules.limits.max_inlined_reduction = 0;
  options.launch = launch;
  auto exe = Executable::compile(fusion, options);
  const std::vector<HostTensor> inputs = fast_random_inputs(fusion, 23);
  const std::vector<HostTensor> expected = interpret(fusion, inputs);
  const std::vector<HostTensor> actual = exe->run(inputs);
  EXPECT_EQ(actual.size(), expected.size());
  for (size_t o = 0; o < std::min(actual.size(), expected.size()); ++o) {
    const Comparison c = compare_tensors(actual[o], expected[o], tolerance_for(expected[o].dtype()));
    EXPECT_TRUE(c.ok) << what << " output " << o << ": " << c.message;
  }
  for (const CompiledStep& step : exe->steps())
    if (step.kernel.rows) return *step.kernel.rows;
  ADD_FAILURE() << what << ": no row kernel";
  return {};
}

TEST(GpuRowEdges, PeeledRows) {
  SKIP_WITHOUT_GPU();
  LaunchParams persistent, streamed;
  streamed.row_persistent = false;
  for (DType dtype : {BFloat16, Float16, Float32}) {
    const std::string name(dtype_name(dtype));
    for (int64_t n : {33, 4097, 12289}) {
      const std::string what = "rms_norm " + name + " N=" + std::to_string(n);
      EXPECT_TRUE(check_on_gpu(rms_norm_fusion(203, n, dtype), persistent, what).peel) << what;
      check_on_gpu(rms_norm_fusion(37, n, dtype, n + 3, true), persistent, what + " strided, row bias");
      check_on_gpu(softmax_fusion(41, n, dtype), streamed, "softmax streamed " + what);
      check_on_gpu(softmax_fusion(1, n, dtype, true), persistent, "log_softmax M=1 " + what);
    }
  }
  check_on_gpu(integer_row_reductions(77, 4097), persistent, "integer reductions");
}

TEST(GpuRowEdges, RowsOverClusters) {
  SKIP_WITHOUT_GPU();
  if (cuda_compute_major() < 9) GTEST_SKIP() << "thread block clusters need Hopper (sm_90)";
  LaunchParams plan, small;
  small.row_cluster_above = 32;
  // The plan's own clusters: long rows, few and many.
  EXPECT_GT(check_on_gpu(softmax_fusion(300, 65536, BFloat16), plan, "softmax 65536").cluster, 1);
  EXPECT_GT(check_on_gpu(softmax_fusion(3, 262144, BFloat16), plan, "softmax 262144").cluster, 1);
  check_on_gpu(rms_norm_fusion(70, 65537, BFloat16), plan, "rms_norm 65537 (peeled, clustered)");
  // Forced down: every cluster size on short rows, with and without a peel, f32 and bf16.
  for (int64_t n : {2048, 4097, 16384}) {
    for (int most : {2, 4, 8}) {
      small.row_cluster_max = most;
      const std::string what = "N=" + std::to_string(n) + " clusters of at most " + std::to_string(most);
      check_on_gpu(softmax_fusion(129, n, BFloat16), small, "softmax " + what);
      check_on_gpu(rms_norm_fusion(5, n, Float32, 0, true), small, "rms_norm " + what);
    }
  }
}

}  // namespace
}  // namespace seam
