// The CUDA backend: generated kernels compiled by NVRTC for the exact GPU (through the binary cache),
// launched through the driver API on device buffers from the caching allocator.
#pragma once

#include "codegen/kernel_printer.h"
#include "exec/executable.h"

namespace seam {

std::unique_ptr<Executable> compile_cuda_executable(Fusion fusion, SegmentedFusion segmented,
                                                    std::vector<CompiledStep> steps,
                                                    const ExecutableOptions& options);

// The CUDA source of a whole executable: every step's kernel in one translation unit.
std::string print_cuda_program(const std::vector<CompiledStep>& steps, const CudaLaunchShape& shape);

}  // namespace seam
