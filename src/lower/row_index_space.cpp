// A row kernel's index space (lower/row_emitter.h): S's non-reduced axes enumerate the rows, its reduced
// axes each row's elements, visited in vectors by a loop over this thread's share of the row.
#include <algorithm>

#include "lower/index_space.h"
#include "lower/row_emitter.h"
#include "lower/row_peel.h"
#include "support/error.h"

namespace seam {

using kir::Index;

RowEmitter::RowEmitter(const Fusion& fusion, kir::Kernel& kernel, const std::vector<int>& input_param,
                       int& counter, Shape shape, std::vector<int64_t> axes, int vector, bool persistent,
                       bool peel, bool peel_columns, std::vector<Value> outer)
    : ExpressionEmitter(fusion, kernel, input_param, vector, counter),
      shape_(std::move(shape)),
      axes_(std::move(axes)),
      persistent_(persistent),
      outer_(std::move(outer)) {
  for (size_t d = 0; d < shape_.size(); ++d) (is_reduced(d) ? reduced_axes_ : outer_axes_).push_back(d);
  for (size_t d : outer_axes_) rows_ *= shape_[d];
  for (size_t d : reduced_axes_) reduced_ *= shape_[d];
  peeled_rows_ = peel;
  peel_columns_ = peel && peel_columns;
}

bool RowEmitter::is_reduced(size_t d) const {
  return std::binary_search(axes_.begin(), axes_.end(), static_cast<int64_t>(d));
}

Shape RowEmitter::extents(const std::vector<size_t>& axes) const {
  Shape e;
  for (size_t d : axes) e.push_back(shape_[d]);
  return e;
}

void RowEmitter::index_rows() {
  row_index_.assign(shape_.size(), nullptr);
  const std::vector<Index> row_coordinates = delinearize(row(), extents(outer_axes_), UnitAxes::FromIndex);
  for (size_t k = outer_axes_.size(); k-- > 0;)
    row_index_[outer_axes_[k]] = let("r" + std::to_string(counter_++), row_coordinates[k]);
}

int64_t RowEmitter::row_vectors() const {
  return std::max<int64_t>(peeled_rows_ ? peeled_vectors(reduced_, lanes_, peel_columns_) : reduced_ / lanes_,
                           1);
}

AxisIndex RowEmitter::element_index(const std::string& vector_index) {
  AxisIndex idx;
  idx.index = row_index_;
  const int64_t vectors = row_vectors();
  const Index element = peeled_rows_ ? peeled_element(vector_index, vectors, lanes_, peel_columns_)
                                     : kir::mul(kir::variable(vector_index, vectors), lanes_);
  const std::vector<Index> coordinates = delinearize(element, extents(reduced_axes_));
  for (size_t k = reduced_axes_.size(); k-- > 0;) {
    const size_t d = reduced_axes_[k];
    // The vector's axis stays an expression: a Let would hide that it is a multiple of the width.
    if (lanes_ > 1 && k + 1 == reduced_axes_.size())
      idx.index[d] = coordinates[k];
    else
      idx.index[d] =
          let(persistent_ ? "j" + std::to_string(d) : "j" + std::to_string(counter_++), coordinates[k]);
  }
  if (lanes_ > 1) idx.lane_axis = static_cast<int>(reduced_axes_.back());
  // Offsets in S laid out contiguously, folded as input loads fold theirs so that equal ones print equal.
  if (peeled_rows_)
    aligned_offsets_.insert(kir::to_string(strided_offset(idx.index, contiguous_strides(shape_))));
  return idx;
}

// Peeled: a vector is aligned where the tensor's offset is that of S laid out contiguously (the vectors
// are aligned to that layout's row starts); elsewhere its vectors are unaligned (kir::Expr::unaligned:
// narrower accesses at run time).
// Peeled by columns: aligned where the offset is a multiple of the width (a weight along the row); tensors
// laid out like S start each row at another alignment.
bool RowEmitter::vector_aligned(const Index& offset) const {
  if (!peeled_rows_ || peel_columns_) return ExpressionEmitter::vector_aligned(offset);
  return aligned_offsets_.count(kir::to_string(offset)) > 0;
}

kir::Stmt RowEmitter::open_loop() {
  kir::Stmt loop{kir::Stmt::Kind::RowLoop};
  loop.name = persistent_ ? "k" : "k" + std::to_string(counter_++);
  return loop;
}

void RowEmitter::in_row_loop(const std::function<void(const AxisIndex&)>& body) {
  kir::Stmt loop = open_loop();
  blocks_.push_back(&loop.then_block);
  memo_.emplace_back();
  body(element_index(loop.name));
  memo_.pop_back();
  blocks_.pop_back();
  block().push_back(std::move(loop));
}

void RowEmitter::in_chunked_row_loop(int64_t chunk, const std::function<void(const AxisIndex&)>& body,
                                     const std::function<void()>& after_chunk) {
  kir::Stmt loop = open_loop();
  loop.chunk = chunk;
  blocks_.push_back(&loop.then_block);
  memo_.emplace_back();
  body(element_index(loop.name));
  memo_.pop_back();
  blocks_.pop_back();
  blocks_.push_back(&loop.else_block);
  memo_.emplace_back();
  after_chunk();
  memo_.pop_back();
  blocks_.pop_back();
  block().push_back(std::move(loop));
}

AxisIndex RowEmitter::map_axes(const Shape& shape, const Shape& source_shape, const std::vector<size_t>& axes,
                               const std::vector<Index>& index, int lane_axis) {
  AxisIndex idx;
  // A tensor of exactly those axes of S takes their indices, unit axes included: a single row's index
  // stays `row`, so that one row and many print one text.
  bool same_axes = shape.size() == axes.size();
  for (size_t d = 0; same_axes && d < shape.size(); ++d) same_axes = shape[d] == source_shape[axes[d]];
  if (same_axes) {
    for (size_t d = 0; d < shape.size(); ++d) {
      if (static_cast<int>(axes[d]) == lane_axis) idx.lane_axis = static_cast<int>(d);
      idx.index.push_back(index[axes[d]]);
    }
    return idx;
  }
  size_t next = 0;
  for (int64_t extent : shape) {
    while (next < axes.size() && source_shape[axes[next]] == 1) ++next;
    if (extent == 1) {
      idx.index.push_back(kir::constant(0));
      continue;
    }
    SEAM_ASSERT(next < axes.size() && source_shape[axes[next]] == extent);
    if (static_cast<int>(axes[next]) == lane_axis) idx.lane_axis = static_cast<int>(idx.index.size());
    idx.index.push_back(index[axes[next++]]);
  }
  return idx;
}

}  // namespace seam
