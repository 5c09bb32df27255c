// What a row kernel reduces and where it writes each output: the shape every lowering and planning
// decision about a row kernel starts from (lower/lower_rows.h lowers it, plan/row_plan.h lays it out).
#pragma once

#include <cstdint>
#include <vector>

#include "ir/fusion.h"

namespace seam {

// What a row kernel reduces: the operand shape S of its reductions, their axes, its rows (S's non-reduced
// index space) and each row's reduced elements. A kernel whose only reductions are f32 sums over leading
// axes (a weight gradient alone) takes the kept axes as its rows' elements: the sums become outer
// reductions of those rows (docs/CODEGEN.md, "Lone column sums"). Throws seam::Error when `fusion` has
// no reduction.
struct RowShape {
  Shape shape;
  std::vector<int64_t> axes;
  int64_t rows = 1, reduced = 1;
  bool inner_reduced = false;  // the reduced axes include the innermost one
};
RowShape row_shape(const Fusion& fusion);

// The outputs of a row kernel's fusion that it computes as chunk programs (other shapes, reading no
// reduction), and the fusion of all its inputs computing only those (empty outputs when none).
std::vector<int> row_chunked_outputs(const Fusion& fusion);
Fusion row_chunk_fusion(const Fusion& fusion);

// Where a row kernel computes an output: nothing (empty), once per row (the rows' shape), in a second
// loop over the row (S's shape), once per column after the outer reductions (their result's shape), not
// at all (another shape reading a reduction), or as a chunk program.
enum class RowOutput { Empty, PerRow, PerElement, Outer, Deferred, Chunked };

RowOutput classify_row_output(const Fusion& fusion, const RowShape& rs, size_t o);

// `fusion` with every input (same order, so the same parameters) and only `outputs`.
Fusion fusion_with_outputs(const Fusion& fusion, const std::vector<Value>& outputs);

}  // namespace seam
