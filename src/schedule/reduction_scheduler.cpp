#include "schedule/reduction_scheduler.h"

#include <algorithm>
#include <optional>

#include "schedule/pointwise_scheduler.h"

namespace seam {

ReductionSignature reduction_signature(const Fusion& fusion, Value reduction) {
  const Node& n = fusion.node(reduction);
  return ReductionSignature{fusion.type(n.operands[0]).shape, n.attrs.get_ints("axes")};
}

bool can_schedule_reduction(const Fusion& fusion, GroupNodes group) {
  std::optional<ReductionSignature> signature;
  // Nodes of the group that are reductions or read one inside the group, ascending like `group`.
  std::vector<int32_t> after_reduction;
  auto is_after = [&](Value v) {
    return std::binary_search(after_reduction.begin(), after_reduction.end(), v.id);
  };
  for (int32_t id : group) {
    const Node& n = fusion.node(Value{id});
    bool reduction = n.category() == OpCategory::Reduction;
    if (!reduction && !is_pointwise_kernel_op(n.op)) return false;
    for (Value operand : n.operands)
      if (is_after(operand)) return false;
    if (!reduction) continue;
    ReductionSignature s = reduction_signature(fusion, Value{id});
    if (signature && !(*signature == s)) return false;
    signature = std::move(s);
    after_reduction.push_back(id);
  }
  if (!signature) return true;
  int64_t limit = Type::tensor(DType::Float32, signature->input_shape).numel();
  for (int32_t id : group)
    if (fusion.node(Value{id}).type.numel() > limit) return false;
  return true;
}

}  // namespace seam
