#include "schedule/matmul_scheduler.h"

namespace seam {

bool can_schedule_matmul(const Fusion& fusion, GroupNodes group) {
  if (group.empty()) return true;
  return group.size() == 1 && fusion.node(Value{group[0]}).category() == OpCategory::Opaque;
}

}  // namespace seam
