#include "schedule/normalization_scheduler.h"

#include <algorithm>
#include <optional>

#include "schedule/outer_reduction_pair.h"
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

// A movement op that only toggles a reduction's keepdim: unit axes inserted by a broadcast exactly where
// a reduction without keepdim removed its axes, or removed by a squeeze from a reduction with keepdim.
// Its value at an index is the reduction's at the same row (a frontend's `mean(x, -1)` followed by an
// unsqueeze), and the row kernel's index walk shows it structurally (it drops or inserts the unit axes'
// indices). A reshape doing the same is not exempt: its index arithmetic (divisions by the extents) is
// not always folded back to the row's indices, which the row kernel compares.
bool toggles_keepdim(const Fusion& fusion, const Node& n) {
  if (n.op != OpKind::Broadcast && n.op != OpKind::Squeeze) return false;
  const Node& r = fusion.node(n.operands[0]);
  if (r.category() != OpCategory::Reduction) return false;
  const Shape& in = fusion.type(r.operands[0]).shape;
  const std::vector<int64_t> axes = r.attrs.get_ints("axes");
  Shape with_units, without;
  for (size_t d = 0; d < in.size(); ++d) {
    const bool reduced = std::binary_search(axes.begin(), axes.end(), static_cast<int64_t>(d));
    with_units.push_back(reduced ? 1 : in[d]);
    if (!reduced) without.push_back(in[d]);
  }
  const bool keepdim = r.attrs.get_bool("keepdim");
  if (keepdim != (n.op == OpKind::Squeeze)) return false;
  return n.attrs.get_ints("axes") == axes && n.type.shape == (keepdim ? without : with_units);
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
  std::vector<Value> reductions;
  for (int32_t id : group) {
    const Node& n = fusion.node(Value{id});
    bool reduction = n.category() == OpCategory::Reduction;
    if (!reduction && !is_pointwise_kernel_op(n.op)) return false;
    if (reduction) {
      ReductionSignature s = reduction_signature(fusion, Value{id});
      // Another signature only as the row and outer reductions of one kernel (outer_reduction_pair.h).
      for (Value other : reductions)
        if (!(reduction_signature(fusion, other) == s) && !fuses_as_outer_reduction(fusion, other, Value{id}))
          return false;
      reductions.push_back(Value{id});
      if (!signature) signature = std::move(s);
    }
    if (n.type.is_scalar) continue;
    Shape s = without_unit_axes(n.type.shape);
    if (std::find(shapes.begin(), shapes.end(), s) == shapes.end()) shapes.push_back(std::move(s));
  }
  if (!signature) return shapes.size() <= 3;  // I, reduced(I) and the complementary part (rule 3)
  int32_t first = -1;
  for (int32_t id : group)
    if (fusion.node(Value{id}).category() == OpCategory::Reduction) {
      first = id;
      break;
    }
  for (int32_t id : group) {
    const Node& n = fusion.node(Value{id});
    if (id > first && n.category() == OpCategory::Movement && n.op != OpKind::Expand &&
        !toggles_keepdim(fusion, n) && reads_reduction_unaligned(fusion, group, id, first))
      return false;
    // An indexing op reads its data operand at positions the data hold, never provably the row's; its
    // index operand is read at the output's indices, like a pointwise operand.
    if (id > first && n.category() == OpCategory::Indexing &&
        reads_or_is_reduction(fusion, group, n.operands[0], first))
      return false;
  }
  // The complementary part too: the outer reductions' results, and values of that shape (a weight).
  Shape full = without_unit_axes(signature->input_shape), part = without_unit_axes(reduced(*signature)),
        other = complementary_part(*signature);
  return std::all_of(shapes.begin(), shapes.end(),
                     [&](const Shape& s) { return s == full || s == part || s == other; });
}

}  // namespace seam
