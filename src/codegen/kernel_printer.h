// Prints a lowered kernel as CUDA C++ (for NVRTC) or as host C++ (for the host backend). Both share the
// kernel body; only the entry point differs: a grid-stride loop over chunks on the GPU, a plain loop over
// the same chunks on the host (entry `void NAME(void** args)`, args in parameter order).
#pragma once

#include <sstream>
#include <string>

#include "codegen/kernel_constants.h"
#include "lower/kernel_ir.h"

namespace seam {

struct CudaLaunchShape {
  int block_size = 128;       // __launch_bounds__; the grid-stride loop serves any grid size
  int min_blocks_per_sm = 0;  // __launch_bounds__'s second argument when > 0 (LaunchParams)
  int cluster = 1;            // > 1: __cluster_dims__(cluster, 1, 1) (row kernels over clusters)
};

// A kernel's text and, when its extents are arguments, the values its launches pass.
struct PrintedKernel {
  std::string text;
  KernelConstants constants;
};

// With ExtentSpelling::Arguments the text takes a last argument `seam_k` (constants_argument_slot) that
// launches fill from `constants` (KernelConstants::pack). The overloads without a mode print literals:
// a text that runs alone (tests, run_host_kernel).
PrintedKernel print_cuda_kernel(const kir::Kernel& kernel, const CudaLaunchShape& shape, ExtentSpelling mode);
std::string print_cuda_kernel(const kir::Kernel& kernel, const CudaLaunchShape& shape);
// `SEAM_KERNEL void __launch_bounds__(B) NAME(params) {`, the idx_t typedef and the scalar loads: scalar
// parameters are pointers to device memory holding the value (NAME_ptr), read into NAME once. With
// `constants` holding arguments, the extents' struct is the last parameter.
void print_cuda_signature(const kir::Kernel& kernel, const CudaLaunchShape& shape, std::ostringstream& out,
                          const ConstantSpelling* constants = nullptr);
PrintedKernel print_host_kernel(const kir::Kernel& kernel, ExtentSpelling mode);
std::string print_host_kernel(const kir::Kernel& kernel);
// The argument index of the extents' struct: after the parameters, the index error record and the
// workspace (kir::trailing_slots).
int constants_argument_slot(const kir::Kernel& kernel);

}  // namespace seam
