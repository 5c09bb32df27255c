// Prints a lowered kernel as CUDA C++ (for NVRTC) or as host C++ (for the host backend). Both share the
// kernel body; only the entry point differs: a grid-stride loop over chunks on the GPU, a plain loop over
// the same chunks on the host (entry `void NAME(void** args)`, args in parameter order).
#pragma once

#include <sstream>
#include <string>

#include "lower/kernel_ir.h"

namespace seam {

struct CudaLaunchShape {
  int block_size = 128;       // __launch_bounds__; the grid-stride loop serves any grid size
  int min_blocks_per_sm = 0;  // __launch_bounds__'s second argument when > 0 (LaunchParams)
  int cluster = 1;            // > 1: __cluster_dims__(cluster, 1, 1) (row kernels over clusters)
};

std::string print_cuda_kernel(const kir::Kernel& kernel, const CudaLaunchShape& shape);
// `SEAM_KERNEL void __launch_bounds__(B) NAME(params) {`, the idx_t typedef and the scalar loads: scalar
// parameters are pointers to device memory holding the value (NAME_ptr), read into NAME once.
void print_cuda_signature(const kir::Kernel& kernel, const CudaLaunchShape& shape, std::ostringstream& out);
std::string print_host_kernel(const kir::Kernel& kernel);

}  // namespace seam
