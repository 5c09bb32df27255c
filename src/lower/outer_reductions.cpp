#include "lower/outer_reductions.h"

#include <algorithm>

namespace seam {
namespace {

std::vector<int64_t> complement(const std::vector<int64_t>& axes, size_t rank) {
  std::vector<int64_t> out;
  for (size_t d = 0; d < rank; ++d)
    if (!std::binary_search(axes.begin(), axes.end(), static_cast<int64_t>(d)))
      out.push_back(static_cast<int64_t>(d));
  return out;
}

const Shape& operand_shape(const Fusion& fusion, Value reduction) {
  return fusion.type(fusion.node(reduction).operands[0]).shape;
}

}  // namespace

std::optional<Value> row_defining_reduction(const Fusion& fusion) {
  std::vector<Value> reductions;
  for (int32_t id = 0; id < fusion.num_nodes(); ++id)
    if (fusion.node(Value{id}).category() == OpCategory::Reduction) reductions.push_back(Value{id});
  if (reductions.empty()) return std::nullopt;
  const Value first = reductions.front();
  const Shape& shape = operand_shape(fusion, first);
  const std::vector<int64_t> axes = fusion.node(first).attrs.get_ints("axes");
  const int64_t last = static_cast<int64_t>(shape.size()) - 1;
  if (shape.empty() || std::binary_search(axes.begin(), axes.end(), last)) return first;
  const std::vector<int64_t> other = complement(axes, shape.size());
  for (Value r : reductions)
    if (operand_shape(fusion, r) == shape && fusion.node(r).attrs.get_ints("axes") == other) return r;
  return first;
}

std::vector<Value> outer_reductions(const Fusion& fusion, const RowShape& rs) {
  std::vector<Value> outer;
  const std::vector<int64_t> other = complement(rs.axes, rs.shape.size());
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
