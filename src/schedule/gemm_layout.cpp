#include "schedule/gemm_layout.h"

#include <algorithm>

namespace seam {
namespace {

// Batch strides of `layout`'s leading axes (all but its last `matrix_rank`) against an output batch of
// `batch_rank` axes, aligned right; extent-1 and missing axes broadcast (stride 0).
std::vector<int64_t> batch_strides(const StridedLayout& layout, size_t matrix_rank, size_t batch_rank) {
  std::vector<int64_t> strides(batch_rank, 0);
  const size_t own = layout.shape.size() - matrix_rank;
  for (size_t d = 0; d < own; ++d)
    if (layout.shape[d] != 1) strides[batch_rank - own + d] = layout.strides[d];
  return strides;
}

}  // namespace

GemmMatrices gemm_matrices(const Node& product, size_t i, const StridedLayout& layout, size_t batch_rank) {
  GemmMatrices m;
  m.offset = layout.offset;
  const size_t r = layout.shape.size();
  if (product.op == OpKind::Linear && i == 1) {
    m.rows = layout.shape[1], m.row_stride = layout.strides[1];
    m.cols = layout.shape[0], m.col_stride = layout.strides[0];
    m.batch.assign(batch_rank, 0);
    return m;
  }
  m.rows = r >= 2 ? layout.shape[r - 2] : 1;
  m.row_stride = r >= 2 ? layout.strides[r - 2] : layout.shape[0];
  m.cols = layout.shape[r - 1], m.col_stride = layout.strides[r - 1];
  m.batch = batch_strides(layout, std::min<size_t>(r, 2), batch_rank);
  return m;
}

bool column_major_form(const GemmMatrices& matrix, bool& transpose, int64_t& ld) {
  const int64_t rows = matrix.rows, cols = matrix.cols;
  // op N: stored cols x rows, element (c, r) at c + r * ld.
  if (cols <= 1 || matrix.col_stride == 1) {
    ld = rows <= 1 ? std::max<int64_t>(cols, 1) : matrix.row_stride;
    if (ld >= std::max<int64_t>(cols, 1)) {
      transpose = false;
      return true;
    }
  }
  // op T: stored rows x cols, element (r, c) at r + c * ld.
  if (rows <= 1 || matrix.row_stride == 1) {
    ld = cols <= 1 ? std::max<int64_t>(rows, 1) : matrix.col_stride;
    if (ld >= std::max<int64_t>(rows, 1)) {
      transpose = true;
      return true;
    }
  }
  return false;
}

bool bias_contiguous(const StridedLayout& bias) { return bias.shape[0] <= 1 || bias.strides[0] == 1; }

bool has_gemm_form(const Node& product, size_t i, const StridedLayout& layout) {
  if (i == 2) return bias_contiguous(layout);
  const size_t batch_rank = product.type.shape.size() >= 2 ? product.type.shape.size() - 2 : 0;
  bool transpose = false;
  int64_t ld = 0;
  return column_major_form(gemm_matrices(product, i, layout, batch_rank), transpose, ld);
}

}  // namespace seam
