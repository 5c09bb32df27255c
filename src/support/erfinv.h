// The inverse error functions erfinv and erfcinv in double precision, for the reference interpreter and
// for generated host code (C and C++ have no erfinv; CUDA has erfinv/erfcinv). An initial estimate is
// refined by Newton's method on erf (|y| <= 1/2) or on log(erfc) in the tails, so the result is as
// accurate as the libm erf/erfc it inverts (an ulp or two). Header-only, libm only.
#pragma once

#include <math.h>

namespace seam {
namespace erfinv_detail {

constexpr double kTwoOverSqrtPi = 1.1283791670955125739;  // d/dx erf(x) at 0
constexpr double kSqrtPi = 1.7724538509055160273;

// erfinv(y) for |y| <= 1/2: the series y * sqrt(pi)/2 * (1 + pi/12 y^2 + 7 pi^2/480 y^4) is within
// 1e-3 there; Newton on erf(x) - y (slope >= 0.89) then doubles the correct digits each step.
inline double central(double y) {
  const double y2 = y * y;
  double x = y * (kSqrtPi / 2) * (1 + y2 * (0.26179938779914943 + y2 * 0.14393173084921979));
  for (int i = 0; i < 4; ++i) x -= (erf(x) - y) / (kTwoOverSqrtPi * exp(-x * x));
  return x;
}

// The x > 0 with erfc(x) = r for 0 < r <= 1/2. log(erfc(x)) is close to -x^2 - log(x sqrt(pi)) there,
// nearly linear in x^2, so Newton on log(erfc(x)) - log(r) converges from the asymptotic estimate in a
// few steps at every magnitude of r.
inline double tail(double r) {
  const double t = sqrt(-log(r));
  double x = t - log(t * kSqrtPi) / (2 * t);
  const double log_r = log(r);
  for (int i = 0; i < 12; ++i) {
    const double e = erfc(x);
    if (!(e > 0)) break;  // past erfc's underflow (subnormal r): keep the last estimate
    const double step = (log(e) - log_r) * e / (kTwoOverSqrtPi * exp(-x * x));
    x += step;
    if (fabs(step) <= 1e-17 * x) break;
  }
  return x;
}

}  // namespace erfinv_detail

// erf(x) = y. NaN outside [-1, 1], +-inf at +-1, keeps the sign of zero.
inline double erfinv(double y) {
  if (!(y >= -1 && y <= 1)) return NAN;
  if (y == 1) return INFINITY;
  if (y == -1) return -INFINITY;
  if (y == 0) return y;
  if (fabs(y) <= 0.5) return erfinv_detail::central(y);
  const double x = erfinv_detail::tail(1 - fabs(y));  // 1 - |y| is exact for |y| >= 1/2
  return y < 0 ? -x : x;
}

// erfc(x) = r. NaN outside [0, 2], +inf at 0, -inf at 2. Small r keep their precision (erfinv(1 - r)
// would lose it); 1 - r and 2 - r are exact where they are used (Sterbenz).
inline double erfcinv(double r) {
  if (!(r >= 0 && r <= 2)) return NAN;
  if (r == 0) return INFINITY;
  if (r == 2) return -INFINITY;
  if (r <= 0.5) return erfinv_detail::tail(r);
  if (r >= 1.5) return -erfinv_detail::tail(2 - r);
  return erfinv_detail::central(1 - r);
}

}  // namespace seam
