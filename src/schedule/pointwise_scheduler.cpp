#include "schedule/pointwise_scheduler.h"

namespace seam {

bool is_pointwise_kernel_op(OpKind op) {
  if (op == OpKind::Input) return false;
  OpCategory c = op_info(op).category;
  return c != OpCategory::Reduction && c != OpCategory::Opaque && c != OpCategory::Scan &&
         c != OpCategory::Scatter;
}

bool is_inlinable_reduction(const Node& node, const Fusion& fusion, int64_t limit) {
  if (node.op != OpKind::Sum && node.op != OpKind::Prod && node.op != OpKind::Max && node.op != OpKind::Min)
    return false;
  const Shape& in = fusion.type(node.operands[0]).shape;
  int64_t count = 1;
  for (int64_t axis : node.attrs.get_ints("axes")) count *= in[static_cast<size_t>(axis)];
  return count >= 1 && count <= limit;
}

bool can_schedule_pointwise(const Fusion& fusion, GroupNodes group, const ScheduleLimits& limits) {
  for (int32_t id : group) {
    const Node& node = fusion.node(Value{id});
    if (!is_pointwise_kernel_op(node.op) &&
        !is_inlinable_reduction(node, fusion, limits.max_inlined_reduction))
      return false;
  }
  return true;
}

}  // namespace seam
