#include "passes/canonicalize_movement.h"

#include <utility>

#include "support/error.h"

namespace seam {
namespace {

using Ints = std::vector<int64_t>;

// The bounds of a slice, one entry per axis.
struct SliceBounds {
  Ints starts, stops, steps;
  friend bool operator==(const SliceBounds&, const SliceBounds&) = default;
};

SliceBounds slice_bounds(const Attrs& attrs) {
  return {attrs.get_ints("starts"), attrs.get_ints("stops"), attrs.get_ints("steps")};
}

Attrs slice_attrs(SliceBounds bounds) {
  return {{"starts", std::move(bounds.starts)},
          {"stops", std::move(bounds.stops)},
          {"steps", std::move(bounds.steps)}};
}

int64_t slice_extent(int64_t start, int64_t stop, int64_t step) { return (stop - start + step - 1) / step; }

// The canonical bounds reading element start + i * step for i < extent on one axis: a tight stop, step 1
// when at most one element is read, and 0:0:1 when none is.
void set_canonical_axis(SliceBounds& bounds, size_t axis, int64_t start, int64_t step, int64_t extent) {
  if (extent == 0) start = 0;
  if (extent <= 1) step = 1;
  bounds.starts[axis] = start;
  bounds.steps[axis] = step;
  bounds.stops[axis] = extent == 0 ? start : start + (extent - 1) * step + 1;
}

SliceBounds canonical_bounds(const SliceBounds& bounds) {
  SliceBounds out = bounds;
  for (size_t a = 0; a < bounds.starts.size(); ++a)
    set_canonical_axis(out, a, bounds.starts[a], bounds.steps[a],
                       slice_extent(bounds.starts[a], bounds.stops[a], bounds.steps[a]));
  return out;
}

Value replace_with(Builder& builder, const ProposedNode& node, OpKind op, std::vector<Value> operands,
                   Attrs attrs) {
  return add_canonical_movement(builder, ProposedNode{op, std::move(operands), std::move(attrs), node.type});
}

bool is_identity_permutation(const Ints& perm) {
  for (size_t i = 0; i < perm.size(); ++i)
    if (perm[i] != static_cast<int64_t>(i)) return false;
  return true;
}

bool all_zero(const Ints& values) {
  for (int64_t v : values)
    if (v != 0) return false;
  return true;
}

// The half-open range of the sliced value's `axis` that a slice reads, when it reads it without gaps.
std::optional<std::pair<int64_t, int64_t>> dense_range(const Node& slice, size_t axis) {
  SliceBounds bounds = canonical_bounds(slice_bounds(slice.attrs));
  if (bounds.steps[axis] != 1) return std::nullopt;
  return std::pair{bounds.starts[axis], bounds.stops[axis]};
}

// The slice reading both `first` and `second` when they are slices of one value, agree on every axis
// but `axis`, and read neighbouring ranges of it, `first` before `second`.
std::optional<SliceBounds> merged_slice(const Node& first, const Node& second, size_t axis) {
  if (first.op != OpKind::Slice || second.op != OpKind::Slice || first.operands[0] != second.operands[0])
    return std::nullopt;
  SliceBounds a = canonical_bounds(slice_bounds(first.attrs));
  SliceBounds b = canonical_bounds(slice_bounds(second.attrs));
  for (size_t d = 0; d < a.starts.size(); ++d)
    if (d != axis && (a.starts[d] != b.starts[d] || a.stops[d] != b.stops[d] || a.steps[d] != b.steps[d]))
      return std::nullopt;
  auto ra = dense_range(first, axis), rb = dense_range(second, axis);
  if (!ra || !rb || ra->second != rb->first) return std::nullopt;
  set_canonical_axis(a, axis, ra->first, 1, rb->second - ra->first);
  return a;
}

}  // namespace

std::optional<Value> fold_identity_slice(Builder& builder, const ProposedNode& node) {
  if (node.op != OpKind::Slice) return std::nullopt;
  Value x = node.operands[0];
  SliceBounds bounds = slice_bounds(node.attrs);
  const Shape& shape = builder.type(x).shape;
  for (size_t a = 0; a < shape.size(); ++a)
    if (bounds.starts[a] != 0 || slice_extent(0, bounds.stops[a], bounds.steps[a]) != shape[a])
      return std::nullopt;
  return x;
}

std::optional<Value> fold_zero_pad(Builder& builder, const ProposedNode& node) {
  if (node.op != OpKind::Pad) return std::nullopt;
  if (!all_zero(node.attrs.get_ints("low")) || !all_zero(node.attrs.get_ints("high"))) return std::nullopt;
  return node.operands[0];
}

std::optional<Value> fold_same_shape_reshape(Builder& builder, const ProposedNode& node) {
  if (node.op != OpKind::Reshape || node.attrs.get_ints("shape") != builder.type(node.operands[0]).shape)
    return std::nullopt;
  return node.operands[0];
}

std::optional<Value> fold_identity_permute(Builder& builder, const ProposedNode& node) {
  if (node.op != OpKind::Permute || !is_identity_permutation(node.attrs.get_ints("perm")))
    return std::nullopt;
  return node.operands[0];
}

std::optional<Value> fold_same_shape_expand(Builder& builder, const ProposedNode& node) {
  if (node.op != OpKind::Expand || node.attrs.get_ints("shape") != builder.type(node.operands[0]).shape)
    return std::nullopt;
  return node.operands[0];
}

std::optional<Value> fold_no_axis_squeeze_or_broadcast(Builder& builder, const ProposedNode& node) {
  if (node.op != OpKind::Squeeze && node.op != OpKind::Broadcast) return std::nullopt;
  if (!node.attrs.get_ints("axes").empty()) return std::nullopt;
  return node.operands[0];
}

std::optional<Value> fold_single_operand_cat(Builder& builder, const ProposedNode& node) {
  if (node.op != OpKind::Cat || node.operands.size() != 1) return std::nullopt;
  return node.operands[0];
}

std::optional<Value> compose_slices(Builder& builder, const ProposedNode& node) {
  if (node.op != OpKind::Slice) return std::nullopt;
  const Node& inner = builder.node(node.operands[0]);
  if (inner.op != OpKind::Slice) return std::nullopt;
  SliceBounds first = canonical_bounds(slice_bounds(inner.attrs));
  SliceBounds second = canonical_bounds(slice_bounds(node.attrs));
  // Output element i reads inner element start2 + i*step2, which reads start1 + (start2 + i*step2)*step1.
  // Canonical bounds keep the products small: a step above 1 only on axes reading two or more elements.
  SliceBounds composed = first;
  for (size_t a = 0; a < first.starts.size(); ++a) {
    int64_t extent = slice_extent(second.starts[a], second.stops[a], second.steps[a]);
    int64_t start = extent == 0 ? 0 : first.starts[a] + second.starts[a] * first.steps[a];
    set_canonical_axis(composed, a, start, first.steps[a] * second.steps[a], extent);
  }
  return replace_with(builder, node, OpKind::Slice, {inner.operands[0]}, slice_attrs(std::move(composed)));
}

std::optional<Value> normalize_slice(Builder& builder, const ProposedNode& node) {
  if (node.op != OpKind::Slice) return std::nullopt;
  SliceBounds bounds = slice_bounds(node.attrs);
  SliceBounds canonical = canonical_bounds(bounds);
  if (canonical == bounds) return std::nullopt;
  // Canonical bounds are a fixed point, so adding directly cannot loop.
  return add_proposed(
      builder, ProposedNode{OpKind::Slice, node.operands, slice_attrs(std::move(canonical)), node.type});
}

std::optional<Value> compose_reshapes(Builder& builder, const ProposedNode& node) {
  if (node.op != OpKind::Reshape) return std::nullopt;
  const Node& inner = builder.node(node.operands[0]);
  if (inner.op != OpKind::Reshape) return std::nullopt;
  // Both view the same row-major element order, so only the last shape matters.
  return replace_with(builder, node, OpKind::Reshape, {inner.operands[0]}, node.attrs);
}

// A reshape of a cast of a reshape: the cast is elementwise, so it moves after the two reshapes, which
// then compose (a traced `logits.view(4, 2048, V).float().view(-1, V)` becomes one cast of the logits,
// which a row kernel reads in place).
std::optional<Value> compose_reshapes_through_cast(Builder& builder, const ProposedNode& node) {
  if (node.op != OpKind::Reshape) return std::nullopt;
  const Node cast = builder.node(node.operands[0]);  // a copy: adding nodes may move the builder's list
  if (cast.op != OpKind::Cast || builder.node(cast.operands[0]).op != OpKind::Reshape) return std::nullopt;
  const Value reshaped = add_canonical_movement(
      builder,
      ProposedNode{OpKind::Reshape, {builder.node(cast.operands[0]).operands[0]}, node.attrs, std::nullopt});
  return add_proposed(builder, ProposedNode{OpKind::Cast, {reshaped}, cast.attrs, node.type});
}

std::optional<Value> compose_permutes(Builder& builder, const ProposedNode& node) {
  if (node.op != OpKind::Permute) return std::nullopt;
  const Node& inner = builder.node(node.operands[0]);
  if (inner.op != OpKind::Permute) return std::nullopt;
  // Output axis i is the inner's axis outer[i], which is x's axis inner[outer[i]].
  const Ints& first = inner.attrs.get_ints("perm");
  const Ints& second = node.attrs.get_ints("perm");
  Ints composed(second.size());
  for (size_t i = 0; i < second.size(); ++i) composed[i] = first[static_cast<size_t>(second[i])];
  return replace_with(builder, node, OpKind::Permute, {inner.operands[0]}, {{"perm", std::move(composed)}});
}

std::optional<Value> drop_empty_cat_operands(Builder& builder, const ProposedNode& node) {
  if (node.op != OpKind::Cat || node.operands.size() < 2) return std::nullopt;
  const size_t axis = static_cast<size_t>(node.attrs.get_int("axis"));
  std::vector<Value> kept;
  for (Value v : node.operands)
    if (builder.type(v).shape[axis] != 0) kept.push_back(v);
  if (kept.size() == node.operands.size()) return std::nullopt;
  if (kept.empty()) kept.push_back(node.operands[0]);  // all empty: any one of them is the result
  return replace_with(builder, node, OpKind::Cat, std::move(kept), node.attrs);
}

std::optional<Value> merge_adjacent_cat_slices(Builder& builder, const ProposedNode& node) {
  if (node.op != OpKind::Cat || node.operands.size() < 2) return std::nullopt;
  const size_t axis = static_cast<size_t>(node.attrs.get_int("axis"));
  std::vector<Value> merged = {node.operands[0]};
  for (size_t i = 1; i < node.operands.size(); ++i) {
    Value next = node.operands[i];
    // Copied out of the builder's node list before adding to it (which may move the nodes).
    const Node last = builder.node(merged.back());
    if (auto bounds = merged_slice(last, builder.node(next), axis)) {
      ProposedNode slice{OpKind::Slice, {last.operands[0]}, slice_attrs(std::move(*bounds)), std::nullopt};
      merged.back() = add_canonical_movement(builder, slice);
    } else {
      merged.push_back(next);
    }
  }
  if (merged.size() == node.operands.size()) return std::nullopt;
  return replace_with(builder, node, OpKind::Cat, std::move(merged), node.attrs);
}

Value add_canonical_movement(Builder& builder, const ProposedNode& node) {
  using Rule = std::optional<Value> (*)(Builder&, const ProposedNode&);
  // Identities first (they drop an op), then compositions; every rule shrinks or normalizes the chain,
  // so the recursion through replace_with ends.
  static constexpr Rule kRules[] = {
      fold_identity_slice,
      fold_zero_pad,
      fold_same_shape_reshape,
      fold_identity_permute,
      fold_same_shape_expand,
      fold_no_axis_squeeze_or_broadcast,
      fold_single_operand_cat,
      compose_slices,
      normalize_slice,
      compose_reshapes,
      compose_reshapes_through_cast,
      compose_permutes,
      drop_empty_cat_operands,
      merge_adjacent_cat_slices,
  };
  for (Rule rule : kRules) {
    if (std::optional<Value> replacement = rule(builder, node)) {
      SEAM_ASSERT(!node.type || builder.type(*replacement) == *node.type,
                  "movement rule changed the type of a ", op_name(node.op), " from ", node.type->to_string(),
                  " to ", builder.type(*replacement).to_string());
      return *replacement;
    }
  }
  return add_proposed(builder, node);
}

Fusion canonicalize_movement(const Fusion& fusion) {
  return rewrite_each_node(fusion, [](Builder& builder, const ProposedNode& node) -> std::optional<Value> {
    return add_canonical_movement(builder, node);
  });
}

}  // namespace seam
