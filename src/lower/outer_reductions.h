// Outer reductions of a row kernel (docs/CODEGEN.md, "Reductions"): sums over the rows (the axes the
// row reductions keep) of values of the rows' operand shape S, one total per element of a row, in the
// same launch as the row reductions. The Normalization predicate admits them in pairs with the row
// reductions (schedule/outer_reduction_pair.h); this names them in a kernel's fusion.
#pragma once

#include <vector>

#include "ir/fusion.h"
#include "lower/row_shape.h"

namespace seam {

// The outer reductions of a row kernel of shape `rs`: reductions of operands of shape rs.shape over the
// axes rs.axes leaves, in id order (none when rs.axes is all of S's).
std::vector<Value> outer_reductions(const Fusion& fusion, const RowShape& rs);

// Whether `v` is or depends on one of `outer`.
bool reads_outer_reduction(const Fusion& fusion, const std::vector<Value>& outer, Value v);

// The shape, without extent-1 axes, of the outer reductions' results: S's reduced axes.
Shape outer_result_shape(const RowShape& rs);

}  // namespace seam
