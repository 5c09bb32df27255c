#include "schedule/scatter_scheduler.h"

namespace seam {

bool can_schedule_scatter(const Fusion& fusion, GroupNodes group) {
  if (group.empty()) return true;
  return group.size() == 1 && fusion.node(Value{group[0]}).category() == OpCategory::Scatter;
}

}  // namespace seam
