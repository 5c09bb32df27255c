#include "lower/approximate_math.h"

#include <algorithm>

namespace seam {
namespace {

// What a value's consumers need of it, loosest first: the approximate forms' relative error (2^-17)
// is invisible in a 16-bit result; a positive term of a sum whose log is taken may carry it too (the
// log turns the sum's relative error, at most its terms', into an absolute one far below f32's
// comparison tolerance: log-sum-exp, cross-entropy); anything else needs exact math.
enum class Need { Approximate, LogOfSum, Exact };

bool low_precision_float(DType dtype) { return dtype == DType::BFloat16 || dtype == DType::Float16; }

// What operand `operand_index` of `user` needs when `user` needs `need`.
Need operand_need(const Node& user, size_t operand_index, Need need) {
  if (!is_floating(user.type.dtype)) return Need::Exact;
  switch (user.category()) {
    case OpCategory::Unary:
    case OpCategory::Binary:
    case OpCategory::Ternary: {
      const DTypeRule rule = user.info().dtype_rule;
      if (rule == DTypeRule::Compare || rule == DTypeRule::Logical || rule == DTypeRule::ToBool ||
          rule == DTypeRule::Predicate)
        return Need::Exact;
      if (user.op == OpKind::Where && operand_index == 0) return Need::Exact;
      if (user.op == OpKind::Log && need == Need::Exact) return Need::LogOfSum;
      return need == Need::Approximate ? Need::Approximate : Need::Exact;
    }
    case OpCategory::Cast:
    case OpCategory::Movement: return need;
    case OpCategory::Reduction:
      if (user.op == OpKind::Sum && need == Need::LogOfSum) return Need::LogOfSum;
      return need == Need::Approximate ? Need::Approximate : Need::Exact;
    default: return Need::Exact;
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
  std::vector<Need> need(n, Need::Approximate);
  std::vector<bool> used(n, false);
  for (const FusionOutput& out : fusion.outputs()) {
    const size_t id = static_cast<size_t>(out.value.id);
    used[id] = true;
    if (!low_precision_float(fusion.type(out.value).dtype)) need[id] = Need::Exact;
  }
  // Users before their operands: nodes are in topological order, so walk backwards.
  for (size_t id = n; id-- > 0;) {
    const Node& node = fusion.node(Value{static_cast<int32_t>(id)});
    for (size_t i = 0; i < node.operands.size(); ++i) {
      const size_t operand = static_cast<size_t>(node.operands[i].id);
      used[operand] = true;
      need[operand] = std::max(need[operand], operand_need(node, i, need[id]));
    }
  }
  std::vector<bool> approximable(n);
  for (size_t id = 0; id < n; ++id) {
    const Node& node = fusion.node(Value{static_cast<int32_t>(id)});
    // A log-of-sum term may be approximate only where it is produced: exp's result is positive, so the
    // sum does not cancel.
    approximable[id] =
        used[id] && (need[id] == Need::Approximate || (need[id] == Need::LogOfSum && node.op == OpKind::Exp));
  }
  return approximable;
}

}  // namespace seam
