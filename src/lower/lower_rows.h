// Lowering of a reduction or normalization kernel to a row kernel (kir::RowLaunch). The kernel's
// reductions reduce tensors of one shape S over the same axes R (what the Reduction and Normalization
// scheduler kinds guarantee); the non-reduced index space of S is the set of rows. Per row, every
// reduction (in dependency order: softmax's max before its sum of exp(x - max)) loops over the row's
// reduced elements split among the row's threads, accumulating in f32 (f16/bf16/f32), f64 or wrapping
// i64 (integers, bool), then combines over the threads; every later read of it in the row uses that
// value. Outputs of the rows' shape (S without R, with any extent-1 axes) are written once per row,
// outputs of S's shape by a second loop over the row. Outputs of other shapes that read no reduction
// are chunk programs of the same kernel, lowered as in a pointwise kernel (the plan adds them). Outer
// reductions (sums over the rows of values of shape S, lower/outer_reductions.h) accumulate in the loop over
// the row and are summed over the grid at the end; the outputs reading them are written per column
// (RowLaunch::finish).
#pragma once

#include <string>
#include <vector>

#include "ir/fusion.h"
#include "lower/kernel_ir.h"
#include "lower/lower_pointwise.h"
#include "lower/row_outputs.h"
#include "lower/row_shape.h"
#include "schedule/launch_params.h"

namespace seam {

// A row kernel as the plan decided it: its layout (RowLayout, lower/row_shape.h), the schedules of its chunk
// programs (one per output of row_chunk_fusion, lowered as in a pointwise kernel) and the knobs they follow.
struct RowLoweringOptions : LaunchParams {
  std::string kernel_name = "seam_kernel";
  RowLayout layout;
  std::vector<OutputSchedule> chunk_schedules;
  // The row passes run through this one (lower/row_pipeline.h; `seam kir --pass`): empty runs them all.
  std::string row_last_pass;
};

struct RowLowering {
  kir::Kernel kernel;
  // Outputs this kernel does not write: reading a reduction at another row (a transposed reduced
  // tensor), or of another shape and reading a reduction. The Normalization predicate keeps such groups
  // apart, so the plan treats any as a seam bug.
  std::vector<int> deferred;
  // Outputs of other shapes that read no reduction: chunk programs of the same kernel, lowered as in a
  // pointwise kernel at RowLoweringOptions::chunk_schedules; the plan adds them (plan/chunk_programs.h).
  std::vector<int> chunked;
  // A reduction reads another one at another row; the kernel is then incomplete and must not be used.
  bool misaligned_reduction = false;
};

// Throws seam::Error when `fusion` has no reduction or its reductions differ in shape or axes;
// NotVectorizable (lower/expression_emitter.h) when a load or store breaks the layout's vector width
// (the plan then lowers at a narrower one). InternalError when the layout or the chunk schedules do not
// fit it.
RowLowering lower_rows(const Fusion& fusion, const RowLoweringOptions& options);

}  // namespace seam
