// Exact IEEE rounding between double and the narrower floating formats (f32, bf16, f16), all
// round-to-nearest-even, done on bit patterns so that the result never depends on the host's rounding
// mode or on undefined out-of-range float conversions. Header-only and constexpr so that generated host
// code can include it with no dependencies.
//
// Rules shared by every narrowing here: overflow gives an infinity of the same sign, values below half
// the smallest subnormal give a signed zero, subnormals are produced exactly, and a NaN stays a NaN with
// its sign and top payload bits, made quiet (top mantissa bit set).
#pragma once

#include <bit>
#include <cstdint>

namespace seam {
namespace half_detail {

// Rounds a double to a binary format with `exp_bits` exponent bits and `mant_bits` stored mantissa
// bits; returns its bit pattern in the low 1 + exp_bits + mant_bits bits.
constexpr uint64_t round_double_to_format(double value, int exp_bits, int mant_bits) {
  const uint64_t bits = std::bit_cast<uint64_t>(value);
  const uint64_t sign = (bits >> 63) << (exp_bits + mant_bits);
  const int64_t exp_field = static_cast<int64_t>((bits >> 52) & 0x7FF);
  const uint64_t mantissa = bits & ((uint64_t{1} << 52) - 1);
  const uint64_t exp_all_ones = (uint64_t{1} << exp_bits) - 1;
  const uint64_t infinity = sign | (exp_all_ones << mant_bits);

  if (exp_field == 0x7FF) {
    if (mantissa == 0) return infinity;
    const uint64_t quiet = uint64_t{1} << (mant_bits - 1);
    return infinity | quiet | (mantissa >> (52 - mant_bits));
  }
  if (exp_field == 0 && mantissa == 0) return sign;

  // value = significand * 2^(exponent - 52) with significand normalized into [2^52, 2^53).
  uint64_t significand = exp_field == 0 ? mantissa : (mantissa | (uint64_t{1} << 52));
  int64_t exponent = exp_field == 0 ? -1022 : exp_field - 1023;
  while (significand < (uint64_t{1} << 52)) {
    significand <<= 1;
    --exponent;
  }

  const int64_t bias = (int64_t{1} << (exp_bits - 1)) - 1;
  const int64_t min_normal_exponent = 1 - bias;
  // Bits of the significand below the target's last place: 52 - mant_bits for normals, more for
  // subnormals, whose last place is fixed at 2^(min_normal_exponent - mant_bits).
  int64_t shift = 52 - mant_bits;
  if (exponent < min_normal_exponent) shift += min_normal_exponent - exponent;
  if (shift >= 54) return sign;  // below half the smallest subnormal

  uint64_t kept = significand >> shift;
  const uint64_t rest = significand & ((uint64_t{1} << shift) - 1);
  const uint64_t halfway = uint64_t{1} << (shift - 1);
  if (rest > halfway || (rest == halfway && (kept & 1) != 0)) ++kept;

  uint64_t magnitude;
  if (exponent < min_normal_exponent) {
    // A subnormal's encoding is its count of last places; rounding up to 2^mant_bits carries into the
    // exponent field and yields the smallest normal, as it should.
    magnitude = kept;
  } else {
    // kept is in [2^mant_bits, 2^(mant_bits+1)]; adding it to (biased exponent - 1) << mant_bits puts the
    // implicit bit into the exponent field, so a carry from rounding bumps the exponent by itself.
    magnitude = (static_cast<uint64_t>(exponent + bias - 1) << mant_bits) + kept;
  }
  if ((magnitude >> mant_bits) >= exp_all_ones) return infinity;
  return sign | magnitude;
}

}  // namespace half_detail

// double -> f32, correctly rounded (the conversion a GPU does when half types compute in f32).
constexpr float round_to_float(double value) {
  return std::bit_cast<float>(static_cast<uint32_t>(half_detail::round_double_to_format(value, 8, 23)));
}

// bf16: 1 sign, 8 exponent, 7 mantissa bits: the top half of an f32.
constexpr uint16_t double_to_bf16_bits(double value) {
  return static_cast<uint16_t>(half_detail::round_double_to_format(value, 8, 7));
}
constexpr uint16_t float_to_bf16_bits(float value) { return double_to_bf16_bits(static_cast<double>(value)); }
constexpr float bf16_bits_to_float(uint16_t bits) {
  return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16);
}

// f16 (IEEE binary16): 1 sign, 5 exponent, 10 mantissa bits.
constexpr uint16_t double_to_f16_bits(double value) {
  return static_cast<uint16_t>(half_detail::round_double_to_format(value, 5, 10));
}
constexpr uint16_t float_to_f16_bits(float value) { return double_to_f16_bits(static_cast<double>(value)); }
constexpr float f16_bits_to_float(uint16_t bits) {
  const uint32_t sign = static_cast<uint32_t>(bits & 0x8000) << 16;
  const uint32_t exp_field = (bits >> 10) & 0x1F;
  uint32_t mantissa = bits & 0x3FF;
  if (exp_field == 0x1F) return std::bit_cast<float>(sign | 0x7F800000u | (mantissa << 13));
  if (exp_field == 0) {
    if (mantissa == 0) return std::bit_cast<float>(sign);
    // Subnormal: mantissa * 2^-24; normalize so the leading one becomes the implicit bit.
    int32_t exponent = -14;
    while ((mantissa & 0x400) == 0) {
      mantissa <<= 1;
      --exponent;
    }
    mantissa &= 0x3FF;
    return std::bit_cast<float>(sign | (static_cast<uint32_t>(exponent + 127) << 23) | (mantissa << 13));
  }
  return std::bit_cast<float>(sign | ((exp_field - 15 + 127) << 23) | (mantissa << 13));
}

}  // namespace seam
