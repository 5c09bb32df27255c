// Row-kernel fusions shared by the host tests (tests/exec/row_edges_test.cpp) and the GPU suite
// (tests/gpu/gpu_row_edges_test.cpp): RMSNorm with a weight broadcast over rows, softmax, per-row
// integer reductions, each at any [M, N] and dtype, with an optionally strided input.
#pragma once

#include <cstdint>

#include "ir/fusion.h"

namespace seam {

// y = x * rsqrt(mean(x^2) + 1e-6) * w (math in f32, y in `dtype`), w of shape [N] broadcast over rows,
// plus a per-row bias b [M, 1] broadcast along the row when `row_bias`. `row_stride` > N: x is a view
// whose rows lie row_stride elements apart (a strided, non-contiguous input).
Fusion rms_norm_fusion(int64_t m, int64_t n, DType dtype, int64_t row_stride = 0, bool row_bias = false);

// softmax (or log-softmax) of x [M, N] over its rows, math in f32, back in `dtype`.
Fusion softmax_fusion(int64_t m, int64_t n, DType dtype, bool log = false);

// Sum, max and min over the rows of an i32 [M, N] (identities of every integer reduction).
Fusion integer_row_reductions(int64_t m, int64_t n);

}  // namespace seam
