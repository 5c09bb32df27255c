#include "lower/approximate_math.h"

namespace seam {
namespace {

bool low_precision_float(DType dtype) { return dtype == DType::BFloat16 || dtype == DType::Float16; }

// Whether `user` passes its operand `operand_index` on as floating arithmetic (its result's precision is
// what the operand needs); false when the operand decides something exactly (a comparison, a condition,
// an integer or bool cast) or feeds a library call.
bool passes_as_float(const Node& user, size_t operand_index) {
  switch (user.category()) {
    case OpCategory::Unary:
    case OpCategory::Binary:
    case OpCategory::Ternary: {
      const DTypeRule rule = user.info().dtype_rule;
      if (rule == DTypeRule::Compare || rule == DTypeRule::Logical || rule == DTypeRule::ToBool) return false;
      if (user.op == OpKind::Where && operand_index == 0) return false;
      return is_floating(user.type.dtype);
    }
    case OpCategory::Cast: return is_floating(user.type.dtype);
    case OpCategory::Movement:
    case OpCategory::Reduction: return is_floating(user.type.dtype);
    default: return false;
  }
}

}  // namespace

bool has_approximate_form(OpKind op) {
  switch (op) {
    case OpKind::Exp:
    case OpKind::Log:
    case OpKind::Div:
    case OpKind::Reciprocal:
    case OpKind::Rsqrt:
    case OpKind::Sigmoid: return true;
    default: return false;
  }
}

std::vector<bool> approximable_values(const Fusion& fusion) {
  const size_t n = static_cast<size_t>(fusion.num_nodes());
  // Users before their operands: nodes are in topological order, so walk backwards.
  std::vector<bool> exact(n, false), used(n, false);
  for (const FusionOutput& out : fusion.outputs()) {
    used[static_cast<size_t>(out.value.id)] = true;
    if (!low_precision_float(fusion.type(out.value).dtype)) exact[static_cast<size_t>(out.value.id)] = true;
  }
  for (size_t id = n; id-- > 0;) {
    const Node& node = fusion.node(Value{static_cast<int32_t>(id)});
    for (size_t i = 0; i < node.operands.size(); ++i) {
      const size_t operand = static_cast<size_t>(node.operands[i].id);
      used[operand] = true;
      if (exact[id] || !passes_as_float(node, i)) exact[operand] = true;
    }
  }
  std::vector<bool> approximable(n);
  for (size_t id = 0; id < n; ++id) approximable[id] = used[id] && !exact[id];
  return approximable;
}

}  // namespace seam
