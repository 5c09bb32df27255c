// Scan kernels (docs/CODEGEN.md, "Scans"): the CUDA printer's rows and lines kernels compile with NVRTC
// for sm_90 (no GPU needed) for every scan op, dtype and layout of the shared cases, and the text says
// which kernel it is and how it combines.
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

// cumprod, cummin and cummax of every dtype: a long row (the rows kernel) and a transposed middle axis
// (the lines kernel, offsets unravelled). The combine is the only part that depends on the op.
std::vector<kir::Kernel> product_and_extremum_kernels() {
  std::vector<kir::Kernel> kernels;
  for (OpKind op : {OpKind::Cumprod, OpKind::Cummin, OpKind::Cummax}) {
    for (DType d : {DType::Float32, DType::Float16, DType::BFloat16, DType::Float64, DType::Int32,
                    DType::Int64, DType::Bool}) {
      const std::string name = std::string(op_name(op)) + "_" + std::string(dtype_name(d));
      const Fusion fusions[] = {
          testing_scan::scan_fusion(name + "_rows", op, d, {3, 5000}, -1),
          testing_scan::scan_fusion(name + "_middle_t", op, d, {3, 40, 5}, 1, {1, 15, 3}),
      };
      for (const Fusion& f : fusions) {
        ScanLoweringOptions options;
        options.kernel_name = "scan_" + f.name();
        kernels.push_back(lower_scan(f, options));
      }
    }
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

namespace seam {
namespace {

TEST(ScanCodegen, ProductsAndExtremaCombineAsTheirOp) {
  int rows = 0, lines = 0;
  for (const kir::Kernel& k : product_and_extremum_kernels()) {
    const std::string cuda = print_cuda_kernel(k, CudaLaunchShape{});
    const std::string host = print_host_kernel(k);
    const bool extremum = k.scan->combine != kir::ScanCombine::Prod;
    const std::string step =
        k.scan->combine == kir::ScanCombine::Min ? "seam_cummin_step(" : "seam_cummax_step(";
    for (const std::string* text : {&cuda, &host}) {
      EXPECT_EQ(text->find(step) != std::string::npos, extremum) << k.name;
      EXPECT_EQ(text->find(" *= ") != std::string::npos, !extremum) << k.name;
      EXPECT_EQ(text->find("seam_sum += "), std::string::npos) << k.name;  // no running sum
      EXPECT_EQ(text->find("seam_total += "), std::string::npos) << k.name;
    }
    EXPECT_EQ(cuda.find("__shfl_up_sync") != std::string::npos, k.scan->rows()) << k.name;
    rows += k.scan->rows();
    lines += !k.scan->rows();
  }
  EXPECT_EQ(rows, 3 * 7);
  EXPECT_EQ(lines, 3 * 7);
}

TEST(ScanCodegen, ProductAndExtremumKernelsCompileForSm90) {
  if (!nvrtc_available()) GTEST_SKIP() << "built without NVRTC";
  const std::vector<kir::Kernel> kernels = product_and_extremum_kernels();
  CompileRequest request = testing_nvrtc::sm90_request();
  for (const kir::Kernel& k : kernels) testing_nvrtc::add_kernel(request, k);
  CompiledKernel compiled = compile_cuda_cached(request, BinaryCache::shared());
  EXPECT_TRUE(compiled.is_cubin);
  EXPECT_EQ(compiled.symbols.size(), kernels.size());
}

}  // namespace
}  // namespace seam
