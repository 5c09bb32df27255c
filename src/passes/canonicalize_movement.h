// canonicalize_movement: puts chains of movement ops (slice, pad, cat, reshape, permute, squeeze,
// broadcast, expand) into a canonical, shorter form. Movement ops only choose which input element each
// output element reads, so two chains that read the same elements in the same places are the same
// value, bit for bit; every rule below keeps the result type exactly.
//
// Identities (the op is dropped):
//   slice starting at 0 whose result has the operand's shape    pad with all-zero low and high
//   reshape to the operand's shape     permute by 0,1,..,r-1     expand to the operand's shape
//   squeeze of no axes                 broadcast of no axes      cat of one operand
// Compositions (two ops become one):
//   slice of slice -> slice      reshape of reshape -> reshape      permute of permute -> permute
//   reshape of a cast of a reshape -> a cast of one reshape (a cast is elementwise: it commutes)
// Cat:
//   operands with extent 0 on the cat axis are dropped (they contribute nothing);
//   adjacent slices of one value that are neighbouring ranges of the cat axis (and agree on every
//   other axis) merge into one slice, so a split followed by a cat of the pieces, in order, over the
//   whole axis gives back the split value.
// Slices are also normalized: a tight stop, and step 1 on axes of extent <= 1, so equal slices look equal.
#pragma once

#include <optional>

#include "ir/fusion.h"
#include "passes/rewrite.h"

namespace seam {

Fusion canonicalize_movement(const Fusion& fusion);

// Adds `node` to `builder` in canonical form: applies the rules below until none applies and returns
// the value standing for the node (possibly an existing one).
Value add_canonical_movement(Builder& builder, const ProposedNode& node);

// The rules. Each takes a proposed node whose operands are values of `builder` and returns its
// replacement (built through add_canonical_movement when it makes a new op), or nullopt when it does
// not apply.
std::optional<Value> fold_identity_slice(Builder& builder, const ProposedNode& node);
std::optional<Value> fold_zero_pad(Builder& builder, const ProposedNode& node);
std::optional<Value> fold_same_shape_reshape(Builder& builder, const ProposedNode& node);
std::optional<Value> fold_identity_permute(Builder& builder, const ProposedNode& node);
std::optional<Value> fold_same_shape_expand(Builder& builder, const ProposedNode& node);
std::optional<Value> fold_no_axis_squeeze_or_broadcast(Builder& builder, const ProposedNode& node);
std::optional<Value> fold_single_operand_cat(Builder& builder, const ProposedNode& node);
std::optional<Value> compose_slices(Builder& builder, const ProposedNode& node);
std::optional<Value> compose_reshapes(Builder& builder, const ProposedNode& node);
std::optional<Value> compose_permutes(Builder& builder, const ProposedNode& node);
std::optional<Value> normalize_slice(Builder& builder, const ProposedNode& node);
std::optional<Value> drop_empty_cat_operands(Builder& builder, const ProposedNode& node);
std::optional<Value> merge_adjacent_cat_slices(Builder& builder, const ProposedNode& node);

}  // namespace seam
