// The device side of generated kernels (compiled by NVRTC): qualifiers, bit casts, half-precision
// conversions with the GPU's own round-to-nearest-even instructions, wide loads and stores, then the
// helpers shared with the host backend.
#pragma once

#define SEAM_FN __device__ __forceinline__
#define SEAM_KERNEL extern "C" __global__

SEAM_FN float seam_bits_to_float(unsigned int bits) { return __uint_as_float(bits); }
SEAM_FN float seam_f16_bits_to_float(unsigned short bits) {
  float out;
  asm("cvt.f32.f16 %0, %1;" : "=f"(out) : "h"(bits));
  return out;
}
SEAM_FN unsigned short seam_float_to_bf16_bits(float x) {
  unsigned short out;
  asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(out) : "f"(x));
  return out;
}
SEAM_FN unsigned short seam_float_to_f16_bits(float x) {
  unsigned short out;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(out) : "f"(x));
  return out;
}
SEAM_FN unsigned short seam_double_to_bf16_bits(double x) {
  unsigned short out;
  asm("cvt.rn.bf16.f64 %0, %1;" : "=h"(out) : "d"(x));
  return out;
}
SEAM_FN unsigned short seam_double_to_f16_bits(double x) {
  unsigned short out;
  asm("cvt.rn.f16.f64 %0, %1;" : "=h"(out) : "d"(x));
  return out;
}

SEAM_FN double seam_double_from_bits(unsigned long long bits) { return __longlong_as_double((long long)bits); }

#include "seam_common.h"

// N consecutive elements in one access where N * sizeof(T) is 4, 8 or 16 bytes. The generated code
// asks for N > 1 only where it proved the address aligned to N elements; arrays are declared alignas(16).
template <int Bytes>
struct seam_wide;
template <>
struct seam_wide<4> { typedef unsigned int type; };
template <>
struct seam_wide<8> { typedef uint2 type; };
template <>
struct seam_wide<16> { typedef uint4 type; };

template <int N, class T>
SEAM_FN void seam_load(const T* __restrict__ src, T* dst) {
  if constexpr (N * sizeof(T) == 4 || N * sizeof(T) == 8 || N * sizeof(T) == 16) {
    typedef typename seam_wide<(int)(N * sizeof(T))>::type V;
    *reinterpret_cast<V*>(dst) = __ldg(reinterpret_cast<const V*>(src));
  } else {
#pragma unroll
    for (int l = 0; l < N; ++l) dst[l] = src[l];
  }
}

template <int N, class T>
SEAM_FN void seam_store(T* __restrict__ dst, const T* src) {
  if constexpr (N * sizeof(T) == 4 || N * sizeof(T) == 8 || N * sizeof(T) == 16) {
    typedef typename seam_wide<(int)(N * sizeof(T))>::type V;
    *reinterpret_cast<V*>(dst) = *reinterpret_cast<const V*>(src);
  } else {
#pragma unroll
    for (int l = 0; l < N; ++l) dst[l] = src[l];
  }
}
