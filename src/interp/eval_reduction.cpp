// Reductions sum, prod, max, min over a set of axes. Sums and products accumulate in double (floating
// dtypes, rounded once at the end) or wrapping int64 (integer and bool dtypes); max and min propagate NaN.
#include <algorithm>
#include <cmath>
#include <limits>

#include "interp/eval_ops.h"
#include "ir/scalar_math.h"
#include "support/error.h"
#include "support/parallel.h"

namespace seam {

HostTensor eval_reduction(const Node& node, const Values& values, const Perturbation* nudge, int32_t id) {
  const HostTensor& in = values.at(static_cast<size_t>(node.operands.at(0).id));
  const auto& axes = node.attrs.get_ints("axes");
  const bool floating = is_floating(in.dtype());
  const Shape& shape = in.shape();
  const Shape strides = contiguous_strides(shape);  // values are contiguous: a multi-index's linear index

  // The kept axes index the output (keepdim's extents of 1 leave the linear index alone), the reduced
  // axes are walked in row-major order: the input elements of one output fold in the order of their
  // linear indices, whichever thread computes it.
  Shape kept_extents, kept_strides, reduced_extents, reduced_strides;
  for (size_t d = 0; d < shape.size(); ++d) {
    const bool reduced = std::find(axes.begin(), axes.end(), static_cast<int64_t>(d)) != axes.end();
    (reduced ? reduced_extents : kept_extents).push_back(shape[d]);
    (reduced ? reduced_strides : kept_strides).push_back(strides[d]);
  }
  int64_t reduced_count = 1;
  for (int64_t e : reduced_extents) reduced_count *= e;

  const int64_t out_numel = Type::tensor(node.type.dtype, node.type.shape).numel();
  const bool prod = node.op == OpKind::Prod;
  HostTensor out = HostTensor::zeros(node.type.dtype, node.type.shape);
  const bool nudged = floating && nudge && has_inexact_floating_result(node.op);
  auto fold = [&](int64_t o) {
    int64_t base = 0;
    for (size_t k = kept_extents.size(), rest = static_cast<size_t>(o); k-- > 0;) {
      base += static_cast<int64_t>(rest % static_cast<size_t>(kept_extents[k])) * kept_strides[k];
      rest /= static_cast<size_t>(kept_extents[k]);
    }
    // The fold starts from the identity of sum and prod; max and min start from their first element
    // (NaN over no elements).
    double real = node.op == OpKind::Sum ? 0.0 : (prod ? 1.0 : std::nan(""));
    int64_t integer = prod ? 1 : 0;
    Shape at(reduced_extents.size(), 0);
    int64_t offset = base;
    for (int64_t r = 0; r < reduced_count; ++r) {
      const bool first = r == 0;
      if (floating) {
        const double x = in.get_double(offset);
        switch (node.op) {
          case OpKind::Sum: real += x; break;
          case OpKind::Prod: real *= x; break;
          case OpKind::Max: real = first ? x : math::nan_max(real, x); break;
          case OpKind::Min: real = first ? x : math::nan_min(real, x); break;
          default: SEAM_ASSERT(false, "not a reduction");
        }
      } else {
        const int64_t x = in.get_int(offset);
        switch (node.op) {
          case OpKind::Sum: integer = math::wrapping_add(integer, x); break;
          case OpKind::Prod: integer = math::wrapping_mul(integer, x); break;
          case OpKind::Max: integer = first || x > integer ? x : integer; break;
          case OpKind::Min: integer = first || x < integer ? x : integer; break;
          default: SEAM_ASSERT(false, "not a reduction");
        }
      }
      // The next reduced multi-index, as an odometer (the last axis fastest).
      for (size_t d = at.size(); d-- > 0;) {
        offset += reduced_strides[d];
        if (++at[d] < reduced_extents[d]) break;
        offset -= reduced_strides[d] * reduced_extents[d];
        at[d] = 0;
      }
    }
    if (nudged)
      out.set_double(o, nudge->apply(id, o, real));
    else if (floating)
      out.set_double(o, real);  // rounded once
    else
      out.set_int(o, integer);
  };
  // Few outputs over long rows are split as finely as many short ones: the grain counts input elements.
  const int64_t grain = std::max<int64_t>(1, (int64_t{1} << 14) / std::max<int64_t>(reduced_count, 1));
  parallel_for(
      out_numel,
      [&](int64_t begin, int64_t end) {
        for (int64_t o = begin; o < end; ++o) fold(o);
      },
      grain);
  return out;
}

}  // namespace seam
