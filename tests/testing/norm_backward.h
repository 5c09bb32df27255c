// Normalization backward fusions for tests of outer reductions (row kernels that also sum over the
// rows): M x N inputs of `dtype`, math in f32, gradients back in `dtype`.
#pragma once

#include "ir/fusion.h"

namespace seam {

// RMSNorm: dx = rstd * (g - xhat * mean(g * xhat)), g = dy * w; dw = sum over the rows of dy * xhat.
// Inputs x, w, dy, rstd [M, 1]; outputs dx, dw.
Fusion rmsnorm_backward(int64_t m, int64_t n, DType dtype);
// LayerNorm: inputs x, w, dy, mean, rstd; outputs dx, dw = sum over the rows of dy * xhat, db = sum
// over the rows of dy.
Fusion layernorm_backward(int64_t m, int64_t n, DType dtype);
// Only the two sums of one tensor x (cast to f32): over the rows and over each row.
Fusion both_axes(int64_t m, int64_t n, DType dtype);
// A weight gradient alone: reduce(cast(dy) * cast(x) * expand(r)) over the first `axes` axes of `shape`,
// in `accumulator` (r has extent 1 there), cast back to `dtype`. Inputs dy, x, r; output dw.
Fusion weight_gradient_alone(const Shape& shape, int64_t axes, DType dtype, OpKind reduction = OpKind::Sum,
                             DType accumulator = DType::Float32);

}  // namespace seam
