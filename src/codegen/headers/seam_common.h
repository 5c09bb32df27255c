// Helpers shared by generated kernels on the GPU (NVRTC) and on the host (the host C++ backend).
// SEAM_FN is `__device__ __forceinline__` on the GPU and `inline` on the host, so the same kernel body
// compiles on both. Every pointwise op of the op table has a function seam_<keyword> here, operating in
// the op's compute type (float for f16/bf16 operands, which the generated code converts first).
// Semantics follow docs/IR.md and the reference interpreter.
#pragma once

#include "support/float8.h"
#include "support/philox.h"

// Storage types of the half-precision dtypes: raw bits, converted explicitly.
struct seam_bf16 {
  unsigned short bits;
};
struct seam_f16 {
  unsigned short bits;
};
typedef long long seam_i64;
// The f8 storage dtypes (support/float8.h): raw bits, converted in software as PyTorch converts them
// (Hopper's cvt to f8 saturates; torch's cast gives NaN or infinity instead).
struct seam_f8e4m3fn {
  unsigned char bits;
};
struct seam_f8e5m2 {
  unsigned char bits;
};

// The lanes l of N with lo <= index + l < hi as a bit mask (kir::Expr::Kind::LaneMask, N <= 16): the lanes of
// a masked pad piece or a ragged row's chunk that read and write memory.
template <int N>
SEAM_FN unsigned seam_lane_mask(long long index, long long lo, long long hi) {
  const long long first = lo - index, end = hi - index;  // the lanes inside: [first, end)
  const unsigned below_end = end <= 0 ? 0u : end >= N ? (1u << N) - 1u : (1u << end) - 1u;
  const unsigned below_first = first <= 0 ? 0u : first >= N ? (1u << N) - 1u : (1u << first) - 1u;
  return below_end & ~below_first;
}

// ---- conversions -----------------------------------------------------------------------------------
SEAM_FN float seam_bf16_to_float(seam_bf16 x) { return seam_bits_to_float(((unsigned int)x.bits) << 16); }
SEAM_FN float seam_f16_to_float(seam_f16 x) { return seam_f16_bits_to_float(x.bits); }
#if defined(__CUDACC__)
SEAM_FN unsigned int seam_f32_bits(float x) { return __float_as_uint(x); }
#else
SEAM_FN unsigned int seam_f32_bits(float x) {
  unsigned int bits;
  memcpy(&bits, &x, sizeof bits);
  return bits;
}
#endif
SEAM_FN float seam_f8e4m3fn_to_float(seam_f8e4m3fn x) {
  return seam_bits_to_float(seam::f8::e4m3fn_to_f32_bits(x.bits));
}
SEAM_FN float seam_f8e5m2_to_float(seam_f8e5m2 x) {
  return seam_bits_to_float(seam::f8::e5m2_to_f32_bits(x.bits));
}

template <class To>
struct seam_converter;

// From every storage type to float/double/ints/bool and back. Conversions to half types round to nearest
// even; float to integer truncates toward zero, NaN gives 0 and out-of-range values saturate.
template <>
struct seam_converter<float> {
  SEAM_FN static float from(float x) { return x; }
  SEAM_FN static float from(double x) { return (float)x; }
  SEAM_FN static float from(seam_bf16 x) { return seam_bf16_to_float(x); }
  SEAM_FN static float from(seam_f16 x) { return seam_f16_to_float(x); }
  SEAM_FN static float from(seam_f8e4m3fn x) { return from(seam_f8e4m3fn_to_float(x)); }
  SEAM_FN static float from(seam_f8e5m2 x) { return from(seam_f8e5m2_to_float(x)); }
  SEAM_FN static float from(int x) { return (float)x; }
  SEAM_FN static float from(seam_i64 x) { return (float)x; }
  SEAM_FN static float from(bool x) { return x ? 1.0f : 0.0f; }
};
template <>
struct seam_converter<double> {
  SEAM_FN static double from(float x) { return x; }
  SEAM_FN static double from(double x) { return x; }
  SEAM_FN static double from(seam_bf16 x) { return seam_bf16_to_float(x); }
  SEAM_FN static double from(seam_f16 x) { return seam_f16_to_float(x); }
  SEAM_FN static double from(seam_f8e4m3fn x) { return from(seam_f8e4m3fn_to_float(x)); }
  SEAM_FN static double from(seam_f8e5m2 x) { return from(seam_f8e5m2_to_float(x)); }
  SEAM_FN static double from(int x) { return x; }
  SEAM_FN static double from(seam_i64 x) { return (double)x; }
  SEAM_FN static double from(bool x) { return x ? 1.0 : 0.0; }
};
template <>
struct seam_converter<seam_bf16> {
  SEAM_FN static seam_bf16 from(float x) { return seam_bf16{seam_float_to_bf16_bits(x)}; }
  SEAM_FN static seam_bf16 from(double x) { return seam_bf16{seam_double_to_bf16_bits(x)}; }
  SEAM_FN static seam_bf16 from(seam_bf16 x) { return x; }
  SEAM_FN static seam_bf16 from(seam_f16 x) { return from(seam_f16_to_float(x)); }
  SEAM_FN static seam_bf16 from(seam_f8e4m3fn x) { return from(seam_f8e4m3fn_to_float(x)); }
  SEAM_FN static seam_bf16 from(seam_f8e5m2 x) { return from(seam_f8e5m2_to_float(x)); }
  SEAM_FN static seam_bf16 from(int x) { return from((double)x); }
  SEAM_FN static seam_bf16 from(seam_i64 x) { return from((double)x); }
  SEAM_FN static seam_bf16 from(bool x) { return from(x ? 1.0f : 0.0f); }
};
template <>
struct seam_converter<seam_f16> {
  SEAM_FN static seam_f16 from(float x) { return seam_f16{seam_float_to_f16_bits(x)}; }
  SEAM_FN static seam_f16 from(double x) { return seam_f16{seam_double_to_f16_bits(x)}; }
  SEAM_FN static seam_f16 from(seam_bf16 x) { return from(seam_bf16_to_float(x)); }
  SEAM_FN static seam_f16 from(seam_f16 x) { return x; }
  SEAM_FN static seam_f16 from(seam_f8e4m3fn x) { return from(seam_f8e4m3fn_to_float(x)); }
  SEAM_FN static seam_f16 from(seam_f8e5m2 x) { return from(seam_f8e5m2_to_float(x)); }
  SEAM_FN static seam_f16 from(int x) { return from((double)x); }
  SEAM_FN static seam_f16 from(seam_i64 x) { return from((double)x); }
  SEAM_FN static seam_f16 from(bool x) { return from(x ? 1.0f : 0.0f); }
};

template <class Int>
SEAM_FN Int seam_float_to_int(double x, double lo, double hi) {
  if (x != x) return 0;
  if (x <= lo) return (Int)lo;
  if (x >= hi) return (Int)hi;
  return (Int)x;
}
template <>
struct seam_converter<int> {
  SEAM_FN static int from(float x) { return seam_float_to_int<int>(x, -2147483648.0, 2147483647.0); }
  SEAM_FN static int from(double x) { return seam_float_to_int<int>(x, -2147483648.0, 2147483647.0); }
  SEAM_FN static int from(seam_bf16 x) { return from(seam_bf16_to_float(x)); }
  SEAM_FN static int from(seam_f16 x) { return from(seam_f16_to_float(x)); }
  SEAM_FN static int from(seam_f8e4m3fn x) { return from(seam_f8e4m3fn_to_float(x)); }
  SEAM_FN static int from(seam_f8e5m2 x) { return from(seam_f8e5m2_to_float(x)); }
  SEAM_FN static int from(int x) { return x; }
  SEAM_FN static int from(seam_i64 x) { return (int)(unsigned int)(unsigned long long)x; }
  SEAM_FN static int from(bool x) { return x ? 1 : 0; }
};
template <>
struct seam_converter<seam_i64> {
  // 2^63 is exactly representable; values at or beyond it saturate.
  SEAM_FN static seam_i64 from(double x) {
    if (x != x) return 0;
    if (x >= 9223372036854775808.0) return 9223372036854775807LL;
    if (x <= -9223372036854775808.0) return (-9223372036854775807LL - 1);
    return (seam_i64)x;
  }
  SEAM_FN static seam_i64 from(float x) { return from((double)x); }
  SEAM_FN static seam_i64 from(seam_bf16 x) { return from((double)seam_bf16_to_float(x)); }
  SEAM_FN static seam_i64 from(seam_f16 x) { return from((double)seam_f16_to_float(x)); }
  SEAM_FN static seam_i64 from(seam_f8e4m3fn x) { return from(seam_f8e4m3fn_to_float(x)); }
  SEAM_FN static seam_i64 from(seam_f8e5m2 x) { return from(seam_f8e5m2_to_float(x)); }
  SEAM_FN static seam_i64 from(int x) { return x; }
  SEAM_FN static seam_i64 from(seam_i64 x) { return x; }
  SEAM_FN static seam_i64 from(bool x) { return x ? 1 : 0; }
};
template <>
struct seam_converter<bool> {
  SEAM_FN static bool from(float x) { return x != 0.0f; }  // NaN != 0: true
  SEAM_FN static bool from(double x) { return x != 0.0; }
  SEAM_FN static bool from(seam_bf16 x) { return (x.bits & 0x7fff) != 0; }
  SEAM_FN static bool from(seam_f16 x) { return (x.bits & 0x7fff) != 0; }
  SEAM_FN static bool from(seam_f8e4m3fn x) { return from(seam_f8e4m3fn_to_float(x)); }
  SEAM_FN static bool from(seam_f8e5m2 x) { return from(seam_f8e5m2_to_float(x)); }
  SEAM_FN static bool from(int x) { return x != 0; }
  SEAM_FN static bool from(seam_i64 x) { return x != 0; }
  SEAM_FN static bool from(bool x) { return x; }
};

// To the f8 dtypes: through f32 (PyTorch's c10 types construct from float only), rounded to nearest even.
template <>
struct seam_converter<seam_f8e4m3fn> {
  SEAM_FN static seam_f8e4m3fn from(float x) {
    return seam_f8e4m3fn{seam::f8::e4m3fn_from_f32_bits(seam_f32_bits(x))};
  }
  SEAM_FN static seam_f8e4m3fn from(double x) { return from((float)x); }
  SEAM_FN static seam_f8e4m3fn from(seam_bf16 x) { return from(seam_bf16_to_float(x)); }
  SEAM_FN static seam_f8e4m3fn from(seam_f16 x) { return from(seam_f16_to_float(x)); }
  SEAM_FN static seam_f8e4m3fn from(seam_f8e4m3fn x) { return x; }
  SEAM_FN static seam_f8e4m3fn from(seam_f8e5m2 x) { return from(seam_f8e5m2_to_float(x)); }
  SEAM_FN static seam_f8e4m3fn from(int x) { return from((float)x); }
  SEAM_FN static seam_f8e4m3fn from(seam_i64 x) { return from((float)x); }
  SEAM_FN static seam_f8e4m3fn from(bool x) { return from(x ? 1.0f : 0.0f); }
};
template <>
struct seam_converter<seam_f8e5m2> {
  SEAM_FN static seam_f8e5m2 from(float x) {
    return seam_f8e5m2{seam::f8::e5m2_from_f32_bits(seam_f32_bits(x))};
  }
  SEAM_FN static seam_f8e5m2 from(double x) { return from((float)x); }
  SEAM_FN static seam_f8e5m2 from(seam_bf16 x) { return from(seam_bf16_to_float(x)); }
  SEAM_FN static seam_f8e5m2 from(seam_f16 x) { return from(seam_f16_to_float(x)); }
  SEAM_FN static seam_f8e5m2 from(seam_f8e4m3fn x) { return from(seam_f8e4m3fn_to_float(x)); }
  SEAM_FN static seam_f8e5m2 from(seam_f8e5m2 x) { return x; }
  SEAM_FN static seam_f8e5m2 from(int x) { return from((float)x); }
  SEAM_FN static seam_f8e5m2 from(seam_i64 x) { return from((float)x); }
  SEAM_FN static seam_f8e5m2 from(bool x) { return from(x ? 1.0f : 0.0f); }
};

template <class To, class From>
SEAM_FN To seam_convert(From x) {
  return seam_converter<To>::from(x);
}

// ---- pointwise math, named after the op table's keywords ----------------------------------------------
SEAM_FN float seam_neg(float a) { return -a; }
SEAM_FN double seam_neg(double a) { return -a; }
SEAM_FN int seam_neg(int a) { return (int)(0u - (unsigned int)a); }
SEAM_FN seam_i64 seam_neg(seam_i64 a) { return (seam_i64)(0ull - (unsigned long long)a); }
SEAM_FN float seam_abs(float a) { return fabsf(a); }
SEAM_FN double seam_abs(double a) { return fabs(a); }
SEAM_FN int seam_abs(int a) { return a < 0 ? seam_neg(a) : a; }
SEAM_FN seam_i64 seam_abs(seam_i64 a) { return a < 0 ? seam_neg(a) : a; }
SEAM_FN float seam_exp(float a) { return expf(a); }
SEAM_FN double seam_exp(double a) { return exp(a); }
SEAM_FN float seam_log(float a) { return logf(a); }
SEAM_FN double seam_log(double a) { return log(a); }
SEAM_FN float seam_sqrt(float a) { return sqrtf(a); }
SEAM_FN double seam_sqrt(double a) { return sqrt(a); }
SEAM_FN float seam_rsqrt(float a) { return 1.0f / sqrtf(a); }
SEAM_FN double seam_rsqrt(double a) { return 1.0 / sqrt(a); }
SEAM_FN float seam_reciprocal(float a) { return 1.0f / a; }
SEAM_FN double seam_reciprocal(double a) { return 1.0 / a; }
SEAM_FN float seam_sin(float a) { return sinf(a); }
SEAM_FN double seam_sin(double a) { return sin(a); }
SEAM_FN float seam_cos(float a) { return cosf(a); }
SEAM_FN double seam_cos(double a) { return cos(a); }
SEAM_FN float seam_tanh(float a) { return tanhf(a); }
SEAM_FN double seam_tanh(double a) { return tanh(a); }
SEAM_FN float seam_sigmoid(float a) { return 1.0f / (1.0f + expf(-a)); }
SEAM_FN double seam_sigmoid(double a) { return 1.0 / (1.0 + exp(-a)); }
SEAM_FN float seam_erf(float a) { return erff(a); }
SEAM_FN double seam_erf(double a) { return erf(a); }
SEAM_FN bool seam_logical_not(bool a) { return !a; }
// The f32 forms of these run in f32 on the GPU; on the host in f64, rounded once, as the interpreter does:
// some inputs are ill-conditioned (frac or remainder of a large sinh), where an ulp apart is far apart.
#ifdef __CUDA_ARCH__
#define SEAM_F32_MATH(fn, a) fn##f(a)
#else
#define SEAM_F32_MATH(fn, a) (float)fn((double)(a))
#endif
SEAM_FN float seam_acos(float a) { return SEAM_F32_MATH(acos, a); }
SEAM_FN double seam_acos(double a) { return acos(a); }
SEAM_FN float seam_acosh(float a) { return SEAM_F32_MATH(acosh, a); }
SEAM_FN double seam_acosh(double a) { return acosh(a); }
SEAM_FN float seam_asin(float a) { return SEAM_F32_MATH(asin, a); }
SEAM_FN double seam_asin(double a) { return asin(a); }
SEAM_FN float seam_asinh(float a) { return SEAM_F32_MATH(asinh, a); }
SEAM_FN double seam_asinh(double a) { return asinh(a); }
SEAM_FN float seam_atan(float a) { return SEAM_F32_MATH(atan, a); }
SEAM_FN double seam_atan(double a) { return atan(a); }
SEAM_FN float seam_atanh(float a) { return SEAM_F32_MATH(atanh, a); }
SEAM_FN double seam_atanh(double a) { return atanh(a); }
SEAM_FN float seam_cosh(float a) { return SEAM_F32_MATH(cosh, a); }
SEAM_FN double seam_cosh(double a) { return cosh(a); }
SEAM_FN float seam_sinh(float a) { return SEAM_F32_MATH(sinh, a); }
SEAM_FN double seam_sinh(double a) { return sinh(a); }
SEAM_FN float seam_exp2(float a) { return SEAM_F32_MATH(exp2, a); }
SEAM_FN double seam_exp2(double a) { return exp2(a); }
SEAM_FN float seam_expm1(float a) { return SEAM_F32_MATH(expm1, a); }
SEAM_FN double seam_expm1(double a) { return expm1(a); }
SEAM_FN float seam_log1p(float a) { return SEAM_F32_MATH(log1p, a); }
SEAM_FN double seam_log1p(double a) { return log1p(a); }
SEAM_FN float seam_erfc(float a) { return SEAM_F32_MATH(erfc, a); }
SEAM_FN double seam_erfc(double a) { return erfc(a); }
// seam_erfinv and seam_erfcinv are per backend (CUDA has them, the host has support/erfinv.h).
SEAM_FN float seam_lgamma(float a) { return SEAM_F32_MATH(lgamma, a); }
SEAM_FN double seam_lgamma(double a) { return lgamma(a); }
// Rounding keeps integers as they are (torch.ceil etc. on integer tensors); round is half to even.
SEAM_FN float seam_ceil(float a) { return ceilf(a); }
SEAM_FN double seam_ceil(double a) { return ceil(a); }
SEAM_FN float seam_floor(float a) { return floorf(a); }
SEAM_FN double seam_floor(double a) { return floor(a); }
SEAM_FN float seam_trunc(float a) { return truncf(a); }
SEAM_FN double seam_trunc(double a) { return trunc(a); }
SEAM_FN float seam_round(float a) { return nearbyintf(a); }
SEAM_FN double seam_round(double a) { return nearbyint(a); }
template <class Int>
SEAM_FN Int seam_ceil(Int a) {
  return a;
}
template <class Int>
SEAM_FN Int seam_floor(Int a) {
  return a;
}
template <class Int>
SEAM_FN Int seam_trunc(Int a) {
  return a;
}
template <class Int>
SEAM_FN Int seam_round(Int a) {
  return a;
}
SEAM_FN float seam_frac(float a) { return a - truncf(a); }
SEAM_FN double seam_frac(double a) { return a - trunc(a); }
// The sign bit, also of -0 and NaN.
SEAM_FN bool seam_signbit(float a) { return copysignf(1.0f, a) < 0.0f; }
SEAM_FN bool seam_signbit(double a) { return copysign(1.0, a) < 0.0; }
SEAM_FN bool seam_signbit(int a) { return a < 0; }
SEAM_FN bool seam_signbit(seam_i64 a) { return a < 0; }
SEAM_FN bool seam_signbit(bool) { return false; }

template <class T>
SEAM_FN T seam_add(T a, T b) {
  return a + b;
}
template <class T>
SEAM_FN T seam_sub(T a, T b) {
  return a - b;
}
template <class T>
SEAM_FN T seam_mul(T a, T b) {
  return a * b;
}
// Integer add/sub/mul wrap (two's complement), computed unsigned to avoid undefined behaviour.
SEAM_FN int seam_add(int a, int b) { return (int)((unsigned int)a + (unsigned int)b); }
SEAM_FN int seam_sub(int a, int b) { return (int)((unsigned int)a - (unsigned int)b); }
SEAM_FN int seam_mul(int a, int b) { return (int)((unsigned int)a * (unsigned int)b); }
SEAM_FN seam_i64 seam_add(seam_i64 a, seam_i64 b) {
  return (seam_i64)((unsigned long long)a + (unsigned long long)b);
}
SEAM_FN seam_i64 seam_sub(seam_i64 a, seam_i64 b) {
  return (seam_i64)((unsigned long long)a - (unsigned long long)b);
}
SEAM_FN seam_i64 seam_mul(seam_i64 a, seam_i64 b) {
  return (seam_i64)((unsigned long long)a * (unsigned long long)b);
}
SEAM_FN float seam_div(float a, float b) { return a / b; }
SEAM_FN double seam_div(double a, double b) { return a / b; }
SEAM_FN float seam_pow(float a, float b) { return powf(a, b); }
SEAM_FN double seam_pow(double a, double b) { return pow(a, b); }
template <class Int>
SEAM_FN Int seam_int_pow(Int base, Int exponent) {
  if (exponent < 0) {
    if (base == 1) return 1;
    if (base == -1) return (exponent % 2 == 0) ? 1 : -1;
    return 0;
  }
  Int result = 1;
  while (exponent > 0) {
    if (exponent & 1) result = seam_mul(result, base);
    base = seam_mul(base, base);
    exponent >>= 1;
  }
  return result;
}
SEAM_FN int seam_pow(int a, int b) { return seam_int_pow<int>(a, b); }
SEAM_FN seam_i64 seam_pow(seam_i64 a, seam_i64 b) { return seam_int_pow<seam_i64>(a, b); }
// NaN-propagating, like torch.maximum/minimum.
template <class T>
SEAM_FN T seam_maximum(T a, T b) {
  return (a != a) ? a : ((b != b) ? b : (a > b ? a : b));
}
template <class T>
SEAM_FN T seam_minimum(T a, T b) {
  return (a != a) ? a : ((b != b) ? b : (a < b ? a : b));
}
// A step of a running maximum or minimum (cummax, cummin), as torch's CPU kernels take it: the later
// element wins a tie (+0 then -0 keeps -0 for cummax), and a NaN, once seen, stays (a later NaN replaces
// it). The step is associative, so the scan kernels' trees give a walk in order's bits.
template <class T>
SEAM_FN T seam_cummax_step(T earlier, T later) {
  return (later != later || (earlier == earlier && later >= earlier)) ? later : earlier;
}
template <class T>
SEAM_FN T seam_cummin_step(T earlier, T later) {
  return (later != later || (earlier == earlier && later <= earlier)) ? later : earlier;
}
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
// One instruction instead of three comparisons and two selects: max/min that return NaN when either
// operand is NaN (sm_80 and later), what the generic form computes. Row maxima (softmax,
// cross-entropy) run one per element.
template <>
SEAM_FN float seam_maximum<float>(float a, float b) {
  float r;
  asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  return r;
}
template <>
SEAM_FN float seam_minimum<float>(float a, float b) {
  float r;
  asm("min.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  return r;
}
#endif
template <class T>
SEAM_FN bool seam_eq(T a, T b) {
  return a == b;
}
template <class T>
SEAM_FN bool seam_ne(T a, T b) {
  return a != b;
}
template <class T>
SEAM_FN bool seam_lt(T a, T b) {
  return a < b;
}
template <class T>
SEAM_FN bool seam_le(T a, T b) {
  return a <= b;
}
template <class T>
SEAM_FN bool seam_gt(T a, T b) {
  return a > b;
}
template <class T>
SEAM_FN bool seam_ge(T a, T b) {
  return a >= b;
}
SEAM_FN bool seam_logical_and(bool a, bool b) { return a && b; }
SEAM_FN bool seam_logical_or(bool a, bool b) { return a || b; }

// fmod: the remainder has the dividend's sign; remainder: the divisor's (Python's %). Integer division
// by zero gives 0, and x % -1 is computed as 0 (INT_MIN % -1 overflows).
SEAM_FN float seam_fmod(float a, float b) { return fmodf(a, b); }
SEAM_FN double seam_fmod(double a, double b) { return fmod(a, b); }
template <class Int>
SEAM_FN Int seam_fmod(Int a, Int b) {
  return (b == 0 || b == -1) ? 0 : a % b;
}
template <class T>
SEAM_FN T seam_remainder(T a, T b) {
  const T m = seam_fmod(a, b);
  return (m != 0 && ((b < 0) != (m < 0))) ? m + b : m;
}
#ifdef __CUDA_ARCH__
SEAM_FN float seam_atan2(float a, float b) { return atan2f(a, b); }
#else
SEAM_FN float seam_atan2(float a, float b) { return (float)atan2((double)a, (double)b); }
#endif
SEAM_FN double seam_atan2(double a, double b) { return atan2(a, b); }
SEAM_FN float seam_nextafter(float a, float b) { return nextafterf(a, b); }
SEAM_FN double seam_nextafter(double a, double b) { return nextafter(a, b); }

// Shifts read the amount as unsigned; an amount of the width or more shifts every bit out (0, or the
// sign for the arithmetic right shift). Unsigned arithmetic avoids C++'s undefined cases.
template <class Int>
struct seam_unsigned;
template <>
struct seam_unsigned<int> {
  typedef unsigned int type;
};
template <>
struct seam_unsigned<seam_i64> {
  typedef unsigned long long type;
};
template <class Int>
SEAM_FN Int seam_bitwise_left_shift(Int a, Int b) {
  typedef typename seam_unsigned<Int>::type U;
  return (U)b >= sizeof(Int) * 8 ? 0 : (Int)((U)a << (U)b);
}
template <class Int>
SEAM_FN Int seam_bitwise_right_shift(Int a, Int b) {
  typedef typename seam_unsigned<Int>::type U;
  return (U)b >= sizeof(Int) * 8 ? (a < 0 ? -1 : 0) : (Int)(a >> (U)b);
}
template <class Int>
SEAM_FN Int seam_logical_right_shift(Int a, Int b) {
  typedef typename seam_unsigned<Int>::type U;
  return (U)b >= sizeof(Int) * 8 ? 0 : (Int)((U)a >> (U)b);
}
template <class Int>
SEAM_FN Int seam_bitwise_not(Int a) {
  return ~a;
}
template <class Int>
SEAM_FN Int seam_bitwise_and(Int a, Int b) {
  return a & b;
}
template <class Int>
SEAM_FN Int seam_bitwise_or(Int a, Int b) {
  return a | b;
}
template <class Int>
SEAM_FN Int seam_bitwise_xor(Int a, Int b) {
  return a ^ b;
}
// torch.gcd: Euclid on wrapped absolute values (the most negative value stays itself).
template <class Int>
SEAM_FN Int seam_gcd(Int a, Int b) {
  a = seam_abs(a);
  b = seam_abs(b);
  while (a != 0) {
    const Int c = a;
    a = a == -1 ? 0 : b % a;
    b = c;
  }
  return b;
}

// trunc_div: integer division toward zero (C's /); by zero gives -1 (every bit set, the GPU's own result,
// spelled out so that the host agrees) and x / -1 is the wrapping negation (INT_MIN / -1 traps on the
// host and is undefined on the GPU).
template <class Int>
SEAM_FN Int seam_trunc_div(Int a, Int b) {
  typedef typename seam_unsigned<Int>::type U;
  return b == 0 ? -1 : b == -1 ? (Int)((U)0 - (U)a) : a / b;
}

// ---- random numbers (docs/RANDOM.md) ------------------------------------------------------------------
// Element `index` of uniform/normal with (seed, offset), as the storage type T. The words and the float
// math come from support/philox.h, shared with the interpreter; only the rounding to T happens here.
template <class T>
struct seam_random_compute {
  typedef float type;  // f16, bf16 and f32 draw in float
};
template <>
struct seam_random_compute<double> {
  typedef double type;
};
template <class T>
SEAM_FN T seam_uniform(seam_i64 seed, seam_i64 offset, seam_i64 index, T lo, T hi) {
  typedef typename seam_random_compute<T>::type C;
  const seam::rng::Words4 r = seam::rng::element_words((unsigned long long)seed, (unsigned long long)offset,
                                                       (unsigned long long)index);
  const C lo_c = seam_convert<C>(lo), hi_c = seam_convert<C>(hi);
  const T out = seam_convert<T>(seam::rng::uniform(r, lo_c, hi_c));
  return seam_convert<C>(out) == hi_c ? lo : out;  // [lo, hi): a value rounded up to hi is lo
}
template <class T>
SEAM_FN T seam_normal(seam_i64 seed, seam_i64 offset, seam_i64 index, double mean, double std) {
  const seam::rng::Words4 r = seam::rng::element_words((unsigned long long)seed, (unsigned long long)offset,
                                                       (unsigned long long)index);
  return seam_convert<T>(seam::rng::normal(r, mean, std));
}

// The lanes of a guarded load whose guard does not hold: zero, never selected (kept defined so that the
// arithmetic that runs on them is well-defined).
template <int N, class T>
SEAM_FN void seam_zero(T* dst) {
#pragma unroll
  for (int l = 0; l < N; ++l) dst[l] = T();
}

// ---- peeled row loops (kir::RowLaunch::peel) ----------------------------------------------------------
// The lanes l of an N-lane vector whose element first + l lies inside a row of `reduced` elements, as
// bits (bit l: lane l).
template <int N>
SEAM_FN unsigned seam_row_lanes(long long first, long long reduced) {
  static_assert(N > 0 && N < 32, "a vector of at most 16 lanes");
  const long long lo = first < 0 ? -first : 0, hi = reduced - first < N ? reduced - first : N;
  if (hi <= lo) return 0u;
  return ((1u << hi) - 1u) & ~((1u << lo) - 1u);
}

// ---- indexing ----------------------------------------------------------------------------------------
// The position an indexing op reads along an axis of extent n: index i in [-n, n), wrapped once (i < 0:
// i + n). Any other index reads position 0 (never out of bounds: n > 0 wherever an element is computed)
// and, when `active` (the lane's value is used), is recorded in `error` for the runtime to report after
// the launch: {op + 1, index, n, axis}, the first one written (seam_record_index_error, per backend).
template <class T>
SEAM_FN seam_i64 seam_checked_index(T i, seam_i64 extent, bool active, seam_i64* error, int op, int axis) {
  const seam_i64 position = (seam_i64)i < 0 ? (seam_i64)i + extent : (seam_i64)i;
  if (position >= 0 && position < extent) return position;
  if (active) seam_record_index_error(error, op, (seam_i64)i, extent, axis);
  return 0;
}

// The position a scatter writes along an axis of extent n: index i in [-n, n), wrapped once. Any other
// index is recorded as seam_checked_index records it and gives -1: the write is skipped.
template <class T>
SEAM_FN seam_i64 seam_scatter_position(T i, seam_i64 extent, seam_i64* error, int op, int axis) {
  const seam_i64 position = (seam_i64)i < 0 ? (seam_i64)i + extent : (seam_i64)i;
  if (position >= 0 && position < extent) return position;
  seam_record_index_error(error, op, (seam_i64)i, extent, axis);
  return -1;
}

// ---- online max and sum (softmax, log-sum-exp, cross-entropy) -----------------------------------------
// A part of a row as the pair (m, s): its max m and the sum of exp(x - m) over it. Two parts combine into
// (M, s1 * exp(m1 - M) + s2 * exp(m2 - M)) with M = max(m1, m2); a part of -inf values is (-inf, 0), and
// the shift is 0 where M is -inf so that it stays (-inf, 0) rather than NaN. Approx: the backend's
// approximate exp (where the lowering allows it for the exp it replaces).
SEAM_FN float seam_exp_approx(float a);
template <bool Approx>
SEAM_FN float seam_online_exp(float a) {
  if constexpr (Approx)
    return seam_exp_approx(a);
  else
    return seam_exp(a);
}
template <bool Approx>
SEAM_FN void seam_online_combine(float& m, float& s, float m2, float s2) {
  const float top = seam_maximum(m, m2);
  const float shift = top < -3.40282347e38f ? 0.0f : top;  // -inf: below the lowest finite float
  s = s * seam_online_exp<Approx>(m - shift) + s2 * seam_online_exp<Approx>(m2 - shift);
  m = top;
}

// ---- divisions by a kernel argument ----------------------------------------------------------------
// A divisor that arrives as a kernel argument (codegen/kernel_constants.h): q = (umulhi(n, m) + n) >> s,
// exact for numerators in [0, 2^31) with a 32-bit index type and [0, 2^63) with a 64-bit one. Only
// printed where the index algebra proves the numerator non-negative.
struct seam_divisor {
  long long d;
  unsigned long long m;
  unsigned long long s;
};
SEAM_FN unsigned int seam_umulhi32(unsigned int a, unsigned int b) {
#ifdef __CUDA_ARCH__
  return __umulhi(a, b);
#else
  return (unsigned int)(((unsigned long long)a * b) >> 32);
#endif
}
SEAM_FN unsigned long long seam_umulhi64(unsigned long long a, unsigned long long b) {
#ifdef __CUDA_ARCH__
  return __umul64hi(a, b);
#else
  return (unsigned long long)(((unsigned __int128)a * b) >> 64);
#endif
}
SEAM_FN int seam_fast_div(int n, const seam_divisor& d) {
  const unsigned int u = (unsigned int)n;
  return (int)((seam_umulhi32(u, (unsigned int)d.m) + u) >> (unsigned int)d.s);
}
SEAM_FN long long seam_fast_div(long long n, const seam_divisor& d) {
  const unsigned long long u = (unsigned long long)n;
  return (long long)((seam_umulhi64(u, d.m) + u) >> (unsigned int)d.s);
}
SEAM_FN int seam_fast_mod(int n, const seam_divisor& d) { return n - seam_fast_div(n, d) * (int)d.d; }
SEAM_FN long long seam_fast_mod(long long n, const seam_divisor& d) { return n - seam_fast_div(n, d) * d.d; }
