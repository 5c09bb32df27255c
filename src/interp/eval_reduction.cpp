// Reductions sum, prod, max, min over a set of axes. Sums and products accumulate in double (floating
// dtypes, rounded once at the end) or wrapping int64 (integer and bool dtypes); max and min propagate NaN.
#include <algorithm>
#include <cmath>
#include <limits>

#include "interp/eval_ops.h"
#include "ir/scalar_math.h"
#include "support/error.h"

namespace seam {

HostTensor eval_reduction(const Node& node, const Values& values, const Perturbation* nudge, int32_t id) {
  const HostTensor& in = values.at(static_cast<size_t>(node.operands.at(0).id));
  const auto& axes = node.attrs.get_ints("axes");
  const bool keepdim = node.attrs.get_bool("keepdim");
  const bool floating = is_floating(in.dtype());

  // Every input element folds into the output element at its index with reduced axes removed (or
  // set to 0 with keepdim).
  const int64_t out_numel = Type::tensor(node.type.dtype, node.type.shape).numel();
  const bool prod = node.op == OpKind::Prod;
  // The fold starts from the identity of sum and prod; max and min start from their first element.
  double real_start = std::nan("");
  if (node.op == OpKind::Sum) real_start = 0.0;
  if (prod) real_start = 1.0;
  std::vector<double> real(static_cast<size_t>(out_numel), real_start);
  std::vector<int64_t> integer(static_cast<size_t>(out_numel), prod ? 1 : 0);
  std::vector<bool> seen(static_cast<size_t>(out_numel), false);
  for (int64_t i = 0; i < in.numel(); ++i) {
    const std::vector<int64_t> index = unravel_index(i, in.shape());
    std::vector<int64_t> out_index;
    for (size_t d = 0; d < index.size(); ++d) {
      const bool reduced = std::find(axes.begin(), axes.end(), static_cast<int64_t>(d)) != axes.end();
      if (!reduced)
        out_index.push_back(index[d]);
      else if (keepdim)
        out_index.push_back(0);
    }
    const size_t o = static_cast<size_t>(ravel_index(out_index, node.type.shape));
    const bool first = !seen[o];
    seen[o] = true;
    if (floating) {
      const double x = in.get_double(i);
      double& acc = real[o];
      switch (node.op) {
        case OpKind::Sum: acc += x; break;
        case OpKind::Prod: acc *= x; break;
        case OpKind::Max: acc = first ? x : math::nan_max(acc, x); break;
        case OpKind::Min: acc = first ? x : math::nan_min(acc, x); break;
        default: SEAM_ASSERT(false, "not a reduction");
      }
    } else {
      const int64_t x = in.get_int(i);
      int64_t& acc = integer[o];
      switch (node.op) {
        case OpKind::Sum: acc = math::wrapping_add(acc, x); break;
        case OpKind::Prod: acc = math::wrapping_mul(acc, x); break;
        case OpKind::Max: acc = first || x > acc ? x : acc; break;
        case OpKind::Min: acc = first || x < acc ? x : acc; break;
        default: SEAM_ASSERT(false, "not a reduction");
      }
    }
  }

  HostTensor out = HostTensor::zeros(node.type.dtype, node.type.shape);
  for (int64_t o = 0; o < out_numel; ++o) {
    if (floating && nudge && has_inexact_floating_result(node.op))
      out.set_double(o, nudge->apply(id, o, real[static_cast<size_t>(o)]));
    else if (floating)
      out.set_double(o, real[static_cast<size_t>(o)]);  // rounded once
    else
      out.set_int(o, integer[static_cast<size_t>(o)]);
  }
  return out;
}

}  // namespace seam
