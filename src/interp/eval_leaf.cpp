// Leaves: const (a scalar), full (a filled tensor), iota (start + i * step).
#include "interp/eval_ops.h"
#include "ir/scalar_math.h"
#include "support/error.h"

namespace seam {

Scalar scalar_of(const Number& number) {
  return number.is_float() ? Scalar::of_real(number.as_double()) : Scalar::of_int(number.as_int());
}

HostTensor eval_leaf(const Node& node) {
  HostTensor out = HostTensor::zeros(node.type.dtype, node.type.shape);
  switch (node.op) {
    case OpKind::Const:
    case OpKind::Full: {
      const Scalar value = scalar_of(node.attrs.get_number("value"));
      for (int64_t i = 0; i < out.numel(); ++i) out.set(i, value);
      break;
    }
    case OpKind::Iota: {
      const Number& start = node.attrs.get_number("start");
      const Number& step = node.attrs.get_number("step");
      // Float dtypes compute start + i * step in double and round once; integer dtypes in wrapping int64.
      for (int64_t i = 0; i < out.numel(); ++i) {
        if (is_floating(out.dtype()))
          out.set_double(i, start.as_double() + static_cast<double>(i) * step.as_double());
        else
          out.set_int(i, math::wrapping_add(start.as_int(), math::wrapping_mul(i, step.as_int())));
      }
      break;
    }
    default: SEAM_ASSERT(false, "eval_leaf of op ", op_name(node.op));
  }
  return out;
}

}  // namespace seam
