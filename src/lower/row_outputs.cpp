// A row kernel's outputs: where each is written (lower/row_outputs.h), and their emission by the row
// emitter (lower/row_emitter.h): once per row, in a second loop over the row, or per column by the last
// block after the outer reductions; outputs that read a reduction at another row are deferred.
#include "lower/row_outputs.h"

#include <algorithm>
#include <map>
#include <optional>

#include "ir/builder.h"
#include "lower/index_space.h"
#include "lower/outer_reductions.h"
#include "lower/row_emitter.h"
#include "support/error.h"

namespace seam {

using kir::Index;

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

// Outputs of the rows' shape in a guarded block per row, outputs of S's shape (and the outer reductions'
// operands) in a loop over the row, the outputs reading outer reductions in `finish`.
void RowEmitter::lower_outputs(kir::Block& finish) {
  const RowShape rs{shape_, axes_, rows_, reduced_, false};
  std::vector<int> per_row, per_element, per_column;
  for (size_t o = 0; o < fusion_.outputs().size(); ++o) {
    switch (classify_row_output(fusion_, rs, o)) {
      case RowOutput::Empty: break;  // nothing to write
      case RowOutput::PerRow: per_row.push_back(static_cast<int>(o)); break;
      case RowOutput::PerElement: per_element.push_back(static_cast<int>(o)); break;
      case RowOutput::Outer: per_column.push_back(static_cast<int>(o)); break;
      case RowOutput::Deferred: deferred_.push_back(static_cast<int>(o)); break;
      case RowOutput::Chunked: chunked_.push_back(static_cast<int>(o)); break;
    }
  }
  std::vector<size_t> all_axes(shape_.size());
  for (size_t d = 0; d < shape_.size(); ++d) all_axes[d] = d;
  if (!per_row.empty()) {
    kir::Stmt guard{kir::Stmt::Kind::If};
    guard.bounds = {kir::Bound{row(), std::nullopt, rows_}};
    blocks_.push_back(&guard.then_block);
    memo_.emplace_back();
    for (int o : per_row) {
      const Type& t = fusion_.type(fusion_.outputs()[static_cast<size_t>(o)].value);
      write(o, map_axes(t.shape, shape_, outer_axes_, row_index_), row());
    }
    memo_.pop_back();
    blocks_.pop_back();
    if (!guard.then_block.empty()) block().push_back(std::move(guard));
  }
  if (!per_element.empty() || !outer_.empty()) {
    kir::Stmt loop = open_loop();
    blocks_.push_back(&loop.then_block);
    memo_.emplace_back();
    const AxisIndex element = element_index(loop.name);
    for (int o : per_element) {
      const Type& t = fusion_.type(fusion_.outputs()[static_cast<size_t>(o)].value);
      AxisIndex idx = map_axes(t.shape, shape_, all_axes, element.index, element.lane_axis);
      if (element.lane_axis >= 0 && idx.lane_axis < 0)
        throw NotVectorizable{"output " + std::to_string(o) + " has no axis along the vector"};
      write(o, idx, linearize(idx.index, t.shape));
    }
    accumulate_outer(element, loop.name);
    memo_.pop_back();
    blocks_.pop_back();
    bool stores = std::any_of(loop.then_block.begin(), loop.then_block.end(), [](const kir::Stmt& s) {
      return s.kind == kir::Stmt::Kind::Store || s.kind == kir::Stmt::Kind::OuterAccumulate;
    });
    if (stores) block().push_back(std::move(loop));
  }
  if (!per_column.empty()) lower_finish(finish, per_column);
  std::sort(deferred_.begin(), deferred_.end());
}

// In the loop over the row's elements: each outer reduction's operand there, added to its accumulator
// (f32, a lane per element of the vector).
void RowEmitter::accumulate_outer(const AxisIndex& element, const std::string& loop) {
  for (size_t j = 0; j < outer_.size(); ++j) {
    kir::Var x = convert(emit(fusion_.node(outer_[j]).operands[0], element), DType::Float32);
    if (x.lanes < lanes_) x = widen(x, lanes_);
    kir::Stmt add{kir::Stmt::Kind::OuterAccumulate};
    add.name = loop;
    add.var = kir::Var{accumulator_name(j), DType::Float32, lanes_};
    add.source = x;
    add.expr.op = OpKind::Sum;
    block().push_back(std::move(add));
  }
}

void RowEmitter::lower_finish(kir::Block& finish, const std::vector<int>& outputs) {
  const std::vector<kir::Block*> blocks = blocks_;
  const std::vector<std::map<std::string, kir::Var>> memo = memo_;
  blocks_ = {&finish};
  memo_.assign(1, {});
  finishing_ = true;
  const Index column = kir::variable("seam_col", std::max<int64_t>(reduced_, 1));
  std::vector<Index> index(shape_.size(), kir::constant(0));
  const std::vector<Index> coordinates = delinearize(column, extents(reduced_axes_));
  for (size_t k = reduced_axes_.size(); k-- > 0;)
    index[reduced_axes_[k]] = let("c" + std::to_string(counter_++), coordinates[k]);
  for (int o : outputs) {
    const Type& t = fusion_.type(fusion_.outputs()[static_cast<size_t>(o)].value);
    write(o, map_axes(t.shape, shape_, reduced_axes_, index), column);
  }
  finishing_ = false;
  blocks_ = blocks;
  memo_ = memo;
}

void RowEmitter::write(int o, const AxisIndex& idx, const Index& offset) {
  const FusionOutput& out = fusion_.outputs()[static_cast<size_t>(o)];
  const size_t mark = block().size(), depth = blocks_.size(), scopes = memo_.size();
  const auto memo = memo_.back();
  try {
    kir::Var value = convert(emit(out.value, idx), fusion_.type(out.value).dtype);
    if (idx.lane_axis >= 0) value = widen(value, lanes_);  // a value the same on every lane
    kir::Stmt store{kir::Stmt::Kind::Store};
    store.param = static_cast<int>(fusion_.inputs().size()) + o;
    store.index = offset;
    store.source = value;
    // Peeled: outputs are contiguous in S's shape, so aligned like S (by columns: as their rows'
    // addresses allow); the lanes outside the row stay.
    store.row_edge = peeled_rows_ && value.lanes > 1;
    store.unaligned = store.row_edge && peel_columns_ && !vector_aligned(offset);
    block().push_back(std::move(store));
  } catch (const NotRowAligned&) {
    blocks_.resize(depth);
    memo_.resize(scopes);
    memo_.back() = memo;
    block().erase(block().begin() + static_cast<std::ptrdiff_t>(mark), block().end());
    deferred_.push_back(o);
  }
}

}  // namespace seam
