// Lowering of a scatter kernel (plan/plan.h plans one per Scatter group, after the copy of its data into
// the output): the kernel fusion is one scatter whose index and source are kernel inputs (a scalar source:
// a scalar input), its output the scatter. The layout (kir::ScatterLaunch, lower/scatter_launch.h) follows
// from the index's shape and the operands' strides; the printers write its code
// (codegen/scatter_kernel_printer.h).
#pragma once

#include <string>

#include "lower/kernel_ir.h"

namespace seam {

struct ScatterLoweringOptions {
  std::string kernel_name = "seam_scatter";
  int block = 256;  // threads per block
};

// Throws seam::Error naming the kernel when the fusion is not one scatter of kernel inputs.
kir::Kernel lower_scatter(const Fusion& kernel_fusion, const ScatterLoweringOptions& options);

}  // namespace seam
