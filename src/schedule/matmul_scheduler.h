// Matmul: one opaque op (matmul, linear) run by a vendor library. Later kinds that fuse a prologue or an
// epilogue into the library call get their own predicate; this one is the plain call.
#pragma once

#include "ir/fusion.h"
#include "schedule/scheduler_kind.h"

namespace seam {

// Accepts a group of at most one node, an opaque op (the empty group is accepted by every kind). Its
// only non-empty subset is itself, hence hereditary.
bool can_schedule_matmul(const Fusion& fusion, GroupNodes group);

}  // namespace seam
