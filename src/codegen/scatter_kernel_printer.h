// Scatter kernels (kir::Kernel::scatter, lower/scatter_launch.h; docs/CODEGEN.md, "Scatter") as CUDA C++
// and as host C++: a work item per index element writing the source into the output, which the plan's
// copy step filled with the data before. The GPU takes the items grid-stride; the host walks them in
// order, so that its result is the interpreter's even where indices repeat.
#pragma once

#include <string>

#include "codegen/kernel_constants.h"
#include "lower/kernel_ir.h"

namespace seam {

// Extents and strides are spelled by `sp` (ExtentSpelling::Arguments: one text for every size with the
// same rank, dtypes and axis).
std::string print_cuda_scatter_kernel(const kir::Kernel& kernel, ConstantSpelling& sp);
std::string print_host_scatter_kernel(const kir::Kernel& kernel, ConstantSpelling& sp);

}  // namespace seam
