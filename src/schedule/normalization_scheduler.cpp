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

// The layouts of the reduction's own values: its output with keepdim (reduced axes of extent 1) and
// without (reduced axes removed).
struct RowLayouts {
  Shape with_units, without;
};

RowLayouts row_layouts(const ReductionSignature& s) {
  RowLayouts l;
  for (size_t d = 0; d < s.input_shape.size(); ++d) {
    const bool is_reduced = std::binary_search(s.axes.begin(), s.axes.end(), static_cast<int64_t>(d));
    l.with_units.push_back(is_reduced ? 1 : s.input_shape[d]);
    if (!is_reduced) l.without.push_back(s.input_shape[d]);
  }
  return l;
}

// A movement op whose value at an index is its operand's at the same row, as the row kernel's index
// walk shows structurally:
// - an expand of a value in the keepdim layout (it stretches only the reduced axes);
// - a broadcast, squeeze or reshape that only inserts or removes unit axes of a value of the rows'
//   shape, giving either layout: a frontend's `mean(x, -1)` followed by an unsqueeze, a squeeze of
//   `2 * sum(x, 1, keepdim)`, either written as a reshape (the unit axes' indices are dropped or
//   inserted as 0; a reshape of unit axes maps axis by axis, lower/expression_emitter.cpp).
// Other layouts of the rows' values could be expanded across the rows: a [1, M] unsqueeze of a sum over
// the last axis of [M, N], or the [1, M] sum without keepdim over the last axis of [1, M, M].
bool keeps_rows_aligned(const Fusion& fusion, const Node& n, const RowLayouts& l) {
  const Shape& in = fusion.type(n.operands[0]).shape;
  if (n.op == OpKind::Expand) return in == l.with_units;
  if (n.op != OpKind::Broadcast && n.op != OpKind::Squeeze && n.op != OpKind::Reshape) return false;
  const Shape& out = n.type.shape;
  return without_unit_axes(in) == without_unit_axes(l.without) && (out == l.with_units || out == l.without);
}

// Whether `movement` (a node of the group) depends on a reduction of the group:
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
  // Row values are the row reductions' (over the innermost axis), also when the group's first
  // reduction is an outer one (normalization backward's weight gradient).
  for (Value r : reductions) {
    ReductionSignature rs = reduction_signature(fusion, r);
    if (!rs.axes.empty() && rs.axes.back() == static_cast<int64_t>(rs.input_shape.size()) - 1) {
      signature = std::move(rs);
      break;
    }
  }
  const Shape full = without_unit_axes(signature->input_shape), part = without_unit_axes(reduced(*signature));
  const RowLayouts layouts = row_layouts(*signature);
  for (int32_t id : group) {
    const Node& n = fusion.node(Value{id});
    if (id > first && n.category() == OpCategory::Movement && !keeps_rows_aligned(fusion, n, layouts) &&
        reads_reduction_unaligned(fusion, group, id, first))
      return false;
    // An indexing op reads its data operand at positions the data hold, never provably the row's; its
    // index operand is read at the output's indices, like a pointwise operand.
    if (id > first && n.category() == OpCategory::Indexing &&
        reads_or_is_reduction(fusion, group, n.operands[0], first))
      return false;
  }
  // The complementary part too: the outer reductions' results, and values of that shape (a weight).
  const Shape other = complementary_part(*signature);
  return std::all_of(shapes.begin(), shapes.end(),
                     [&](const Shape& s) { return s == full || s == part || s == other; });
}

}  // namespace seam
