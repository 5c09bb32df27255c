// Nudged reference values, to tell ill-conditioned output elements from wrong ones. A backend computes
// the inexact floating results (transcendental functions, arithmetic, sums) in another precision or
// order than the interpreter (f32 math on the GPU, f32 sums, fused multiply-adds), so each may be a few
// f32 ulps away. Where moving every such result by that much moves an output element beyond the
// comparison's tolerance (a remainder by a rounded divisor, a float truncated to an integer next to a
// whole number, a comparison of nearly equal values), the element has no single expected value.
// compare_outputs (interp/compare.h) recomputes the reference with a few perturbations and excuses
// those elements; docs/TESTING.md, "Comparing with the interpreter".
#pragma once

#include <cstdint>

#include "ir/op.h"

namespace seam {

struct Perturbation {
  enum class Direction { Up, Down, Mixed };
  Direction direction = Direction::Up;
  uint64_t salt = 0;  // Mixed: each element's sign comes from a hash of (salt, node, element)
  // 16 f32 ulps: more than the host's and the GPU's f32 math and f32 sums are off by on the small
  // values of random fusions, less than the f32 tolerances (1e-5), so a well-conditioned element moves
  // less than its tolerance.
  double relative = 0x1p-20;

  // `value` (element `element` of the node with value id `node`) moved by `relative`.
  double apply(int32_t node, int64_t element, double value) const;
};

// Whether the op's floating result may differ between two correct implementations (and so is nudged):
// not for results that are exact wherever they are computed (rounding to integers, neg, abs, max, min,
// fmod, nextafter, comparisons, signbit, casts, movement, indexing, random numbers: docs/RANDOM.md).
bool has_inexact_floating_result(OpKind op);

}  // namespace seam
