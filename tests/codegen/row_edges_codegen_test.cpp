// The CUDA of every row-kernel edge variant compiled by NVRTC for sm_90 (no GPU needed): peeled rows
// (masked edge loads and stores, lane-by-lane loads of tensors not laid out like the rows), rows over
// thread block clusters (distributed shared memory combines), both together, persistent and streamed.
#include <gtest/gtest.h>

#include "codegen/embedded_headers.h"
#include "codegen/kernel_printer.h"
#include "plan/row_plan.h"
#include "runtime/kernel_cache.h"
#include "runtime/nvrtc_compiler.h"
#include "testing/nvrtc_request.h"
#include "testing/row_fusions.h"

namespace seam {
namespace {

using enum DType;

TEST(RowEdgesCodegen, PeeledAndClusteredKernelsCompileForSm90) {
  if (!nvrtc_available()) GTEST_SKIP() << "built without NVRTC";
  CompileRequest request = testing_nvrtc::sm90_request();
  int peeled = 0, clustered = 0;
  auto add = [&](const Fusion& fusion, RowLoweringOptions options) {
    options.kernel_name = "row_" + std::to_string(request.kernel_names.size());
    const kir::Kernel kernel = plan_and_lower_rows(fusion, options).kernel;
    const std::string source = print_cuda_kernel(kernel, CudaLaunchShape{});
    if (kernel.rows->peel) {
      ++peeled;
      EXPECT_NE(source.find("seam_load_edge<"), std::string::npos) << source;
    }
    if (kernel.rows->cluster > 1) {
      ++clustered;
      EXPECT_NE(source.find("__cluster_dims__(" + std::to_string(kernel.rows->cluster)), std::string::npos);
    }
    request.source += source + "\n";
    request.kernel_names.push_back(options.kernel_name);
  };
  RowLoweringOptions plain, streamed, small_clusters;
  streamed.row_persistent = false;
  small_clusters.row_cluster_above = 32;
  for (DType dtype : {BFloat16, Float16, Float32}) {
    add(rms_norm_fusion(16, 4097, dtype), plain);
    add(rms_norm_fusion(16, 4097, dtype, 4100, true), plain);
    add(softmax_fusion(16, 12289, dtype), streamed);
    add(softmax_fusion(16, 4097, dtype, true), small_clusters);
  }
  add(integer_row_reductions(8, 33), plain);
  add(softmax_fusion(1024, 65536, BFloat16), plain);
  add(softmax_fusion(256, 262144, BFloat16), plain);
  add(rms_norm_fusion(64, 65537, BFloat16), plain);
  EXPECT_GE(peeled, 10);
  EXPECT_GE(clustered, 5);
  CompiledKernel compiled = compile_cuda_cached(request, BinaryCache::shared());
  EXPECT_TRUE(compiled.is_cubin);
  EXPECT_EQ(compiled.symbols.size(), request.kernel_names.size());
}

}  // namespace
}  // namespace seam
