// Scan kernels (docs/CODEGEN.md, "Scans"): the CUDA printer's rows and lines kernels compile with NVRTC
// for sm_90 (no GPU needed) for every dtype and layout of the shared cases, and the text says which
// kernel it is.
#include <gtest/gtest.h>

#include "codegen/kernel_printer.h"
#include "lower/lower_scan.h"
#include "runtime/kernel_cache.h"
#include "runtime/nvrtc_compiler.h"
#include "testing/nvrtc_request.h"
#include "testing/scan_cases.h"

namespace seam {
namespace {

// The single-cumsum cases are kernel fusions already (an input and its scan).
std::vector<kir::Kernel> scan_kernels() {
  std::vector<kir::Kernel> kernels;
  for (const testing_scan::ScanCase& c : testing_scan::scan_cases()) {
    if (c.fusion.num_nodes() != 2) continue;
    ScanLoweringOptions options;
    options.kernel_name = "scan_" + c.name;
    kernels.push_back(lower_scan(c.fusion, options));
  }
  return kernels;
}

TEST(ScanCodegen, RowsAndLinesKernelsSayWhatTheyAre) {
  int rows = 0, lines = 0;
  for (const kir::Kernel& k : scan_kernels()) {
    const std::string cuda = print_cuda_kernel(k, CudaLaunchShape{});
    const std::string host = print_host_kernel(k);
    EXPECT_NE(cuda.find("__launch_bounds__(" + std::to_string(k.scan->block) + ")"), std::string::npos);
    EXPECT_EQ(cuda.find("__shfl_up_sync") != std::string::npos, k.scan->rows()) << k.name;
    EXPECT_EQ(host.find("__shfl"), std::string::npos) << k.name;
    EXPECT_EQ(cuda.find("seam_in_base = 0;") != std::string::npos, !k.scan->contiguous) << k.name;
    rows += k.scan->rows();
    lines += !k.scan->rows();
  }
  EXPECT_GT(rows, 5);
  EXPECT_GT(lines, 5);
}

TEST(ScanCodegen, KernelsCompileForSm90) {
  if (!nvrtc_available()) GTEST_SKIP() << "built without NVRTC";
  const std::vector<kir::Kernel> kernels = scan_kernels();
  CompileRequest request = testing_nvrtc::sm90_request();
  for (const kir::Kernel& k : kernels) testing_nvrtc::add_kernel(request, k);
  CompiledKernel compiled = compile_cuda_cached(request, BinaryCache::shared());
  EXPECT_TRUE(compiled.is_cubin);
  EXPECT_EQ(compiled.symbols.size(), kernels.size());
}

}  // namespace
}  // namespace seam
