// The scheduler registry: the kinds in the fixed order they are tried, and dispatch to their predicates.
#pragma once

#include <optional>
#include <span>

#include "ir/fusion.h"
#include "schedule/pointwise_scheduler.h"
#include "schedule/scheduler_kind.h"

namespace seam {

// NoOp, Pointwise, Reduction, Normalization, Matmul, Scan, Scatter: a group becomes the first kind that
// accepts it, so cheaper kinds come first (NoOp launches nothing; Pointwise is the simplest kernel).
std::span<const SchedulerKind> scheduler_order();

// The predicate of `kind` (schedule/<kind>_scheduler.h). `group` must be ascending node ids of `fusion`;
// fusion inputs in it are rejected by every kind.
bool can_schedule(SchedulerKind kind, const Fusion& fusion, GroupNodes group,
                  const ScheduleLimits& limits = {});

// The first kind in scheduler_order() that accepts `group`, or nullopt when none does.
std::optional<SchedulerKind> choose_scheduler(const Fusion& fusion, GroupNodes group,
                                              const ScheduleLimits& limits = {});

}  // namespace seam
