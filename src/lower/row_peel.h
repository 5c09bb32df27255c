// Peeled row loops (kir::RowLaunch::peel; docs/CODEGEN.md, "Reductions"): when no vector width divides a
// row's length, rows of a contiguous tensor start at every alignment, and vectors along the row would
// fall back to single elements. A peeled loop keeps the vectors aligned to memory instead: with
// shift = (row * reduced) % vector, vector k of a row holds its elements k * vector - shift onwards, so
// the row's first and last vectors have lanes outside the row, which loads skip, stores leave alone and
// reductions count as their identity. Tensors laid out like S (the row kernel's contiguous inputs and
// every per-element output) are then read and written in aligned vectors; any other tensor along the row
// (a weight broadcast over rows, a strided input) is read in the narrower accesses its address allows.
#pragma once

#include <string>
#include <vector>

#include "lower/kernel_ir.h"
#include "lower/row_shape.h"

namespace seam {

// The index variable a peeled row's entry defines: (row * reduced) % vector, how many elements the row's
// start in a contiguous tensor of S's shape lies past a multiple of the vector.
inline constexpr const char* kRowShift = "seam_row_shift";

// Whether rows of `rs` can be peeled: an inner reduction whose reduced elements are the innermost axis
// alone (other reduced axes of extent 1), so that a row is contiguous in S and a vector never crosses
// into another axis.
bool peelable_rows(const RowShape& rs);

// The most vectors a peeled row of `reduced` elements spans (a row shifted by vector - 1; by columns:
// no shift).
int64_t peeled_vectors(int64_t reduced, int vector, bool columns = false);

// The element of the row at lane 0 of vector `vector_index` (< vectors): vector_index * vector - shift
// (by columns: vector_index * vector).
kir::Index peeled_element(const std::string& vector_index, int64_t vectors, int vector, bool columns = false);

// `x` on the lanes inside the row, `outside` on the others (kir::Expr::Kind::RowEdge).
kir::Expr row_edge(const kir::Var& x, Number outside);

}  // namespace seam
