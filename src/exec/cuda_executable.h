// The CUDA backend: generated kernels compiled by NVRTC for the exact GPU (through the binary cache),
// launched through the driver API on device buffers from the caching allocator.
#pragma once

#include "codegen/kernel_printer.h"
#include "codegen/kernel_program.h"
#include "exec/executable.h"
#include "runtime/nvrtc_compiler.h"

namespace seam {

std::unique_ptr<Executable> compile_cuda_executable(Fusion fusion, SegmentedFusion segmented,
                                                    std::vector<CompiledStep> steps,
                                                    const ExecutableOptions& options);

// The NVRTC request for a program (library steps have no generated code), named after the fusion.
CompileRequest cuda_compile_request(const std::vector<CompiledStep>& steps, const std::string& fusion_name,
                                    const std::string& arch);
CompileRequest cuda_compile_request(const KernelProgram& program, const std::string& fusion_name,
                                    const std::string& arch);

// Sets what the plan must know of the default device: multiprocessors, shared memory, and no thread
// block clusters before Hopper. Throws seam::Error when no GPU is present.
void fit_launch_to_device(LaunchParams& launch);
// The default device's compute capability major version (9: Hopper, thread block clusters).
int cuda_compute_major();

}  // namespace seam
