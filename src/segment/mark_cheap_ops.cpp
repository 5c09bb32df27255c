// The rule: a node is cheap when
//   1. its op is a cast, broadcast, expand, squeeze, slice, reshape, permute, const, full or iota,
//   2. every operand is a fusion input or a cheap node, and
//   3. no consumer is an opaque op or a scan (a vendor library call or a scan kernel reads its operand
//      from memory, it does not recompute it).
// Cheap nodes therefore depend on fusion inputs only, so copying one into every kernel that reads it adds
// no dependency between kernels and never reads more than the one materialized copy would have written
// and read back: a cast of a bf16 input makes the bf16 input, not the f32 result, cross the boundary.
// A cast of a value computed by another kernel is not cheap under this rule (its operand would have to
// be written first anyway); rewriting such edges is left to a later pass.
#include "segment/mark_cheap_ops.h"

namespace seam {
namespace {

bool is_duplicable_op(OpKind op) {
  switch (op) {
    case OpKind::Cast:
    case OpKind::Broadcast:
    case OpKind::Expand:
    case OpKind::Squeeze:
    case OpKind::Slice:
    case OpKind::Reshape:
    case OpKind::Permute:
    case OpKind::Const:
    case OpKind::Full:
    case OpKind::Iota: return true;
    default: return false;
  }
}

}  // namespace

std::vector<bool> mark_cheap_ops(const Fusion& fusion) {
  std::vector<bool> cheap(static_cast<size_t>(fusion.num_nodes()), false);
  for (int32_t id = 0; id < fusion.num_nodes(); ++id) {
    const Node& n = fusion.node(Value{id});
    if (!is_duplicable_op(n.op)) continue;
    bool operands_free = true;
    for (Value operand : n.operands)
      operands_free = operands_free && (fusion.node(operand).op == OpKind::Input || cheap[operand.id]);
    bool feeds_opaque = false;
    for (Value consumer : fusion.consumers(Value{id}))
      feeds_opaque = feeds_opaque || fusion.node(consumer).category() == OpCategory::Opaque ||
                     fusion.node(consumer).category() == OpCategory::Scan;
    cheap[id] = operands_free && !feeds_opaque;
  }
  return cheap;
}

}  // namespace seam
