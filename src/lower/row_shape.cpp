#include "lower/row_shape.h"

#include <algorithm>
#include <optional>

#include "support/error.h"

namespace seam {
namespace {

// The kept axes of a lone column reduction, or nullopt: every reduction of the fusion is an f32 sum of
// one shape S over the same leading axes (not the innermost), with enough rows to spread over the grid
// and short enough kept rows. Such sums run as the outer reductions of rows over the kept axes (each
// block sums its share of rows with 16-byte loads along a row, the partials combined by the last
// block): as a strided reduction (a thread per column) the grid is one block per 32 columns, 64 blocks
// of 132 multiprocessors for a hidden size of 2048, and each thread sums thousands of elements alone.
std::optional<std::vector<int64_t>> lone_outer_row_axes(const Fusion& fusion, Value first) {
  constexpr int64_t kMinRows = 256, kMaxRowLength = 16384;
  const Shape& shape = fusion.type(fusion.node(first).operands[0]).shape;
  const std::vector<int64_t> axes = fusion.node(first).attrs.get_ints("axes");
  if (axes.empty() || axes.size() >= shape.size()) return std::nullopt;
  for (size_t k = 0; k < axes.size(); ++k)
    if (axes[k] != static_cast<int64_t>(k)) return std::nullopt;
  for (int32_t id = 0; id < fusion.num_nodes(); ++id) {
    const Node& n = fusion.node(Value{id});
    if (n.category() != OpCategory::Reduction) continue;
    if (n.op != OpKind::Sum || n.type.dtype != DType::Float32 ||
        fusion.type(n.operands[0]).dtype != DType::Float32 || fusion.type(n.operands[0]).shape != shape ||
        n.attrs.get_ints("axes") != axes)
      return std::nullopt;
  }
  int64_t rows = 1, length = 1;
  std::vector<int64_t> kept;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (d < axes.size()) {
      rows *= shape[d];
    } else {
      length *= shape[d];
      kept.push_back(static_cast<int64_t>(d));
    }
  }
  if (rows < kMinRows || length > kMaxRowLength || length == 0) return std::nullopt;
  return kept;
}

const Shape& operand_shape(const Fusion& fusion, Value reduction) {
  return fusion.type(fusion.node(reduction).operands[0]).shape;
}

}  // namespace

std::vector<int64_t> kept_axes(const std::vector<int64_t>& axes, size_t rank) {
  std::vector<int64_t> kept;
  for (size_t d = 0; d < rank; ++d)
    if (!std::binary_search(axes.begin(), axes.end(), static_cast<int64_t>(d)))
      kept.push_back(static_cast<int64_t>(d));
  return kept;
}

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
  const std::vector<int64_t> other = kept_axes(axes, shape.size());
  for (Value r : reductions)
    if (operand_shape(fusion, r) == shape && fusion.node(r).attrs.get_ints("axes") == other) return r;
  return first;
}

RowShape row_shape(const Fusion& fusion) {
  const std::optional<Value> first = row_defining_reduction(fusion);
  SEAM_CHECK(first.has_value(), "kernel ", fusion.name(), " has no reduction: it is not a row kernel");
  RowShape rs;
  rs.shape = fusion.type(fusion.node(*first).operands[0]).shape;
  rs.axes = fusion.node(*first).attrs.get_ints("axes");
  if (std::optional<std::vector<int64_t>> kept = lone_outer_row_axes(fusion, *first)) rs.axes = *kept;
  for (size_t d = 0; d < rs.shape.size(); ++d)
    (std::binary_search(rs.axes.begin(), rs.axes.end(), static_cast<int64_t>(d)) ? rs.reduced : rs.rows) *=
        rs.shape[d];
  rs.inner_reduced = !rs.axes.empty() && rs.axes.back() == static_cast<int64_t>(rs.shape.size()) - 1;
  return rs;
}

}  // namespace seam
