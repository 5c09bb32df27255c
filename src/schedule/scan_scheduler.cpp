#include "schedule/scan_scheduler.h"

namespace seam {

bool can_schedule_scan(const Fusion& fusion, GroupNodes group) {
  if (group.empty()) return true;
  return group.size() == 1 && fusion.node(Value{group[0]}).category() == OpCategory::Scan;
}

}  // namespace seam
