// NoOp: groups whose outputs are all strided views of fusion inputs; they launch nothing.
#pragma once

#include "ir/fusion.h"
#include "schedule/scheduler_kind.h"

namespace seam {

// Accepts when every node is a view op (schedule/view.h) and its chain of operands reaches one fusion
// input through view ops only, with strides that allow an alias (a reshape of a non-contiguous run
// does not). Per-node, hence hereditary.
bool can_schedule_noop(const Fusion& fusion, GroupNodes group);

}  // namespace seam
