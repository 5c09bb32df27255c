// What the NVRTC codegen tests share: a request for sm_90 (no GPU needed) with seam's helper headers,
// the kernels' CUDA text added to it.
#pragma once

#include "codegen/kernel_printer.h"
#include "runtime/nvrtc_compiler.h"

namespace seam::testing_nvrtc {

// An empty program for sm_90 with the embedded headers generated code includes.
CompileRequest sm90_request();
// Appends `kernel` printed with literal extents (the include guard repeats safely) and its name.
void add_kernel(CompileRequest& request, const kir::Kernel& kernel, const CudaLaunchShape& shape = {});

}  // namespace seam::testing_nvrtc
