// Row kernels at the edges of the plan on the GPU (docs/CODEGEN.md, "Reductions"), outputs poisoned,
// against the interpreter: peeled rows (no wide vector divides the row: every alignment of a row's start,
// weights broadcast over rows, strided inputs) and rows over thread block clusters (distributed shared
// memory combines; Hopper), at the plan's own thresholds and with them forced down. Skips without a GPU.
#include <gtest/gtest.h>

#include <string>

#include "exec/cuda_executable.h"
#include "exec/executable.h"
#include "interp/compare.h"
#include "interp/interpreter.h"
#include "row_cases.h"
#include "runtime/cuda_driver.h"
#include "tensor/fast_random.h"
#include "testing/row_fusions.h"

namespace seam {
namespace {

using enum DType;

#define SKIP_WITHOUT_GPU() \
  if (!driver_status().available) GTEST_SKIP() << driver_status().reason

Tolerance tolerance_for(DType dtype) {
  return dtype == Float32 ? Tolerance{1e-5, 1e-5} : default_tolerance(dtype);
}

struct Case {
  Fusion fusion;
  LaunchParams launch;
  std::string what;
  bool expect_peel = false;
  bool expect_cluster = false;
};

// Compiles every case at once (NVRTC takes most of the time), then runs each on the GPU against the
// interpreter and checks the row launch the plan chose.
void check_all(const std::vector<Case>& cases) {
  auto exes = compile_row_cases(cases);
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    const std::vector<HostTensor> inputs = fast_random_inputs(c.fusion, 23);
    const std::vector<HostTensor> expected = interpret(c.fusion, inputs);
    const std::vector<HostTensor> actual = exes[i]->run(inputs);
    EXPECT_EQ(actual.size(), expected.size());
    for (size_t o = 0; o < std::min(actual.size(), expected.size()); ++o) {
      const Comparison r = compare_tensors(actual[o], expected[o], tolerance_for(expected[o].dtype()));
      EXPECT_TRUE(r.ok) << c.what << " output " << o << ": " << r.message;
    }
    const kir::RowLaunch* rows = nullptr;
    for (const CompiledStep& step : exes[i]->steps())
      if (step.kernel.rows && !rows) rows = &*step.kernel.rows;
    if (!rows) {
      ADD_FAILURE() << c.what << ": no row kernel";
      continue;
    }
    if (c.expect_peel) {
      EXPECT_TRUE(rows->peel) << c.what;
    }
    if (c.expect_cluster) {
      EXPECT_GT(rows->cluster, 1) << c.what;
    }
  }
}

TEST(GpuRowEdges, PeeledRows) {
  SKIP_WITHOUT_GPU();
  LaunchParams persistent, streamed;
  streamed.row_persistent = false;
  std::vector<Case> cases;
  for (DType dtype : {BFloat16, Float16, Float32}) {
    const std::string name(dtype_name(dtype));
    for (int64_t n : {33, 4097, 12289}) {
      const std::string what = "rms_norm " + name + " N=" + std::to_string(n);
      cases.push_back({rms_norm_fusion(203, n, dtype), persistent, what, true});
      cases.push_back({rms_norm_fusion(37, n, dtype, n + 3, true), persistent, what + " strided, row bias"});
      cases.push_back({softmax_fusion(41, n, dtype), streamed, "softmax streamed " + what});
      cases.push_back({softmax_fusion(1, n, dtype, true), persistent, "log_softmax M=1 " + what});
    }
  }
  cases.push_back({integer_row_reductions(77, 4097), persistent, "integer reductions"});
  check_all(cases);
}

TEST(GpuRowEdges, RowsOverClusters) {
  SKIP_WITHOUT_GPU();
  if (cuda_compute_major() < 9) GTEST_SKIP() << "thread block clusters need Hopper (sm_90)";
  LaunchParams plan, small;
  small.row_cluster_above = 32;
  std::vector<Case> cases;
  // The plan's own clusters: long rows, few and many.
  cases.push_back({softmax_fusion(300, 65536, BFloat16), plan, "softmax 65536", false, true});
  cases.push_back({softmax_fusion(3, 262144, BFloat16), plan, "softmax 262144", false, true});
  cases.push_back({rms_norm_fusion(70, 65537, BFloat16), plan, "rms_norm 65537 (peeled, clustered)"});
  // Forced down: every cluster size on short rows, with and without a peel, f32 and bf16.
  for (int64_t n : {2048, 4097, 16384}) {
    for (int most : {2, 4, 8}) {
      small.row_cluster_max = most;
      const std::string what = "N=" + std::to_string(n) + " clusters of at most " + std::to_string(most);
      cases.push_back({softmax_fusion(129, n, BFloat16), small, "softmax " + what});
      cases.push_back({rms_norm_fusion(5, n, Float32, 0, true), small, "rms_norm " + what});
    }
  }
  check_all(cases);
}

}  // namespace
}  // namespace seam
