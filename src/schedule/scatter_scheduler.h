// Scatter: one scatter op alone in its group (docs/CODEGEN.md, "Scatter"). Its step first copies the data
// operand into the output, then a kernel writes the source at the positions the index holds: the writes
// must follow the whole copy, which one launch cannot order without a grid-wide barrier. The operands
// are read from memory (fusion inputs with their strides, or values earlier kernels wrote); work before
// and after runs in the neighbouring kernels.
#pragma once

#include "ir/fusion.h"
#include "schedule/scheduler_kind.h"

namespace seam {

// Accepts a group of at most one node, a scatter (the empty group is accepted by every kind). Its only
// non-empty subset is itself, hence hereditary and pairwise.
bool can_schedule_scatter(const Fusion& fusion, GroupNodes group);

}  // namespace seam
