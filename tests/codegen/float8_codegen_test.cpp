// Kernels over the f8 storage dtypes (software conversions, 1-byte vectors) compile with NVRTC for sm_90.
#include <gtest/gtest.h>

#include "codegen/kernel_printer.h"
#include "lower/lower_pointwise.h"
#include "plan/pointwise_plan.h"
#include "runtime/kernel_cache.h"
#include "runtime/nvrtc_compiler.h"
#include "testing/float8_cases.h"
#include "testing/nvrtc_request.h"

namespace seam {
namespace {

TEST(Float8Codegen, KernelsCompileForSm90) {
  if (!nvrtc_available()) GTEST_SKIP() << "built without NVRTC";
  CompileRequest request = testing_nvrtc::sm90_request();
  for (const Fusion& fusion : testing_float8::float8_fusions()) {
    LoweringOptions lowering;
    lowering.kernel_name = fusion.name();
    const kir::Kernel kernel = plan_and_lower_pointwise(fusion, lowering);
    const std::string text = print_cuda_kernel(kernel, CudaLaunchShape{});
    if (fusion.name().rfind("to_", 0) == 0) {
      EXPECT_NE(text.find("seam_convert<seam_f8"), std::string::npos);
    }
    request.source += text + "\n";
    request.kernel_names.push_back(kernel.name);
  }
  CompiledKernel compiled = compile_cuda_cached(request, BinaryCache::shared());
  EXPECT_TRUE(compiled.is_cubin);
  EXPECT_EQ(compiled.symbols.size(), request.kernel_names.size());
}

}  // namespace
}  // namespace seam
