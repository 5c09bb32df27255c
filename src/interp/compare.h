// Comparing tensors with per-dtype tolerances, the way torch.testing.assert_close does:
// |actual - expected| <= atol + rtol * |expected|, NaN equal to NaN, integers and bools exact.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ir/fusion.h"
#include "tensor/host_tensor.h"

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
  int64_t excused = 0;          // differing elements that are ill-conditioned (compare_outputs)
  double max_abs_diff = 0;
  std::string message;  // empty when ok; otherwise names the shape/dtype problem or the worst element
};

// Compares element by element; shapes and dtypes must match exactly. An element that differs is excused
// (counted in `excused`, not a mismatch) where one of `nudged`, the expected tensor recomputed with
// perturbed rounding (interp/perturbation.h), differs from `expected` beyond the tolerance there too.
Comparison compare_tensors(const HostTensor& actual, const HostTensor& expected, Tolerance tolerance,
                           const std::vector<const HostTensor*>& nudged = {});

// A backend's outputs of `fusion` on `inputs` against the interpreter's (`expected`), output o at
// tolerance(its dtype). Only when some element differs, the interpreter runs again under
// kReferencePerturbations perturbations (every inexact result up, down, and two mixed patterns), and
// the differing elements whose reference itself moves beyond the tolerance are excused as
// ill-conditioned. docs/TESTING.md, "Comparing with the interpreter".
inline constexpr int kReferencePerturbations = 4;
std::vector<Comparison> compare_outputs(const Fusion& fusion, const std::vector<HostTensor>& inputs,
                                        const std::vector<HostTensor>& actual,
                                        const std::vector<HostTensor>& expected,
                                        const std::function<Tolerance(DType)>& tolerance);

}  // namespace seam
