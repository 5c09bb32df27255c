// Scans along one axis: cumsum, cumprod, cummin, cummax. Each line along the axis is folded
// sequentially in index order (the meaning of the op: out[i] = x[0] + ... + x[i], combined left to right);
// lines are independent and split over threads. Floating sums and products run in double and each output
// is rounded once to its dtype, as PyTorch's CPU kernels (so do the kernels where one thread walks a line;
// the GPU's rows kernel combines f32 shares in a tree, a few ulps apart: interp/perturbation.h); integer
// and bool inputs sum and multiply in wrapping int64, as torch.cumsum and torch.cumprod do. Running
// minima and maxima are exact in any dtype and follow torch's CPU cummin/cummax: a NaN, once seen, stays
// (each later NaN replaces it), and of equal values the later one is kept (+0 then -0 gives -0 for cummax).
#include <algorithm>
#include <cmath>
#include <type_traits>

#include "interp/eval_ops.h"
#include "ir/scalar_math.h"
#include "support/error.h"
#include "support/parallel.h"

namespace seam {

namespace {

// Whether the element `later` replaces the running minimum or maximum `earlier` (torch's rule, above).
template <class T>
bool later_wins(OpKind op, T earlier, T later) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(later)) return true;
    if (std::isnan(earlier)) return false;
  }
  return op == OpKind::Cummax ? later >= earlier : later <= earlier;
}

}  // namespace

HostTensor eval_scan(const Node& node, const Values& values, const Perturbation* nudge, int32_t id) {
  const OpKind op = node.op;
  SEAM_ASSERT(op == OpKind::Cumsum || op == OpKind::Cumprod || op == OpKind::Cummin || op == OpKind::Cummax,
              "eval_scan of op ", op_name(op));
  const HostTensor& in = values.at(static_cast<size_t>(node.operands.at(0).id));
  HostTensor out = HostTensor::zeros(node.type.dtype, node.type.shape);
  const Shape& shape = in.shape();
  // Values are contiguous: a line is `extent` elements `inner` apart, lines start at
  // outer * extent * inner + inner_index.
  const size_t axis = static_cast<size_t>(node.attrs.get_int("axis"));
  int64_t outer = 1, extent = 1, inner = 1;
  for (size_t d = 0; d < shape.size(); ++d) (d < axis ? outer : d == axis ? extent : inner) *= shape[d];
  const bool floating = is_floating(in.dtype());
  const bool nudged = floating && nudge && has_inexact_floating_result(op);
  const bool extremum = op == OpKind::Cummin || op == OpKind::Cummax;
  auto scan_line = [&](int64_t line) {
    const int64_t start = (line / inner) * extent * inner + line % inner;
    double real = op == OpKind::Cumprod ? 1.0 : 0.0;
    int64_t integer = op == OpKind::Cumprod ? 1 : 0;
    for (int64_t k = 0; k < extent; ++k) {
      const int64_t at = start + k * inner;
      if (!floating) {
        const int64_t x = in.get_int(at);
        if (extremum)
          integer = k == 0 || later_wins(op, integer, x) ? x : integer;
        else
          integer = op == OpKind::Cumsum ? math::wrapping_add(integer, x) : math::wrapping_mul(integer, x);
        out.set_int(at, integer);
        continue;
      }
      const double x = in.get_double(at);
      if (extremum)
        real = k == 0 || later_wins(op, real, x) ? x : real;
      else
        real = op == OpKind::Cumsum ? real + x : real * x;
      out.set_double(at, nudged ? nudge->apply(id, at, real) : real);  // rounded to the dtype per output
    }
  };
  const int64_t grain = std::max<int64_t>(1, (int64_t{1} << 14) / std::max<int64_t>(extent, 1));
  parallel_for(
      outer * inner,
      [&](int64_t begin, int64_t end) {
        for (int64_t line = begin; line < end; ++line) scan_line(line);
      },
      grain);
  return out;
}

}  // namespace seam
