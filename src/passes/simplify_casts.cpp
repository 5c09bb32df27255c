#include "passes/simplify_casts.h"

namespace seam {

bool is_value_preserving_cast(DType from, DType to) {
  if (from == to || from == DType::Bool) return true;
  switch (from) {
    case DType::Int32: return to == DType::Int64 || to == DType::Float64;  // 31 bits fit f64's 53
    case DType::Float16:
    case DType::BFloat16:
    case DType::Float32: return to == DType::Float64 || (from != DType::Float32 && to == DType::Float32);
    default: return false;  // i64 fits nothing wider; f64 is the widest float
  }
}

std::optional<Value> fold_same_dtype_cast(Builder& builder, const ProposedNode& node) {
  if (node.op != OpKind::Cast) return std::nullopt;
  Value x = node.operands[0];
  if (builder.type(x).dtype != node.attrs.get_dtype("dtype")) return std::nullopt;
  return x;
}

std::optional<Value> fold_cast_of_exact_cast(Builder& builder, const ProposedNode& node) {
  if (node.op != OpKind::Cast) return std::nullopt;
  const Node& inner = builder.node(node.operands[0]);
  if (inner.op != OpKind::Cast) return std::nullopt;
  Value x = inner.operands[0];
  if (!is_value_preserving_cast(builder.type(x).dtype, inner.type.dtype)) return std::nullopt;
  ProposedNode direct{OpKind::Cast, {x}, node.attrs, node.type};
  if (auto same = fold_same_dtype_cast(builder, direct)) return same;
  return add_proposed(builder, direct);
}

Fusion simplify_casts(const Fusion& fusion) {
  return rewrite_each_node(fusion, [](Builder& builder, const ProposedNode& node) -> std::optional<Value> {
    if (auto folded = fold_same_dtype_cast(builder, node)) return folded;
    return fold_cast_of_exact_cast(builder, node);
  });
}

}  // namespace seam
