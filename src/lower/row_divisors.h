// A row loop that divides by a value of the row (softmax's e / sum, a normalization's x / rms) computes
// the reciprocal once before the loop and multiplies inside it: one multiply per element instead of a
// division (about ten instructions in f32), which is what keeps such a loop memory-bound. The product of
// a correctly rounded reciprocal differs from the quotient by at most one unit in the last place
// (docs/CODEGEN.md, "Row kernels").
#pragma once

#include "lower/kernel_ir.h"

namespace seam {

// Rewrites the floating divisions of every row loop of `launch` whose divisor is defined outside it.
void hoist_row_divisors(kir::RowLaunch& launch);

}  // namespace seam
