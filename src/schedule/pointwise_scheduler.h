// Pointwise: any mix of pointwise and movement ops (slice, pad, cat, permute, reshape, broadcast, expand,
// squeeze), with outputs of several shapes in one launch: each output element finds its inputs by index
// arithmetic. Small reductions are inlined: an element of a sum/max/min over at most
// ScheduleLimits::max_inlined_reduction elements is computed where it is read, unrolled (GQA's backward
// sums the qpk expanded copies of k and v gradients; inlined, RoPE's backward stays one kernel).
#pragma once

#include "ir/fusion.h"
#include "schedule/scheduler_kind.h"

namespace seam {

// True for the ops a pointwise kernel can compute: pointwise math, casts, movement, and the generated
// leaves (const, full, iota). Not inputs, reductions or opaque ops.
bool is_pointwise_kernel_op(OpKind op);

// Limits that scheduler predicates take from the segmenter's options.
struct ScheduleLimits {
  // Reductions over at most this many elements may be inlined into pointwise kernels (0: never).
  int64_t max_inlined_reduction = 8;
};

// A reduction a pointwise kernel computes in place: sum, max or min over at most `limit` elements.
bool is_inlinable_reduction(const Node& node, const Fusion& fusion, int64_t limit);

// Accepts when every node passes is_pointwise_kernel_op or is an inlinable reduction. Per-node, hence
// hereditary.
bool can_schedule_pointwise(const Fusion& fusion, GroupNodes group, const ScheduleLimits& limits = {});

}  // namespace seam
