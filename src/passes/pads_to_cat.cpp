#include "passes/pads_to_cat.h"

#include <optional>

#include "passes/rewrite.h"

namespace seam {
namespace {

// A pad with value 0 that extends exactly one axis (no cropping).
struct ZeroPad {
  Value x;
  size_t axis;
  int64_t begin, end;  // the interior along `axis`
};

std::optional<ZeroPad> as_zero_pad(const Builder& builder, Value v) {
  const Node& node = builder.node(v);
  if (node.op != OpKind::Pad) return std::nullopt;
  const Number& value = node.attrs.get_number("value");
  if (value.as_double() != 0.0) return std::nullopt;
  const auto &low = node.attrs.get_ints("low"), &high = node.attrs.get_ints("high");
  std::optional<size_t> axis;
  for (size_t d = 0; d < low.size(); ++d) {
    if (low[d] < 0 || high[d] < 0) return std::nullopt;
    if (low[d] == 0 && high[d] == 0) continue;
    if (axis) return std::nullopt;
    axis = d;
  }
  if (!axis) return std::nullopt;
  const int64_t extent = builder.type(node.operands[0]).shape[*axis];
  return ZeroPad{node.operands[0], *axis, low[*axis], low[*axis] + extent};
}

bool summable(const Type& t) { return t.dtype != DType::Bool && !t.is_scalar; }

// pad(cat(first, second)) when the interiors of `a` and `b` are adjacent along the same axis.
std::optional<Value> merge(Builder& builder, Value a, Value b) {
  auto pa = as_zero_pad(builder, a), pb = as_zero_pad(builder, b);
  if (!pa || !pb || pa->axis != pb->axis) return std::nullopt;
  if (pb->end == pa->begin) std::swap(pa, pb);
  if (pa->end != pb->begin) return std::nullopt;
  const Type type = builder.type(a);  // copies: adding nodes below may move the builder's storage
  const Number zero = builder.node(a).attrs.get_number("value");
  const size_t axis = pa->axis;
  Value joined = builder.cat({pa->x, pb->x}, static_cast<int64_t>(axis));
  std::vector<int64_t> low(type.shape.size(), 0), high(type.shape.size(), 0);
  low[axis] = pa->begin;
  high[axis] = type.shape[axis] - pb->end;
  if (low[axis] == 0 && high[axis] == 0) return joined;
  return builder.pad(joined, low, high, zero);
}

Value plus_zero(Builder& builder, Value v) {
  const Type t = builder.type(v);
  return builder.add(v, builder.full(t.shape, t.dtype, Number::of_int(0)));
}

std::optional<Value> rewrite_add(Builder& builder, const ProposedNode& node) {
  if (node.op != OpKind::Add) return std::nullopt;
  Value x = node.operands[0], y = node.operands[1];
  const Type type = builder.type(x);
  if (!summable(type) || builder.type(y) != type || (node.type && *node.type != type)) return std::nullopt;
  if (auto joined = merge(builder, x, y)) return plus_zero(builder, *joined);
  // (m + p) + q or q + (m + p), p and q adjacent zero pads, every add of one type.
  for (int side = 0; side < 2; ++side) {
    Value sum = side == 0 ? x : y, q = side == 0 ? y : x;
    const Node inner = builder.node(sum);
    if (inner.op != OpKind::Add || inner.type != type) continue;
    for (int k = 0; k < 2; ++k) {
      Value p = inner.operands[static_cast<size_t>(k)], m = inner.operands[static_cast<size_t>(1 - k)];
      if (builder.type(p) != type || builder.type(m) != type) continue;
      if (auto joined = merge(builder, p, q)) return plus_zero(builder, builder.add(m, *joined));
    }
  }
  return std::nullopt;
}

}  // namespace

Fusion pads_to_cat(const Fusion& fusion) { return rewrite_each_node(fusion, rewrite_add); }

}  // namespace seam
