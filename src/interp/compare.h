// Comparing tensors with per-dtype tolerances, the way torch.testing.assert_close does:
// |actual - expected| <= atol + rtol * |expected|, NaN equal to NaN, integers and bools exact.
#pragma once

#include <string>

#include "interp/host_tensor.h"

namespace seam {

struct Tolerance {
  double rtol = 0;
  double atol = 0;
};

// torch.testing's defaults: bf16 1.6e-2/1e-5, f16 1e-3/1e-5, f32 1.3e-6/1e-5, f64 1e-7/1e-7, exact otherwise.
Tolerance default_tolerance(DType dtype);

struct Comparison {
  bool ok = true;
  int64_t mismatches = 0;
  int64_t first_mismatch = -1;  // row-major index
  double max_abs_diff = 0;
  std::string message;  // empty when ok; otherwise names the shape/dtype problem or the worst element
};

// Compares element by element; shapes and dtypes must match exactly.
Comparison compare_tensors(const HostTensor& actual, const HostTensor& expected, Tolerance tolerance);

}  // namespace seam
