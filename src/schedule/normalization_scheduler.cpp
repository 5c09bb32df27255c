#include "schedule/normalization_scheduler.h"

#include <algorithm>
#include <optional>

#include "schedule/pointwise_scheduler.h"
#include "schedule/reduction_scheduler.h"

namespace seam {
namespace {

Shape reduced(const ReductionSignature& s) {
  Shape out;
  for (int i = 0; i < static_cast<int>(s.input_shape.size()); ++i)
    if (!std::binary_search(s.axes.begin(), s.axes.end(), i)) out.push_back(s.input_shape[i]);
  return out;
}

// A movement op that only inserts or removes unit axes of a value of the rows' shape, giving the
// reduction's own layout with or without keepdim: a frontend's `mean(x, -1)` followed by an unsqueeze,
// a squeeze of `2 * sum(x, 1, keepdim)`, either written as a reshape. Its value at an index is its
// operand's at the same row, and the row kernel's index walk shows it structurally (the unit axes'
// indices are dropped or inserted as 0; a reshape of unit axes maps axis by axis,
// lower/expression_emitter.cpp). Other layouts of the rows' values (a [1, M] unsqueeze of a sum over
// the last axis of [M, N]) could be expanded across the rows, so they are not exempt.
bool moves_only_unit_axes_of_rows(const Fusion& fusion, const Node& n, const ReductionSignature& s) {
  if (n.op != OpKind::Broadcast && n.op != OpKind::Squeeze && n.op != OpKind::Reshape) return false;
  Shape with_units, without;
  for (size_t d = 0; d < s.input_shape.size(); ++d) {
    const bool is_reduced = std::binary_search(s.axes.begin(), s.axes.end(), static_cast<int64_t>(d));
    with_units.push_back(is_reduced ? 1 : s.input_shape[d]);
    if (!is_reduced) without.push_back(s.input_shape[d]);
  }
  const Shape& out = n.type.shape;
  return without_unit_axes(fusion.type(n.operands[0]).shape) == without_unit_axes(without) &&
         (out == with_units || out == without);
}

// Whether `movement` (a node of the group other than an Expand) depends on a reduction of the group:
// such a node reads the reduction at indices a row kernel cannot prove to be its own row's (a permuted
// or reshaped reduced tensor). Dependence is taken in the fusion, not through the group only, so that
// the test is on pairs; for the convex groups a segmentation has, the two agree. Node ids are
// topological, so the walk stops below the group's first reduction.
bool reads_reduction_unaligned(const Fusion& fusion, GroupNodes group, int32_t movement, int32_t first) {
  std::vector<int32_t> work = {movement};
  std::vector<bool> seen(static_cast<size_t>(movement) + 1, false);
  while (!work.empty()) {
    const int32_t id = work.back();
    work.pop_back();
    for (Value operand : fusion.node(Value{id}).operands) {
      if (operand.id < first || seen[static_cast<size_t>(operand.id)]) continue;
      seen[static_cast<size_t>(operand.id)] = true;
      if (fusion.node(operand).category() == OpCategory::Reduction &&
          std::binary_search(group.begin(), group.end(), operand.id))
        return true;
      work.push_back(operand.id);
    }
  }
  return false;
}

bool reads_or_is_reduction(const Fusion& fusion, GroupNodes group, Value v, int32_t first) {
  if (v.id < first) return false;
  if (fusion.node(v).category() == OpCategory::Reduction &&
      std::binary_search(group.begin(), group.end(), v.id))
    return true;
  return reads_reduction_unaligned(fusion, group, v.id, first);
}

}  // namespace

bool can_schedule_normalization(const Fusion& fusion, GroupNodes group) {
  std::optional<ReductionSignature> signature;
  std::vector<Shape> shapes;
  for (int32_t id : group) {
    const Node& n = fusion.node(Value{id});
    bool reduction = n.category() == OpCategory::Reduction;
    if (!reduction && !is_pointwise_kernel_op(n.op)) return false;
    if (reduction) {
      ReductionSignature s = reduction_signature(fusion, Value{id});
      if (signature && !(*signature == s)) return false;
      signature = std::move(s);
    }
    if (n.type.is_scalar) continue;
    Shape s = without_unit_axes(n.type.shape);
    if (std::find(shapes.begin(), shapes.end(), s) == shapes.end()) shapes.push_back(std::move(s));
  }
  if (!signature) return shapes.size() <= 2;
  int32_t first = -1;
  for (int32_t id : group)
    if (fusion.node(Value{id}).category() == OpCategory::Reduction) {
      first = id;
      break;
    }
  const Shape full = without_unit_axes(signature->input_shape), part = without_unit_axes(reduced(*signature));
  for (int32_t id : group) {
    const Node& n = fusion.node(Value{id});
    if (id > first && n.category() == OpCategory::Movement && n.op != OpKind::Expand &&
        !moves_only_unit_axes_of_rows(fusion, n, *signature) &&
        reads_reduction_unaligned(fusion, group, id, first))
      return false;
    // An indexing op reads its data operand at positions the data hold, never provably the row's; its
    // index operand is read at the output's indices, like a pointwise operand.
    if (id > first && n.category() == OpCategory::Indexing &&
        reads_or_is_reduction(fusion, group, n.operands[0], first))
      return false;
  }
  return std::all_of(shapes.begin(), shapes.end(), [&](const Shape& s) { return s == full || s == part; });
}

}  // namespace seam
