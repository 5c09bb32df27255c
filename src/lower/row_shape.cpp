#include "lower/row_shape.h"

#include <algorithm>
#include <map>
#include <optional>

#include "ir/builder.h"
#include "lower/outer_reductions.h"
#include "support/error.h"

namespace seam {
namespace {

bool reads_reduction(const Fusion& fusion, Value v) {
  std::vector<bool> seen(static_cast<size_t>(fusion.num_nodes()), false);
  std::vector<Value> work = {v};
  while (!work.empty()) {
    Value u = work.back();
    work.pop_back();
    if (seen[static_cast<size_t>(u.id)]) continue;
    seen[static_cast<size_t>(u.id)] = true;
    if (fusion.node(u).category() == OpCategory::Reduction) return true;
    for (Value operand : fusion.node(u).operands) work.push_back(operand);
  }
  return false;
}

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

}  // namespace

RowOutput classify_row_output(const Fusion& fusion, const RowShape& rs, size_t o) {
  Shape rows_shape;
  for (size_t d = 0; d < rs.shape.size(); ++d)
    if (!std::binary_search(rs.axes.begin(), rs.axes.end(), static_cast<int64_t>(d)))
      rows_shape.push_back(rs.shape[d]);
  rows_shape = without_unit_axes(rows_shape);
  const Type& t = fusion.type(fusion.outputs()[o].value);
  if (!t.is_scalar && t.numel() == 0) return RowOutput::Empty;
  const Shape s = without_unit_axes(t.shape);
  if (reads_outer_reduction(fusion, outer_reductions(fusion, rs), fusion.outputs()[o].value))
    return !t.is_scalar && s == outer_result_shape(rs) ? RowOutput::Outer : RowOutput::Deferred;
  if (!t.is_scalar && s == rows_shape && t.numel() == rs.rows) return RowOutput::PerRow;
  if (!t.is_scalar && s == without_unit_axes(rs.shape)) return RowOutput::PerElement;
  if (reads_reduction(fusion, fusion.outputs()[o].value)) return RowOutput::Deferred;
  return RowOutput::Chunked;
}

// `fusion` with every input (same order, so the same parameters) and only `outputs`.
Fusion fusion_with_outputs(const Fusion& fusion, const std::vector<Value>& outputs) {
  std::vector<bool> needed(static_cast<size_t>(fusion.num_nodes()), false);
  std::vector<Value> work = outputs;
  while (!work.empty()) {
    Value v = work.back();
    work.pop_back();
    if (needed[static_cast<size_t>(v.id)]) continue;
    needed[static_cast<size_t>(v.id)] = true;
    for (Value operand : fusion.node(v).operands) work.push_back(operand);
  }
  Builder b(fusion.name());
  std::map<int32_t, Value> mapped;
  for (Value v : fusion.inputs()) mapped[v.id] = b.input(fusion.type(v), "", fusion.input_strides(v));
  for (int32_t id = 0; id < fusion.num_nodes(); ++id) {
    const Node& node = fusion.node(Value{id});
    if (!needed[static_cast<size_t>(id)] || node.op == OpKind::Input) continue;
    std::vector<Value> operands;
    for (Value operand : node.operands) operands.push_back(mapped.at(operand.id));
    std::optional<Type> declared;
    if (node.category() == OpCategory::Leaf) declared = node.type;
    mapped[id] = b.add(node.op, std::move(operands), node.attrs, declared);
  }
  std::vector<Value> kept;
  for (Value v : outputs) kept.push_back(mapped.at(v.id));
  return b.finish(kept);
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

std::vector<int> row_chunked_outputs(const Fusion& fusion) {
  const RowShape rs = row_shape(fusion);
  std::vector<int> chunked;
  for (size_t o = 0; o < fusion.outputs().size(); ++o)
    if (classify_row_output(fusion, rs, o) == RowOutput::Chunked) chunked.push_back(static_cast<int>(o));
  return chunked;
}

Fusion row_chunk_fusion(const Fusion& fusion) {
  std::vector<Value> values;
  for (int o : row_chunked_outputs(fusion)) values.push_back(fusion.outputs()[static_cast<size_t>(o)].value);
  return fusion_with_outputs(fusion, values);
}

}  // namespace seam
