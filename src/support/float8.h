// The 8-bit floating storage dtypes f8e4m3fn and f8e5m2 (docs/IR.md, "Dtypes"), one definition for the
// reference interpreter, the host backend's generated C++ and the GPU's NVRTC kernels, on f32 bit patterns
// (callers convert f32 <-> bits their own way). Conversions follow PyTorch's (c10's Float8 types):
// - to f8 from an f32 value, round to nearest even; other dtypes go through f32 first (as c10 does, so a
//   double is rounded twice);
// - f8e4m3fn (bias 7, 3 mantissa bits, no infinity, NaN = S.1111.111, largest finite 448): a magnitude
//   that rounds past 448 (> 464), an infinity or a NaN gives NaN; torch's cast does not saturate;
// - f8e5m2 (bias 15, 2 mantissa bits, IEEE-like): a magnitude that rounds past 57344 (>= 61440) or an
//   infinity gives infinity, a NaN gives S.11111.11;
// - from f8 to f32 exactly.
// Plain C++ without the standard library, like support/philox.h.
#pragma once

#if defined(__CUDACC__)
#define SEAM_F8_FN __host__ __device__ inline
#else
#define SEAM_F8_FN inline
#endif

namespace seam {
namespace f8 {

// The magnitude bits of a finite, non-negative f32 (bits `a`, sign cleared) rounded to nearest even in a
// format of `mant_bits` mantissa bits and exponent bias `bias`, with unbounded exponent range upward:
// (biased exponent << mant_bits) + mantissa, subnormals as their count of last places.
SEAM_F8_FN unsigned int round_magnitude(unsigned int a, int mant_bits, int bias) {
  const bool f32_normal = a >= 0x800000u;
  int exponent = f32_normal ? static_cast<int>(a >> 23) - 127 : -126;
  const unsigned int significand = (a & 0x7FFFFFu) | (f32_normal ? 0x800000u : 0u);  // value * 2^(23-exp)
  if (significand == 0) return 0;
  const int min_normal_exponent = 1 - bias;
  int shift = 23 - mant_bits;  // bits below the target's last place
  if (exponent < min_normal_exponent) shift += min_normal_exponent - exponent;
  if (shift > 24) return 0;  // below half the smallest subnormal
  unsigned int kept = significand >> shift;
  const unsigned int rest = significand & ((1u << shift) - 1u);
  const unsigned int halfway = 1u << (shift - 1);
  if (rest > halfway || (rest == halfway && (kept & 1u) != 0)) ++kept;
  // A subnormal's count of last places rounding up to 2^mant_bits becomes the smallest normal by itself;
  // a normal's kept includes the implicit bit, so a carry from rounding bumps the exponent.
  if (exponent < min_normal_exponent) return kept;
  return (static_cast<unsigned int>(exponent + bias - 1) << mant_bits) + kept;
}

SEAM_F8_FN unsigned char e4m3fn_from_f32_bits(unsigned int bits) {
  const unsigned int sign = (bits >> 24) & 0x80u;
  const unsigned int a = bits & 0x7FFFFFFFu;
  if (a >= 0x7F800000u) return static_cast<unsigned char>(sign | 0x7Fu);  // inf and NaN: NaN
  const unsigned int magnitude = round_magnitude(a, 3, 7);
  return static_cast<unsigned char>(sign | (magnitude >= 0x7Fu ? 0x7Fu : magnitude));
}

SEAM_F8_FN unsigned char e5m2_from_f32_bits(unsigned int bits) {
  const unsigned int sign = (bits >> 24) & 0x80u;
  const unsigned int a = bits & 0x7FFFFFFFu;
  if (a > 0x7F800000u) return static_cast<unsigned char>(sign | 0x7Fu);  // NaN
  if (a == 0x7F800000u) return static_cast<unsigned char>(sign | 0x7Cu);
  const unsigned int magnitude = round_magnitude(a, 2, 15);
  return static_cast<unsigned char>(sign | (magnitude >= 0x7Cu ? 0x7Cu : magnitude));
}

// f8 bits (exponent `exp_bits` wide, bias 2^(exp_bits-1) - 1, `mant_bits` mantissa bits) to f32 bits.
SEAM_F8_FN unsigned int f32_bits_of(unsigned char x, int exp_bits, int mant_bits) {
  const unsigned int sign = static_cast<unsigned int>(x & 0x80u) << 24;
  const unsigned int exp_field = (x >> mant_bits) & ((1u << exp_bits) - 1u);
  unsigned int mantissa = x & ((1u << mant_bits) - 1u);
  const int bias = (1 << (exp_bits - 1)) - 1;
  if (exp_field == 0) {
    if (mantissa == 0) return sign;
    int exponent = 1 - bias;  // subnormal: mantissa * 2^(1 - bias - mant_bits), normalized
    while ((mantissa & (1u << mant_bits)) == 0) {
      mantissa <<= 1;
      --exponent;
    }
    mantissa &= (1u << mant_bits) - 1u;
    return sign | (static_cast<unsigned int>(exponent + 127) << 23) | (mantissa << (23 - mant_bits));
  }
  return sign | (static_cast<unsigned int>(static_cast<int>(exp_field) - bias + 127) << 23) |
         (mantissa << (23 - mant_bits));
}

SEAM_F8_FN unsigned int e4m3fn_to_f32_bits(unsigned char x) {
  if ((x & 0x7Fu) == 0x7Fu) return (static_cast<unsigned int>(x & 0x80u) << 24) | 0x7FC00000u;  // NaN
  return f32_bits_of(x, 4, 3);
}

SEAM_F8_FN unsigned int e5m2_to_f32_bits(unsigned char x) {
  const unsigned int sign = static_cast<unsigned int>(x & 0x80u) << 24;
  if ((x & 0x7Cu) == 0x7Cu) return sign | ((x & 0x3u) != 0 ? 0x7FC00000u : 0x7F800000u);  // NaN, inf
  return f32_bits_of(x, 5, 2);
}

}  // namespace f8
}  // namespace seam
