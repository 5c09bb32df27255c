// Scan kernels (kir::Kernel::scan, lower/scan_launch.h; docs/CODEGEN.md, "Scans") as CUDA C++ and as host
// C++. The host kernel walks the same chunks and per-thread shares as the GPU's rows kernel, so that the
// host backend checks the partition of a row into chunks and threads; only the order in which the
// threads' totals are added differs (in sequence on the host, a shuffle tree on the GPU).
#pragma once

#include <string>

#include "lower/kernel_ir.h"

namespace seam {

std::string print_cuda_scan_kernel(const kir::Kernel& kernel);
std::string print_host_scan_kernel(const kir::Kernel& kernel);

}  // namespace seam
