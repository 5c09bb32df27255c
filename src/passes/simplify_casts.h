// simplify_casts: removes casts that cannot change a value.
//   cast(x: T -> T)                 -> x
//   cast(cast(x: T -> A) -> B)      -> cast(x: T -> B), when every value of T is exact in A
// A cast converts a value, not a bit pattern, so when T -> A is exact the inner cast hands the outer one
// the very value x holds and skipping it changes nothing (bf16 -> f32 -> bf16 becomes x). When T -> A can
// round (f32 -> bf16 -> f32, i32 -> f32 -> i32), the chain stays.
#pragma once

#include <optional>

#include "ir/fusion.h"
#include "passes/rewrite.h"

namespace seam {

Fusion simplify_casts(const Fusion& fusion);

// True when converting any value of `from` to `to` and back gives it back exactly: bool to anything,
// i32 to i64 or f64, f16 and bf16 to f32 or f64, f32 to f64, and any dtype to itself.
bool is_value_preserving_cast(DType from, DType to);

// The rules, each applied to a proposed node whose operands are values of `builder`. They return the
// replacement, or nullopt when the rule does not apply.
std::optional<Value> fold_same_dtype_cast(Builder& builder, const ProposedNode& node);
std::optional<Value> fold_cast_of_exact_cast(Builder& builder, const ProposedNode& node);

}  // namespace seam
