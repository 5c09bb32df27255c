// Where a row kernel writes each output of its fusion (lower/row_shape.h's rows and elements, the outer
// reductions' columns, or chunk programs), for the plan and the row lowering (row_outputs.cpp also
// emits them: lower/row_emitter.h).
#pragma once

#include <vector>

#include "ir/fusion.h"
#include "lower/row_shape.h"

namespace seam {

// Where a row kernel computes an output: nothing (empty), once per row (the rows' shape), in a second
// loop over the row (S's shape), once per column after the outer reductions (their result's shape), not
// at all (another shape reading a reduction), or as a chunk program.
enum class RowOutput { Empty, PerRow, PerElement, Outer, Deferred, Chunked };

RowOutput classify_row_output(const Fusion& fusion, const RowShape& rs, size_t o);

// `fusion` with every input (same order, so the same parameters) and only `outputs`.
Fusion fusion_with_outputs(const Fusion& fusion, const std::vector<Value>& outputs);

// The outputs of a row kernel's fusion that it computes as chunk programs (other shapes, reading no
// reduction), and the fusion of all its inputs computing only those (empty outputs when none).
std::vector<int> row_chunked_outputs(const Fusion& fusion);
Fusion row_chunk_fusion(const Fusion& fusion);

}  // namespace seam
