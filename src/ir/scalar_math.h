// Scalar semantics shared by the op table's expressions (interpreter, host backend): integer
// arithmetic wraps like two's complement, max/min propagate NaN like torch.maximum/minimum. The
// integer helpers are templates so that the interpreter can run the width-dependent ones (gcd, the
// logical shift) in 32 bits for i32; the generated kernels' versions are in codegen/headers.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "support/erfinv.h"

namespace seam::math {

inline int64_t wrapping_add(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
inline int64_t wrapping_sub(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
inline int64_t wrapping_mul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}
inline int64_t wrapping_neg(int64_t a) { return wrapping_sub(0, a); }
inline int64_t wrapping_abs(int64_t a) { return a < 0 ? wrapping_neg(a) : a; }

// Integer power by squaring, wrapping. A negative exponent gives the truncated real result:
// 1 for base 1, +-1 for base -1, 0 otherwise (division by zero for base 0 gives 0 too).
inline int64_t int_pow(int64_t base, int64_t exponent) {
  if (exponent < 0) {
    if (base == 1) return 1;
    if (base == -1) return (exponent % 2 == 0) ? 1 : -1;
    return 0;
  }
  int64_t result = 1;
  while (exponent > 0) {
    if (exponent & 1) result = wrapping_mul(result, base);
    base = wrapping_mul(base, base);
    exponent >>= 1;
  }
  return result;
}

// lgamma without std::lgamma's write of the global signgam, so that threads may evaluate it at once.
inline double lgamma(double a) {
  int sign = 0;
  return ::lgamma_r(a, &sign);
}

inline double nan_max(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<double>::quiet_NaN();
  return a > b ? a : b;
}
inline double nan_min(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<double>::quiet_NaN();
  return a < b ? a : b;
}

// C's fmod on integers: the remainder has the dividend's sign (torch.fmod). Division by zero gives 0
// (torch raises, CUDA leaves it undefined); x fmod -1 is 0 without the overflow of INT_MIN % -1.
template <class Int>
Int int_fmod(Int a, Int b) {
  return (b == 0 || b == -1) ? Int{0} : static_cast<Int>(a % b);
}
// C's integer division, truncating toward zero (torch.div with rounding_mode="trunc"). Division by zero
// gives -1, every bit set, as NVIDIA GPUs' integer division does (so torch on CUDA tensors and nvFuser
// agree; torch raises on CPU); x / -1 is the wrapping negation, so INT_MIN / -1 is INT_MIN without the
// overflow trap.
template <class Int>
Int trunc_div(Int a, Int b) {
  using U = std::make_unsigned_t<Int>;
  if (b == 0) return Int{-1};
  if (b == -1) return static_cast<Int>(U{0} - static_cast<U>(a));
  return static_cast<Int>(a / b);
}
// Python's modulo (torch.remainder): the remainder has the divisor's sign.
template <class Int>
Int int_remainder(Int a, Int b) {
  const Int m = int_fmod(a, b);
  return (m != 0 && ((b < 0) != (m < 0))) ? static_cast<Int>(m + b) : m;
}
inline double remainder(double a, double b) {
  const double m = std::fmod(a, b);
  return (m != 0 && ((b < 0) != (m < 0))) ? m + b : m;
}

// Shifts read the shift amount as unsigned: a negative amount or one of the width or more shifts every
// bit out (0, or the sign for the arithmetic right shift), as torch 2 and the GPU's shift instructions
// define it.
template <class Int>
Int shift_left(Int a, Int b) {
  using U = std::make_unsigned_t<Int>;
  if (static_cast<U>(b) >= sizeof(Int) * 8) return 0;
  return static_cast<Int>(static_cast<U>(a) << static_cast<U>(b));
}
template <class Int>
Int shift_right(Int a, Int b) {
  using U = std::make_unsigned_t<Int>;
  if (static_cast<U>(b) >= sizeof(Int) * 8) return a < 0 ? Int{-1} : Int{0};
  return static_cast<Int>(a >> static_cast<U>(b));
}
// The bits of the signed value shifted right as unsigned (zeros in from the top).
template <class Int>
Int logical_shift_right(Int a, Int b) {
  using U = std::make_unsigned_t<Int>;
  if (static_cast<U>(b) >= sizeof(Int) * 8) return 0;
  return static_cast<Int>(static_cast<U>(a) >> static_cast<U>(b));
}

// torch.gcd's Euclid on wrapped absolute values, so that the most negative value (its own absolute
// value) gives torch's results: gcd(INT_MIN, 0) = INT_MIN, gcd(INT_MIN, 6) = -2.
template <class Int>
Int gcd(Int a, Int b) {
  using U = std::make_unsigned_t<Int>;
  auto wrapped_abs = [](Int x) { return x < 0 ? static_cast<Int>(U{0} - static_cast<U>(x)) : x; };
  a = wrapped_abs(a);
  b = wrapped_abs(b);
  while (a != 0) {
    const Int c = a;
    a = a == -1 ? Int{0} : static_cast<Int>(b % a);
    b = c;
  }
  return b;
}

}  // namespace seam::math
