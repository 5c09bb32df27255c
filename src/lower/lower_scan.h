// Lowering of a scan kernel (plan/plan.h plans one per Scan group): the kernel fusion is one scan (cumsum,
// cumprod, cummin, cummax) of a kernel input, its output the scan. The layout (kir::ScanLaunch,
// lower/scan_launch.h) follows from the shape, the input's strides and the block cap; the printers write its
// code (codegen/scan_kernel_printer.h).
#pragma once

#include <string>

#include "lower/kernel_ir.h"

namespace seam {

struct ScanLoweringOptions {
  std::string kernel_name = "seam_scan";
  int max_threads = 256;  // threads per block of the rows kernel (a multiple of 32, at most 1024)
};

// Rows shorter than this are scanned by a thread each (the lines kernel): a block of 32 threads or more
// would leave most of them idle.
inline constexpr int64_t kMinScanRowExtent = 64;

// Throws seam::Error naming the kernel when the fusion is not one scan of an input.
kir::Kernel lower_scan(const Fusion& kernel_fusion, const ScanLoweringOptions& options);

}  // namespace seam
