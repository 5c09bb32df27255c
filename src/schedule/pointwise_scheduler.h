// Pointwise: any mix of pointwise and movement ops (slice, pad, cat, permute, reshape, broadcast, expand,
// squeeze), with outputs of several shapes in one launch: each output element finds its inputs by index
// arithmetic.
#pragma once

#include "ir/fusion.h"
#include "schedule/scheduler_kind.h"

namespace seam {

// True for the ops a pointwise kernel can compute: pointwise math, casts, movement, and the generated
// leaves (const, full, iota). Not inputs, reductions or opaque ops.
bool is_pointwise_kernel_op(OpKind op);

// Accepts when every node passes is_pointwise_kernel_op. Per-node, hence hereditary.
bool can_schedule_pointwise(const Fusion& fusion, GroupNodes group);

}  // namespace seam
