#include "lower/outer_reductions.h"

#include <algorithm>

namespace seam {
namespace {

const Shape& operand_shape(const Fusion& fusion, Value reduction) {
  return fusion.type(fusion.node(reduction).operands[0]).shape;
}

}  // namespace

std::vector<Value> outer_reductions(const Fusion& fusion, const RowShape& rs) {
  std::vector<Value> outer;
  const std::vector<int64_t> other = kept_axes(rs.axes, rs.shape.size());
  if (other.empty()) return outer;
  for (int32_t id = 0; id < fusion.num_nodes(); ++id) {
    const Node& n = fusion.node(Value{id});
    if (n.category() == OpCategory::Reduction && operand_shape(fusion, Value{id}) == rs.shape &&
        n.attrs.get_ints("axes") == other)
      outer.push_back(Value{id});
  }
  return outer;
}

bool reads_outer_reduction(const Fusion& fusion, const std::vector<Value>& outer, Value v) {
  if (outer.empty()) return false;
  std::vector<bool> seen(static_cast<size_t>(fusion.num_nodes()), false);
  std::vector<Value> work = {v};
  while (!work.empty()) {
    const Value u = work.back();
    work.pop_back();
    if (seen[static_cast<size_t>(u.id)]) continue;
    seen[static_cast<size_t>(u.id)] = true;
    if (std::find(outer.begin(), outer.end(), u) != outer.end()) return true;
    for (Value operand : fusion.node(u).operands) work.push_back(operand);
  }
  return false;
}

Shape outer_result_shape(const RowShape& rs) {
  Shape out;
  for (int64_t axis : rs.axes) out.push_back(rs.shape[static_cast<size_t>(axis)]);
  return without_unit_axes(out);
}

}  // namespace seam
