// Steps of a Reduction or Normalization group (docs/CODEGEN.md, "Reductions"). Normally one row kernel
// (lower/lower_rows.h). Outputs a row kernel cannot write (another shape, or a reduced tensor read at
// another row, e.g. transposed) go to a pointwise kernel after it, which reads the reductions it needs
// from memory. When a reduction itself reads another at another row, each level of reductions gets its
// own row kernel and a pointwise kernel computes the remaining outputs.
#pragma once

#include <string>
#include <vector>

#include "exec/executable.h"
#include "runtime/module.h"

namespace seam {

// Kernels are named `name_prefix` + "_k" + their index among all steps, starting at `first_index`.
std::vector<CompiledStep> lower_row_group(const SegmentedFusion& segmented, size_t group,
                                          const ExecutableOptions& options, const std::string& name_prefix,
                                          size_t first_index);

// The part of a kernel fusion computing `outputs` (values of whole.fusion), with the nodes in `cut` (ids
// of whole.fusion) read from memory as inputs instead of computed.
KernelFusion sub_kernel_fusion(const KernelFusion& whole, const std::vector<Value>& outputs,
                               const std::vector<bool>& cut, const std::string& name);

// The CUDA launch of a row kernel: its block, and a block per rows_per_block rows (or per block of
// chunks, if more), at most `max_blocks_per_sm` per multiprocessor (0: no cap; the kernel loops over the
// rest).
LaunchConfig row_launch_config(const kir::Kernel& kernel, int sm_count, int max_blocks_per_sm);

}  // namespace seam
