// Scalar semantics shared by the op table's expressions (interpreter, host backend): integer
// arithmetic wraps like two's complement, max/min propagate NaN like torch.maximum/minimum.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

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

inline double nan_max(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<double>::quiet_NaN();
  return a > b ? a : b;
}
inline double nan_min(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<double>::quiet_NaN();
  return a < b ? a : b;
}

}  // namespace seam::math
