// Scatter kernels (docs/CODEGEN.md, "Scatter"): planned from the shared cases (every axis, index and data
// dtype, strided operands, scalar sources), the CUDA printer's kernels compile with NVRTC for sm_90 (no
// GPU needed) with literal extents and with extents as arguments, and the texts say what they do.
#include <gtest/gtest.h>

#include "codegen/kernel_printer.h"
#include "plan/plan.h"
#include "runtime/kernel_cache.h"
#include "runtime/nvrtc_compiler.h"
#include "segment/segment.h"
#include "testing/nvrtc_request.h"
#include "testing/scatter_cases.h"

namespace seam {
namespace {

// Every scatter kernel of the cases' plans, named after its case.
std::vector<kir::Kernel> scatter_kernels() {
  std::vector<kir::Kernel> kernels;
  for (const testing_scatter::ScatterCase& c : testing_scatter::scatter_cases()) {
    const FusionPlan plan = plan_fusion(segment_fusion(c.fusion, SegmentOptions{}), PlanOptions{});
    for (const PlannedStep& step : plan.steps) {
      if (step.kind != StepKind::Scatter) continue;
      kernels.push_back(step.kernel);
      kernels.back().name = "scatter_" + c.name + "_" + std::to_string(kernels.size());
    }
  }
  return kernels;
}

TEST(ScatterCodegen, KernelsSayWhatTheyDo) {
  int scalar_sources = 0, literals = 0;
  for (const kir::Kernel& k : scatter_kernels()) {
    const std::string cuda = print_cuda_kernel(k, CudaLaunchShape{});
    const std::string host = print_host_kernel(k);
    for (const std::string& text : {cuda, host}) {
      EXPECT_NE(text.find("seam_scatter_position("), std::string::npos) << k.name;
      EXPECT_NE(text.find("if (seam_position >= 0) out0["), std::string::npos) << k.name;
      EXPECT_NE(text.find("seam_index_error"), std::string::npos) << k.name;
    }
    EXPECT_NE(cuda.find("__launch_bounds__(" + std::to_string(k.scatter->block) + ")"), std::string::npos);
    EXPECT_NE(cuda.find("gridDim.x"), std::string::npos) << k.name;  // grid-stride over the index
    EXPECT_EQ(cuda.find("seam_fill") != std::string::npos, k.scatter->scalar_src) << k.name;
    EXPECT_EQ(cuda.find("in1_ptr[0]") != std::string::npos, k.scatter->scalar_src && !k.scatter->literal)
        << k.name;
    EXPECT_EQ(cuda.find(" in1") != std::string::npos, !k.scatter->literal)
        << k.name;  // a literal: no parameter
    scalar_sources += k.scatter->scalar_src;
    literals += k.scatter->literal.has_value();
  }
  EXPECT_EQ(scalar_sources, 2);  // an input and a literal
  EXPECT_EQ(literals, 1);
}

TEST(ScatterCodegen, KernelsCompileForSm90) {
  if (!nvrtc_available()) GTEST_SKIP() << "built without NVRTC";
  const std::vector<kir::Kernel> kernels = scatter_kernels();
  ASSERT_GE(kernels.size(), 12u);
  CompileRequest request = testing_nvrtc::sm90_request();
  for (const kir::Kernel& k : kernels) testing_nvrtc::add_kernel(request, k);
  for (kir::Kernel k : kernels) {  // as the runtime prints them: extents as arguments
    k.name += "_args";
    request.source += print_cuda_kernel(k, CudaLaunchShape{k.scatter->block}, ExtentSpelling::Arguments).text;
    request.kernel_names.push_back(k.name);
  }
  CompiledKernel compiled = compile_cuda_cached(request, BinaryCache::shared());
  EXPECT_TRUE(compiled.is_cubin);
  EXPECT_EQ(compiled.symbols.size(), 2 * kernels.size());
}

}  // namespace
}  // namespace seam
