#include "schedule/pointwise_scheduler.h"

namespace seam {

bool is_pointwise_kernel_op(OpKind op) {
  if (op == OpKind::Input) return false;
  OpCategory c = op_info(op).category;
  return c != OpCategory::Reduction && c != OpCategory::Opaque;
}

bool can_schedule_pointwise(const Fusion& fusion, GroupNodes group) {
  for (int32_t id : group)
    if (!is_pointwise_kernel_op(fusion.node(Value{id}).op)) return false;
  return true;
}

}  // namespace seam
