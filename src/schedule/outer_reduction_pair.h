// Normalization backward in one kernel: a row kernel's reductions over axes R of a shape S (the row
// reductions, R holding S's innermost axis) may share the launch with outer reductions, sums over the
// complementary axes (the rows) of values of the same shape S: the weight gradients of RMSNorm and
// LayerNorm, sum over the rows of dy * xhat (docs/CODEGEN.md, "Reductions", outer reductions).
#pragma once

#include "ir/fusion.h"
#include "schedule/reduction_scheduler.h"

namespace seam {

// The shape, without extent-1 axes, that the reductions complementary to `s` produce: S's `s.axes`.
Shape complementary_part(const ReductionSignature& s);

// Whether reductions `a` and `b`, of different signatures, can be one row kernel's row and outer
// reductions. A condition on the pair alone (the Normalization predicate stays pairwise):
//   1. both reduce operands of one shape S (no extent 0), over disjoint axes that together are all of
//      S's, the row reduction's holding the innermost axis;
//   2. the outer one is a sum of f16, bf16 or f32 values (accumulated in f32, like the row reductions);
//   3. S, the rows' shape and the outer result's shape differ without extent-1 axes, so that a value
//      of the outer result's shape reads neither a row's values nor its reductions;
//   4. everything that depends on the outer reduction in the fusion is elementwise (unary, binary,
//      ternary, cast) of the outer result's shape: the kernel computes the sum only after every row,
//      so nothing of the rows may read it; what reads it (a cast to the weight's dtype) is computed per
//      column when the sum is done.
bool fuses_as_outer_reduction(const Fusion& fusion, Value a, Value b);

}  // namespace seam
