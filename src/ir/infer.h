// Shape and dtype rules: checks one op against its operands and attributes and returns its result
// type. The builder, the parser and the verifier all go through here, so the rules live in one place.
#pragma once

#include <optional>
#include <vector>

#include "ir/attr.h"
#include "ir/op.h"
#include "ir/type.h"

namespace seam {

// Throws seam::Error naming the op and what is wrong. `declared` is the written result type, required
// for leaves (input, const, full, iota) and ignored otherwise. `attrs` must already be normalized.
Type infer_type(OpKind op, const std::vector<Type>& operands, const Attrs& attrs,
                const std::optional<Type>& declared);

// The dtype a pointwise op computes in: its operands are converted to it before the math.
// For comparisons it is the promoted operand dtype, for the rest the result dtype (bool for logical).
DType pointwise_compute_dtype(OpKind op, const std::vector<Type>& operands);

}  // namespace seam
