#include "schedule/outer_reduction_pair.h"

#include <algorithm>
#include <vector>

namespace seam {
namespace {

bool is_elementwise(OpCategory c) {
  return c == OpCategory::Unary || c == OpCategory::Binary || c == OpCategory::Ternary ||
         c == OpCategory::Cast;
}

// Every node depending on `v` in the fusion is elementwise with this shape (without extent-1 axes).
bool only_elementwise_readers(const Fusion& fusion, Value v, const Shape& shape) {
  std::vector<bool> seen(static_cast<size_t>(fusion.num_nodes()), false);
  std::vector<Value> work = {v};
  while (!work.empty()) {
    const Value u = work.back();
    work.pop_back();
    for (Value reader : fusion.consumers(u)) {
      if (seen[static_cast<size_t>(reader.id)]) continue;
      seen[static_cast<size_t>(reader.id)] = true;
      const Node& n = fusion.node(reader);
      if (!is_elementwise(n.category()) || n.type.is_scalar || without_unit_axes(n.type.shape) != shape)
        return false;
      work.push_back(reader);
    }
  }
  return true;
}

}  // namespace

Shape complementary_part(const ReductionSignature& s) {
  Shape out;
  for (int64_t axis : s.axes) out.push_back(s.input_shape[static_cast<size_t>(axis)]);
  return without_unit_axes(out);
}

bool fuses_as_outer_reduction(const Fusion& fusion, Value a, Value b) {
  const ReductionSignature sa = reduction_signature(fusion, a), sb = reduction_signature(fusion, b);
  const Shape& shape = sa.input_shape;
  if (shape != sb.input_shape || shape.empty() || sa.axes.empty() || sb.axes.empty()) return false;
  // No rows: the kernel launches nothing, yet the outer sums must be written (zeros).
  if (std::find(shape.begin(), shape.end(), 0) != shape.end()) return false;
  const int64_t last = static_cast<int64_t>(shape.size()) - 1;
  std::vector<int64_t> all = sa.axes;
  all.insert(all.end(), sb.axes.begin(), sb.axes.end());
  std::sort(all.begin(), all.end());
  for (size_t d = 0; d < all.size(); ++d)
    if (all[d] != static_cast<int64_t>(d)) return false;  // not disjoint, or not all of S's axes
  if (all.size() != shape.size()) return false;
  const bool a_rows = std::binary_search(sa.axes.begin(), sa.axes.end(), last);
  const Value outer = a_rows ? b : a;
  const ReductionSignature& rows = a_rows ? sa : sb;
  const Node& o = fusion.node(outer);
  const DType operand = fusion.type(o.operands[0]).dtype;
  if (o.op != OpKind::Sum ||
      !(operand == DType::Float16 || operand == DType::BFloat16 || operand == DType::Float32))
    return false;
  // rows: S without R; outer result: S's R axes.
  Shape rows_shape;
  for (size_t d = 0; d < shape.size(); ++d)
    if (!std::binary_search(rows.axes.begin(), rows.axes.end(), static_cast<int64_t>(d)))
      rows_shape.push_back(shape[d]);
  const Shape full = without_unit_axes(shape), row_part = without_unit_axes(rows_shape),
              outer_part = complementary_part(rows);
  if (full == row_part || full == outer_part || row_part == outer_part) return false;
  return only_elementwise_readers(fusion, outer, outer_part);
}

}  // namespace seam
