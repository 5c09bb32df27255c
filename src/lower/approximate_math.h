// Where generated code may use the GPU's approximate math (docs/CODEGEN.md, "Approximate math"):
// exp, log, division, reciprocal, rsqrt and sigmoid in f32 by the special-function unit (relative error
// below 2^-17 over f32's range, against 2^-9 for a bf16 result and 2^-11 for f16) when everything the
// value reaches is a 16-bit floating output through floating arithmetic: no comparison, no cast to an
// integer or bool, no where-condition, no f32/f64 output sees it. Also an exp whose value reaches f32
// outputs only as a term of a sum whose log is taken (log-sum-exp, cross-entropy): the log turns the
// sum's relative error into an absolute one of about 1e-6, below f32's comparison tolerance. Exact math
// otherwise, and always on the host. A softmax or SiLU written to bf16 then costs about half the
// instructions, the difference between compute-bound and memory-bound on the H200.
#pragma once

#include <vector>

#include "ir/fusion.h"

namespace seam {

// Per value id: whether the value may be computed approximately.
std::vector<bool> approximable_values(const Fusion& fusion);

// Whether `op` has an approximate form (the operations listed above).
bool has_approximate_form(OpKind op);

}  // namespace seam
