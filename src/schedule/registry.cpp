#include "schedule/registry.h"

#include "schedule/matmul_scheduler.h"
#include "schedule/noop_scheduler.h"
#include "schedule/normalization_scheduler.h"
#include "schedule/pointwise_scheduler.h"
#include "schedule/reduction_scheduler.h"
#include "schedule/scan_scheduler.h"
#include "schedule/scatter_scheduler.h"
#include "support/error.h"

namespace seam {

std::span<const SchedulerKind> scheduler_order() { return kAllSchedulerKinds; }

bool can_schedule(SchedulerKind kind, const Fusion& fusion, GroupNodes group, const ScheduleLimits& limits) {
  for (int32_t id : group)
    SEAM_CHECK(id >= 0 && id < fusion.num_nodes(), "group names node %", id, ", which ", fusion.name(),
               " does not have");
  switch (kind) {
    case SchedulerKind::NoOp: return can_schedule_noop(fusion, group);
    case SchedulerKind::Pointwise: return can_schedule_pointwise(fusion, group, limits);
    case SchedulerKind::Reduction: return can_schedule_reduction(fusion, group);
    case SchedulerKind::Normalization: return can_schedule_normalization(fusion, group);
    case SchedulerKind::Matmul: return can_schedule_matmul(fusion, group);
    case SchedulerKind::Scan: return can_schedule_scan(fusion, group);
    case SchedulerKind::Scatter: return can_schedule_scatter(fusion, group);
  }
  SEAM_ASSERT(false, "unknown scheduler kind");
}

std::optional<SchedulerKind> choose_scheduler(const Fusion& fusion, GroupNodes group,
                                              const ScheduleLimits& limits) {
  for (SchedulerKind kind : scheduler_order())
    if (can_schedule(kind, fusion, group, limits)) return kind;
  return std::nullopt;
}

}  // namespace seam
