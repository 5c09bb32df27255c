#include "schedule/noop_scheduler.h"

#include "schedule/view.h"

namespace seam {

bool can_schedule_noop(const Fusion& fusion, GroupNodes group) {
  for (int32_t id : group) {
    if (!is_view_op(fusion.node(Value{id}).op)) return false;
    if (!view_of_input(fusion, Value{id})) return false;
  }
  return true;
}

}  // namespace seam
