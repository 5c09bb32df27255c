// Conversions of one element between dtypes: the rules of `cast`, also used to convert pointwise
// operands to their compute dtype, literals to their declared dtype and stored values to a tensor's
// dtype (docs/INTERPRETER.md, "Casts").
#pragma once

#include <cstdint>

#include "ir/dtype.h"

namespace seam {

// One element's value: a double for floating dtypes, an int64 for integer and bool dtypes (so that
// int64 values beyond 2^53 stay exact).
struct Scalar {
  bool is_float = false;
  double real = 0.0;
  int64_t integer = 0;

  static Scalar of_real(double v) { return Scalar{true, v, 0}; }
  static Scalar of_int(int64_t v) { return Scalar{false, 0.0, v}; }
};

// Rounds to the nearest value of a floating dtype (round-to-nearest-even, overflow to infinity).
double round_to_dtype(DType floating, double value);
// int64 to a floating dtype, rounded once (exact for every int64, no double rounding through f64).
double int_to_floating(DType floating, int64_t value);
// Floating to an integer or bool dtype: truncation toward zero, NaN -> 0, saturation at the dtype's
// min/max; to bool: value != 0 (NaN -> true).
int64_t floating_to_integer(DType integer_or_bool, double value);
// Integer to an integer or bool dtype: two's complement wrap; to bool: value != 0.
int64_t int_to_integer(DType integer_or_bool, int64_t value);

// Converts an element to `to` with the rules above. The result is exactly representable in `to`.
Scalar convert_scalar(const Scalar& value, DType to);

}  // namespace seam
