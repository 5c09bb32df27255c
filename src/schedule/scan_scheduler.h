// Scan: one scan op (cumsum, cumprod, cummin, cummax) alone in its kernel (docs/CODEGEN.md, "Scans"). The
// scan kernel reads its operand from memory (a fusion input with its strides, or a value an earlier kernel
// wrote) and writes its result contiguously; pointwise work before or after it runs in the neighbouring
// kernels.
#pragma once

#include "ir/fusion.h"
#include "schedule/scheduler_kind.h"

namespace seam {

// Accepts a group of at most one node, a scan op (the empty group is accepted by every kind). Its only
// non-empty subset is itself, hence hereditary and pairwise.
bool can_schedule_scan(const Fusion& fusion, GroupNodes group);

}  // namespace seam
