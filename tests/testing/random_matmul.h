// Random matrix products for tests: one matmul (batch axes broadcast, some operands without batch) or
// linear (vector or batched input, with or without a bias) over inputs laid out in random axis orders
// whose innermost axis is one of the two matrix axes, as fusion text. Extents 1-6, so degenerate rows,
// columns and contractions of one element are common.
#pragma once

#include <random>
#include <string>
#include <vector>

#include "ir/dtype.h"

namespace seam {

std::string random_matmul_text(std::mt19937& rng, DType dtype);

// Hand-picked products in `dtype`, as fusion text: a linear of the transformer's size with a bias, a
// vector input, odd batched extents, operands shared by a batch, batch axes without a common stride,
// transposed inputs, a permuted view, a broadcast matrix axis and a strided bias (both copied first), a bias
// off 16-byte alignment,
// empty contractions and an empty output.
std::vector<std::string> matmul_cases(DType dtype);

}  // namespace seam
