// Scan kernels (kir::Kernel::scan, lower/scan_launch.h; docs/CODEGEN.md, "Scans") as CUDA C++ and as host
// C++. The host kernel walks the same chunks and per-thread shares as the GPU's rows kernel, so that the
// host backend checks the partition of a row into chunks and threads; only the order in which the
// threads' totals are added differs (in sequence on the host, a shuffle tree on the GPU).
#pragma once

#include <string>

#include "codegen/kernel_constants.h"
#include "lower/kernel_ir.h"

namespace seam {

// The line count, the scanned extent and the line layout (extents, strides) are spelled by `sp`: with
// ExtentSpelling::Arguments, every size of a launch layout (rows or lines kernel, threads, items a
// thread) prints one text.
std::string print_cuda_scan_kernel(const kir::Kernel& kernel, ConstantSpelling& sp);
std::string print_host_scan_kernel(const kir::Kernel& kernel, ConstantSpelling& sp);

}  // namespace seam
