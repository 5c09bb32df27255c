// Strided views: which movement ops can return an alias of their operand instead of new memory, and the
// layout (extents, strides, offset) of that alias. NoOp groups and the runtime's aliased outputs use it.
#pragma once

#include <optional>

#include "ir/fusion.h"

namespace seam {

struct StridedLayout {
  Shape shape;
  Shape strides;       // in elements; 0 on broadcast axes
  int64_t offset = 0;  // in elements, from the start of the viewed fusion input
};

// True for the ops that may produce a view: broadcast, expand, squeeze, permute, slice, reshape.
// Pad and cat never do (they need values that are not in the operand).
bool is_view_op(OpKind op);

// The strides of `new_shape` viewing a tensor of `old_shape` and `old_strides` without a copy, or
// nullopt when no strides can (PyTorch's computeStride: a reshape of a non-contiguous run of axes).
std::optional<Shape> reshape_view_strides(const Shape& old_shape, const Shape& old_strides,
                                          const Shape& new_shape);

// When `value` is a fusion input, or a chain of view ops down to one, the layout of `value` as a view
// of that input (the input's declared strides included); nullopt otherwise.
std::optional<StridedLayout> view_of_input(const Fusion& fusion, Value value);

// The first value down a chain of view ops from `value` (operands 0) that is not a view op: `value`
// itself when it is none.
Value view_root(const Fusion& fusion, Value value);

// The layout of `value` as a view of view_root(fusion, value) stored contiguously (a kernel's output),
// or nullopt when some op of the chain cannot alias it (a reshape of non-contiguous axes).
std::optional<StridedLayout> view_of_contiguous(const Fusion& fusion, Value value);
// The same over `base`, a value down the chain of view ops from `value`, stored contiguously.
std::optional<StridedLayout> view_of_contiguous(const Fusion& fusion, Value value, Value base);

// The fusion input that view_of_input(fusion, value) is a view of (follows operands 0).
Value viewed_input(const Fusion& fusion, Value value);

}  // namespace seam
