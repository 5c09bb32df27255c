// Normalization (persistent): reductions of one signature whose results may be broadcast back and combined
// with tensors of the reduced operand's shape in the same kernel: RMSNorm, LayerNorm, softmax.
#pragma once

#include "ir/fusion.h"
#include "schedule/scheduler_kind.h"

namespace seam {

// Accepts when
//   1. every node is a pointwise-kernel op or a reduction,
//   2. all reductions share one signature (operand shape I, axes), or two: a row kernel's row reductions
//      and outer reductions over the complementary axes, each pair as fuses_as_outer_reduction accepts
//      (schedule/outer_reduction_pair.h: normalization backward's weight gradients),
//   3. the shapes of the group's tensors, with extent-1 axes dropped, are all I, reduced(I) or the
//      complementary part (I's reduced axes) when the group has reductions, and at most three
//      distinct shapes otherwise,
//   4. no movement op depends (in the fusion) on a reduction of the group, except an Expand or an op that
//      only toggles a reduction's keepdim (a broadcast or squeeze of it at the reduced axes): a row kernel
//      reads a reduction only at its own row, which a permute, reshape, slice, pad, cat, other squeeze
//      or broadcast of it may not be. So every accepted group is one launch (src/plan asserts it).
// Hereditary: 1 per node; 2 is a condition on pairs of reductions; 3 allows the same three shapes for
// either signature of a pair, and a subset without reductions draws from at most three shapes, which 3
// accepts either way; 4 is a condition on pairs (a reduction and a movement op, whose exemption depends
// on that op alone), so the predicate stays pairwise on groups with a reduction.
bool can_schedule_normalization(const Fusion& fusion, GroupNodes group);

}  // namespace seam
