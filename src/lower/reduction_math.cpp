#include "lower/reduction_math.h"

#include <limits>

#include "support/error.h"

namespace seam {

DType reduction_accumulator(DType operand) {
  if (operand == DType::Float64) return DType::Float64;
  if (is_floating(operand)) return DType::Float32;
  return DType::Int64;
}

DType inlined_reduction_accumulator(DType result) {
  return is_floating(result) ? reduction_accumulator(result) : result;
}

Number reduction_identity(OpKind reduction, DType accumulator) {
  const bool floating = is_floating(accumulator);
  const double inf = std::numeric_limits<double>::infinity();
  switch (reduction) {
    case OpKind::Sum: return Number::of_int(0);
    case OpKind::Prod: return Number::of_int(1);
    case OpKind::Max:
      return floating ? Number::of_float(-inf) : Number::of_int(std::numeric_limits<int64_t>::min());
    case OpKind::Min:
      return floating ? Number::of_float(inf) : Number::of_int(std::numeric_limits<int64_t>::max());
    default: SEAM_ASSERT(false, "not a reduction");
  }
}

OpKind reduction_combine(OpKind reduction) {
  switch (reduction) {
    case OpKind::Sum: return OpKind::Add;
    case OpKind::Prod: return OpKind::Mul;
    case OpKind::Max: return OpKind::Maximum;
    case OpKind::Min: return OpKind::Minimum;
    default: SEAM_ASSERT(false, "not a reduction");
  }
}

}  // namespace seam
