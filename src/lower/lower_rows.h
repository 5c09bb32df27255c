// Lowering of a reduction or normalization kernel to a row kernel (kir::RowLaunch). The kernel's
// reductions reduce tensors of one shape S over the same axes R (what the Reduction and Normalization
// scheduler kinds guarantee); the non-reduced index space of S is the set of rows. Per row, every
// reduction (in dependency order: softmax's max before its sum of exp(x - max)) loops over the row's
// reduced elements split among the row's threads, accumulating in f32 (f16/bf16/f32), f64 or wrapping
// i64 (integers, bool), then combines over the threads; every later read of it in the row uses that
// value. Outputs of the rows' shape (S without R, with any extent-1 axes) are written once per row,
// outputs of S's shape by a second loop over the row. Outputs of other shapes that read no reduction
// are chunk programs of the same kernel, lowered as in a pointwise kernel.
#pragma once

#include <string>
#include <vector>

#include "ir/fusion.h"
#include "lower/kernel_ir.h"
#include "lower/lower_pointwise.h"

namespace seam {

// The decided knobs of a row kernel: row_block_size threads per block (a power of two from 32 to 1024;
// others are rounded down); the others apply to its chunk programs, lowered as in a pointwise kernel.
struct RowLoweringOptions : LaunchParams {
  std::string kernel_name = "seam_kernel";
};

struct RowLowering {
  kir::Kernel kernel;
  // Outputs this kernel does not write: reading a reduction at another row (a transposed reduced
  // tensor), or of another shape and reading a reduction. The Normalization predicate keeps such groups
  // apart, so the plan treats any as a seam bug.
  std::vector<int> deferred;
  // A reduction reads another one at another row; the kernel is then incomplete and must not be used.
  bool misaligned_reduction = false;
};

// Throws seam::Error when `fusion` has no reduction or its reductions differ in shape or axes.
RowLowering lower_rows(const Fusion& fusion, const RowLoweringOptions& options);

// Per node: -1 for a node that is not a reduction; for a reduction, 0 when its operand depends on no
// reduction, else 1 + the largest level among the reductions it depends on (through non-reductions).
std::vector<int> reduction_levels(const Fusion& fusion);

}  // namespace seam
