// Scans along one axis: cumsum. Each line along the axis is folded sequentially in index order (the
// meaning of the op: out[i] = x[0] + ... + x[i], summed left to right); lines are independent and split
// over threads. Floating sums run in double and each output is rounded once to its dtype, as PyTorch's
// CPU cumsum (so do the kernels where one thread walks a line; the GPU's rows kernel adds f32 shares in a
// tree, a few ulps apart: interp/perturbation.h); integer and bool inputs
// sum in wrapping int64, as torch.cumsum does.
#include <algorithm>

#include "interp/eval_ops.h"
#include "ir/scalar_math.h"
#include "support/error.h"
#include "support/parallel.h"

namespace seam {

HostTensor eval_scan(const Node& node, const Values& values, const Perturbation* nudge, int32_t id) {
  SEAM_ASSERT(node.op == OpKind::Cumsum, "eval_scan of op ", op_name(node.op));
  const HostTensor& in = values.at(static_cast<size_t>(node.operands.at(0).id));
  HostTensor out = HostTensor::zeros(node.type.dtype, node.type.shape);
  const Shape& shape = in.shape();
  // Values are contiguous: a line is `extent` elements `inner` apart, lines start at
  // outer * extent * inner + inner_index.
  const size_t axis = static_cast<size_t>(node.attrs.get_int("axis"));
  int64_t outer = 1, extent = 1, inner = 1;
  for (size_t d = 0; d < shape.size(); ++d) (d < axis ? outer : d == axis ? extent : inner) *= shape[d];
  const bool floating = is_floating(in.dtype());
  const bool nudged = floating && nudge && has_inexact_floating_result(node.op);
  auto scan_line = [&](int64_t line) {
    const int64_t start = (line / inner) * extent * inner + line % inner;
    double real = 0.0;
    int64_t integer = 0;
    for (int64_t k = 0; k < extent; ++k) {
      const int64_t at = start + k * inner;
      if (!floating) {
        integer = math::wrapping_add(integer, in.get_int(at));
        out.set_int(at, integer);
        continue;
      }
      real += in.get_double(at);
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
