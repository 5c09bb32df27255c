// seam's random numbers (docs/RANDOM.md), one definition for the reference interpreter, the host backend's
// generated C++ and the GPU's NVRTC kernels: the same source compiled three ways gives the same bits.
//
// - Philox-4x32-10 (Salmon, Moraes, Dror, Shaw, "Parallel Random Numbers: As Easy as 1, 2, 3", SC'11),
//   written from its published definition: a 128-bit counter, a 64-bit key, ten rounds.
// - Element i of a random op with (seed, offset) is a function of the four words of
//   philox(counter = (lo32(i), hi32(i), lo32(offset), hi32(offset)), key = (lo32(seed), hi32(seed))).
// - Uniform and normal floats from those words with IEEE-exact operations only (integer to float
//   conversions of at most 53 bits, scaling by powers of two, +, -, *, /, sqrt and fused multiply-adds
//   written out as fma): no library transcendental, so no platform's libm decides a bit. Every
//   multiply-add is an explicit fma, so that a compiler contracting a*b+c (NVRTC does by default) finds
//   nothing to contract.
//
// Plain C++17 without the standard library's headers under NVRTC (which compiles with -default-device);
// host compilers get <math.h>.
#pragma once

#if !defined(__CUDACC_RTC__)
#include <math.h>
#endif

#if defined(__CUDACC__)
#define SEAM_RNG_FN __host__ __device__ inline
#else
#define SEAM_RNG_FN inline
#endif

namespace seam {
namespace rng {

struct Words4 {
  unsigned int w[4];
};

// Philox-4x32 with `rounds` rounds (10 is Philox-4x32-10; the known-answer tests also check 7).
SEAM_RNG_FN Words4 philox4x32(Words4 counter, unsigned int key0, unsigned int key1, int rounds = 10) {
  for (int r = 0; r < rounds; ++r) {
    if (r > 0) {  // the key schedule: Weyl increments between rounds
      key0 += 0x9E3779B9u;
      key1 += 0xBB67AE85u;
    }
    const unsigned long long p0 = 0xD2511F53ull * counter.w[0];
    const unsigned long long p1 = 0xCD9E8D57ull * counter.w[2];
    Words4 next;
    next.w[0] = static_cast<unsigned int>(p1 >> 32) ^ counter.w[1] ^ key0;
    next.w[1] = static_cast<unsigned int>(p1);
    next.w[2] = static_cast<unsigned int>(p0 >> 32) ^ counter.w[3] ^ key1;
    next.w[3] = static_cast<unsigned int>(p0);
    counter = next;
  }
  return counter;
}

// The random words of element `index` of a random op seeded (seed, offset): each element its own counter,
// so a value never depends on which thread, chunk or kernel computes it.
SEAM_RNG_FN Words4 element_words(unsigned long long seed, unsigned long long offset,
                                 unsigned long long index) {
  Words4 counter = {{static_cast<unsigned int>(index), static_cast<unsigned int>(index >> 32),
                     static_cast<unsigned int>(offset), static_cast<unsigned int>(offset >> 32)}};
  return philox4x32(counter, static_cast<unsigned int>(seed), static_cast<unsigned int>(seed >> 32));
}

// [0, 1) from the top 24 bits of one word: k * 2^-24, k < 2^24 (exact in float).
SEAM_RNG_FN float unit_float(unsigned int word) { return static_cast<float>(word >> 8) * 0x1p-24f; }

// [0, 1) from the top 53 bits of (high, low): k * 2^-53, k < 2^53 (exact in double).
SEAM_RNG_FN double unit_double(unsigned int high, unsigned int low) {
  const unsigned long long bits = (static_cast<unsigned long long>(high) << 32) | low;
  return static_cast<double>(bits >> 11) * 0x1p-53;
}

// lo + (hi - lo) * u rounded once, u from word 0 (float) or words 0 and 1 (double). The caller maps a
// result equal to hi to lo (docs/RANDOM.md), so values lie in [lo, hi).
SEAM_RNG_FN float uniform(const Words4& r, float lo, float hi) {
  return fmaf(hi - lo, unit_float(r.w[0]), lo);
}
SEAM_RNG_FN double uniform(const Words4& r, double lo, double hi) {
  return fma(hi - lo, unit_double(r.w[0], r.w[1]), lo);
}

// log(x) for 0 < x <= 1: x = m * 2^e with m in [sqrt(1/2), sqrt(2)), log(m) = 2 atanh(s) with
// s = (m - 1) / (m + 1), |s| <= 0.172, by its series to s^23 (the next term is below 2^-60 relative).
SEAM_RNG_FN double log_unit(double x) {
  int e = 0;
  double m = frexp(x, &e);  // m in [0.5, 1), exact
  if (m < 0x1.6a09e667f3bcdp-1) {
    m = m + m;
    e = e - 1;
  }
  const double s = (m - 1.0) / (m + 1.0);
  const double s2 = s * s;
  double p = 0x1.642c8590b2164p-5;       // 1/23
  p = fma(p, s2, 0x1.8618618618618p-5);  // 1/21
  p = fma(p, s2, 0x1.af286bca1af28p-5);  // 1/19
  p = fma(p, s2, 0x1.e1e1e1e1e1e1ep-5);  // 1/17
  p = fma(p, s2, 0x1.1111111111111p-4);  // 1/15
  p = fma(p, s2, 0x1.3b13b13b13b14p-4);  // 1/13
  p = fma(p, s2, 0x1.745d1745d1746p-4);  // 1/11
  p = fma(p, s2, 0x1.c71c71c71c71cp-4);  // 1/9
  p = fma(p, s2, 0x1.2492492492492p-3);  // 1/7
  p = fma(p, s2, 0x1.999999999999ap-3);  // 1/5
  p = fma(p, s2, 0x1.5555555555555p-2);  // 1/3
  p = fma(p, s2, 1.0);
  const double two_s = s + s;
  return fma(static_cast<double>(e), 0x1.62e42fefa39efp-1, two_s * p);  // e * ln 2 + log(m)
}

// cos(x) and sin(x) / x for 0 <= x <= pi/4 as polynomials in x^2: the Taylor series to x^16 and x^17
// (the next terms are below 2^-58 of the result).
SEAM_RNG_FN double cos_poly(double x2) {
  double p = 0x1.ae7f3e733b81fp-45;        // 1/16!
  p = fma(p, x2, -0x1.93974a8c07c9dp-37);  // 1/14!
  p = fma(p, x2, 0x1.1eed8eff8d898p-29);   // 1/12!
  p = fma(p, x2, -0x1.27e4fb7789f5cp-22);  // 1/10!
  p = fma(p, x2, 0x1.a01a01a01a01ap-16);   // 1/8!
  p = fma(p, x2, -0x1.6c16c16c16c17p-10);  // 1/6!
  p = fma(p, x2, 0x1.5555555555555p-5);    // 1/4!
  p = fma(p, x2, -0.5);                    // 1/2!
  return fma(p, x2, 1.0);
}
SEAM_RNG_FN double sin_poly(double x2) {
  double p = 0x1.952c77030ad4ap-49;        // 1/17!
  p = fma(p, x2, -0x1.ae7f3e733b81fp-41);  // 1/15!
  p = fma(p, x2, 0x1.6124613a86d09p-33);   // 1/13!
  p = fma(p, x2, -0x1.ae64567f544e4p-26);  // 1/11!
  p = fma(p, x2, 0x1.71de3a556c734p-19);   // 1/9!
  p = fma(p, x2, -0x1.a01a01a01a01ap-13);  // 1/7!
  p = fma(p, x2, 0x1.1111111111111p-7);    // 1/5!
  p = fma(p, x2, -0x1.5555555555555p-3);   // 1/3!
  return fma(p, x2, 1.0);
}

// cos(2 pi t) for 0 <= t < 1: 2 pi t = (pi/2) (q + r) with the quadrant q and r in [0, 1) exact; then
// r folded into [0, 1/2] (cos(pi/2 r) = sin(pi/2 (1 - r))), so the polynomials see x <= pi/4.
SEAM_RNG_FN double cos_two_pi(double t) {
  const double q4 = t * 4.0;  // exact
  const double quadrant = floor(q4);
  const double r = q4 - quadrant;  // exact
  const bool folded = r > 0.5;
  const double x = (folded ? 1.0 - r : r) * 0x1.921fb54442d18p+0;  // pi/2
  const double x2 = x * x;
  const double c = cos_poly(x2), s = x * sin_poly(x2);
  const double cos_r = folded ? s : c;  // cos(pi/2 r)
  const double sin_r = folded ? c : s;  // sin(pi/2 r)
  switch (static_cast<int>(quadrant)) {
    case 0: return cos_r;
    case 1: return -sin_r;
    case 2: return -cos_r;
    default: return sin_r;
  }
}

// Box-Muller, in double for every dtype: u1 in (0, 1] from words 0 and 1, u2 in [0, 1) from words 2 and 3,
// mean + std * sqrt(-2 log u1) cos(2 pi u2) rounded once.
SEAM_RNG_FN double normal(const Words4& r, double mean, double std) {
  const unsigned long long bits = (static_cast<unsigned long long>(r.w[0]) << 32) | r.w[1];
  const double u1 = static_cast<double>((bits >> 11) + 1) * 0x1p-53;
  const double u2 = unit_double(r.w[2], r.w[3]);
  const double radius = sqrt(-2.0 * log_unit(u1));
  return fma(std, radius * cos_two_pi(u2), mean);
}

}  // namespace rng
}  // namespace seam
