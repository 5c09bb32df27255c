// Reduction: a prologue of pointwise and movement ops feeding reductions that all reduce tensors of one
// shape over the same axes; the reduced values leave the kernel (nothing in it reads them).
#pragma once

#include <vector>

#include "ir/fusion.h"
#include "schedule/scheduler_kind.h"

namespace seam {

// What a reduction reduces: the shape of its operand and the axes.
struct ReductionSignature {
  Shape input_shape;
  std::vector<int64_t> axes;
  friend bool operator==(const ReductionSignature&, const ReductionSignature&) = default;
};

ReductionSignature reduction_signature(const Fusion& fusion, Value reduction);

// Accepts when
//   1. every node is a pointwise-kernel op (schedule/pointwise_scheduler.h) or a reduction,
//   2. all reductions of the group share one signature,
//   3. no node of the group reads, directly or through the group, a reduction of the group,
//   4. when there are reductions, no other tensor has more elements than the reduced operand.
// Hereditary: 1 is per node; removing nodes keeps 2, removes paths for 3 and only loosens 4.
// A group without reductions passes too (it is a degenerate reduction kernel); the registry offers it to
// Pointwise first, so such a group never becomes a Reduction kernel.
bool can_schedule_reduction(const Fusion& fusion, GroupNodes group);

}  // namespace seam
