// Which strided layouts a vendor GEMM reads in place: a matrix-product operand is a column-major matrix
// (or its transpose) with a leading dimension, per matrix of a strided batch. The segmenter asks it
// before letting a product read a view of a computed value (segment/mark_cheap_ops.cpp), the plan when
// it maps the product onto library calls (plan/matmul_plan.h).
#pragma once

#include <cstdint>
#include <vector>

#include "ir/fusion.h"
#include "schedule/view.h"

namespace seam {

// One operand of C[M, N] = L[M, K] @ R[K, N] over the output's batch axes.
struct GemmMatrices {
  int64_t offset = 0;  // elements
  int64_t rows = 0, cols = 0;
  int64_t row_stride = 0, col_stride = 0;
  std::vector<int64_t> batch;  // stride per output batch axis, 0 where it broadcasts
};

// Operand i (0 or 1) of `product` (a matmul or linear node) laid out as `layout`, as matrices over
// `batch_rank` output batch axes: matmul's operands as they are, linear's input as L (a vector is one
// row) and its weight's transpose as R.
GemmMatrices gemm_matrices(const Node& product, size_t i, const StridedLayout& layout, size_t batch_rank);

// The library's operand for `matrix` read as its transpose, i.e. a column-major cols x rows matrix
// op(X): no transpose where cols are contiguous, a transpose where rows are. False when neither has a
// valid leading dimension.
bool column_major_form(const GemmMatrices& matrix, bool& transpose, int64_t& ld);

// A linear's bias is read as one contiguous vector.
bool bias_contiguous(const StridedLayout& bias);

// Whether operand i of `product`, laid out as `layout`, can be read by the library in place.
bool has_gemm_form(const Node& product, size_t i, const StridedLayout& layout);

}  // namespace seam
