// Exact rounding to f32, bf16 and f16 (support/half.h) against known bit patterns and exhaustive
// properties of every 16-bit pattern.
#include "support/half.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>

namespace seam {
namespace {

float float_of_bits(uint32_t bits) { return std::bit_cast<float>(bits); }
uint32_t bits_of_float(float f) { return std::bit_cast<uint32_t>(f); }

// Usable in constant expressions, so generated host code may use them in constexpr tables.
static_assert(float_to_bf16_bits(1.0f) == 0x3F80);
static_assert(double_to_f16_bits(1.0) == 0x3C00);
static_assert(f16_bits_to_float(0x3C00) == 1.0f);

TEST(Bf16, KnownValues) {
  EXPECT_EQ(float_to_bf16_bits(1.0f), 0x3F80);
  EXPECT_EQ(float_to_bf16_bits(-2.0f), 0xC000);
  EXPECT_EQ(float_to_bf16_bits(0.0f), 0x0000);
  EXPECT_EQ(float_to_bf16_bits(-0.0f), 0x8000);
  EXPECT_EQ(bf16_bits_to_float(0x3F80), 1.0f);
  EXPECT_EQ(bf16_bits_to_float(0x3FB5), 1.4140625f);
}

TEST(Bf16, TiesGoToEven) {
  EXPECT_EQ(float_to_bf16_bits(float_of_bits(0x3F808000)), 0x3F80);  // halfway, 0x3F80 is even
  EXPECT_EQ(float_to_bf16_bits(float_of_bits(0x3F818000)), 0x3F82);  // halfway, 0x3F81 is odd
  EXPECT_EQ(float_to_bf16_bits(float_of_bits(0x3F807FFF)), 0x3F80);  // just below halfway
  EXPECT_EQ(float_to_bf16_bits(float_of_bits(0x3F808001)), 0x3F81);  // just above halfway
  EXPECT_EQ(float_to_bf16_bits(float_of_bits(0xBF808001)), 0xBF81);  // sign is symmetric
}

TEST(Bf16, OverflowAndInfinity) {
  EXPECT_EQ(float_to_bf16_bits(float_of_bits(0x7F7F0000)), 0x7F7F);  // max finite bf16
  EXPECT_EQ(float_to_bf16_bits(float_of_bits(0x7F7F7FFF)), 0x7F7F);  // below the halfway point
  EXPECT_EQ(float_to_bf16_bits(float_of_bits(0x7F7F8000)), 0x7F80);  // halfway to 2^128: to inf
  EXPECT_EQ(float_to_bf16_bits(std::numeric_limits<float>::max()), 0x7F80);
  EXPECT_EQ(float_to_bf16_bits(-std::numeric_limits<float>::infinity()), 0xFF80);
  EXPECT_EQ(double_to_bf16_bits(1e300), 0x7F80);
}

TEST(Bf16, NaNStaysQuietNaN) {
  const uint16_t nan = float_to_bf16_bits(std::numeric_limits<float>::quiet_NaN());
  EXPECT_EQ(nan & 0x7FC0, 0x7FC0);
  EXPECT_TRUE(std::isnan(bf16_bits_to_float(nan)));
  // A signalling NaN whose payload lies only in the dropped bits must not become infinity.
  const uint16_t from_signalling = float_to_bf16_bits(float_of_bits(0xFF800001));
  EXPECT_EQ(from_signalling, 0xFFC0);
}

TEST(Bf16, Subnormals) {
  EXPECT_EQ(float_to_bf16_bits(float_of_bits(0x00010000)), 0x0001);  // smallest bf16 subnormal
  EXPECT_EQ(float_to_bf16_bits(float_of_bits(0x00008000)), 0x0000);  // half of it: tie to even zero
  EXPECT_EQ(float_to_bf16_bits(float_of_bits(0x00008001)), 0x0001);
  EXPECT_EQ(float_to_bf16_bits(float_of_bits(0x00018000)), 0x0002);  // tie between 1 and 2
  EXPECT_EQ(float_to_bf16_bits(float_of_bits(0x00000001)), 0x0000);  // smallest f32 subnormal
  EXPECT_EQ(float_to_bf16_bits(float_of_bits(0x007FFFFF)), 0x0080);  // rounds up to the smallest normal
  EXPECT_EQ(bf16_bits_to_float(0x0001), std::ldexp(1.0f, -133));
}

TEST(Bf16, DirectDoubleRoundingDiffersFromThroughFloat) {
  // 1 + 2^-8 is halfway between bf16 1 and 1 + 2^-7; 2^-30 more is above halfway, but f32 drops it.
  const double value = 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -30);
  EXPECT_EQ(double_to_bf16_bits(value), 0x3F81);
  EXPECT_EQ(float_to_bf16_bits(round_to_float(value)), 0x3F80);
}

TEST(F16, KnownValues) {
  EXPECT_EQ(double_to_f16_bits(1.0), 0x3C00);
  EXPECT_EQ(double_to_f16_bits(-2.0), 0xC000);
  EXPECT_EQ(double_to_f16_bits(-0.0), 0x8000);
  EXPECT_EQ(double_to_f16_bits(1.0 / 3.0), 0x3555);
  EXPECT_EQ(f16_bits_to_float(0x3555), 0.333251953125f);
  EXPECT_EQ(f16_bits_to_float(0x7BFF), 65504.0f);
  EXPECT_EQ(f16_bits_to_float(0xFC00), -std::numeric_limits<float>::infinity());
}

TEST(F16, OverflowAndRounding) {
  EXPECT_EQ(double_to_f16_bits(65504.0), 0x7BFF);  // max finite
  EXPECT_EQ(double_to_f16_bits(65519.99), 0x7BFF);
  EXPECT_EQ(double_to_f16_bits(65520.0), 0x7C00);  // halfway to 65536 from an odd pattern: inf
  EXPECT_EQ(double_to_f16_bits(-1e10), 0xFC00);
  EXPECT_EQ(double_to_f16_bits(2049.0), 0x6800);                    // 2048: tie to even
  EXPECT_EQ(double_to_f16_bits(2051.0), 0x6802);                    // 2052: tie to even
  EXPECT_EQ(float_to_f16_bits(float_of_bits(0x3F801000)), 0x3C00);  // 1 + 2^-11: tie to even
  EXPECT_EQ(float_to_f16_bits(float_of_bits(0x3F801001)), 0x3C01);
}

TEST(F16, Subnormals) {
  const double tiny = std::ldexp(1.0, -24);  // smallest f16 subnormal
  EXPECT_EQ(double_to_f16_bits(tiny), 0x0001);
  EXPECT_EQ(double_to_f16_bits(tiny / 2), 0x0000);  // tie to even zero
  EXPECT_EQ(double_to_f16_bits(tiny / 2 * (1 + 1e-9)), 0x0001);
  EXPECT_EQ(double_to_f16_bits(-tiny / 2), 0x8000);
  EXPECT_EQ(double_to_f16_bits(tiny * 1.5), 0x0002);     // tie between 1 and 2
  EXPECT_EQ(double_to_f16_bits(1023 * tiny), 0x03FF);    // largest subnormal
  EXPECT_EQ(double_to_f16_bits(1023.5 * tiny), 0x0400);  // rounds up into the smallest normal
  EXPECT_EQ(double_to_f16_bits(std::ldexp(1.0, -14)), 0x0400);
  EXPECT_EQ(f16_bits_to_float(0x0001), static_cast<float>(tiny));
  EXPECT_EQ(f16_bits_to_float(0x83FF), static_cast<float>(-1023 * tiny));
}

TEST(F16, NaN) {
  const uint16_t nan = double_to_f16_bits(std::nan(""));
  EXPECT_EQ(nan & 0x7E00, 0x7E00);
  EXPECT_EQ(double_to_f16_bits(-std::nan("")) & 0x8000, 0x8000);
  EXPECT_TRUE(std::isnan(f16_bits_to_float(0x7C01)));
}

TEST(RoundToFloat, MatchesHardwareConversionInRange) {
  // In range, the host's double -> float conversion rounds to nearest even: an independent reference.
  std::mt19937_64 rng(7);
  for (int i = 0; i < 200000; ++i) {
    double value = std::bit_cast<double>(rng());
    if (!std::isfinite(value) || std::fabs(value) > 3e38) continue;
    ASSERT_EQ(bits_of_float(round_to_float(value)), bits_of_float(static_cast<float>(value))) << value;
  }
  for (int i = 0; i < 200000; ++i) {  // values near 1, where the interesting bits are
    double value = 1.0 + static_cast<double>(rng() >> 11) * 0x1.0p-53;
    ASSERT_EQ(bits_of_float(round_to_float(value)), bits_of_float(static_cast<float>(value))) << value;
  }
}

TEST(RoundToFloat, EdgeCases) {
  EXPECT_EQ(round_to_float(1.0 + std::ldexp(1.0, -24)), 1.0f);  // tie to even
  EXPECT_EQ(round_to_float(1.0 + 3 * std::ldexp(1.0, -24)), 1.0f + std::ldexp(1.0f, -22));
  EXPECT_EQ(round_to_float(1e39), std::numeric_limits<float>::infinity());
  EXPECT_EQ(round_to_float(-1e39), -std::numeric_limits<float>::infinity());
  EXPECT_EQ(round_to_float(std::ldexp(1.0, -150)), 0.0f);  // half the smallest subnormal: to even 0
  EXPECT_EQ(round_to_float(0.75 * std::ldexp(1.0, -149)), std::ldexp(1.0f, -149));
  EXPECT_EQ(round_to_float(1e-300), 0.0f);
  EXPECT_EQ(bits_of_float(round_to_float(-0.0)), 0x80000000u);
  EXPECT_TRUE(std::isnan(round_to_float(std::nan(""))));
}

// Every finite pattern converts to float and back unchanged; NaNs stay NaNs, made quiet.
template <typename ToFloat, typename FromFloat>
void check_round_trip(ToFloat to_float, FromFloat from_float, uint16_t exponent_mask, uint16_t quiet_bit) {
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    const uint16_t pattern = static_cast<uint16_t>(bits);
    const bool is_nan =
        (pattern & exponent_mask) == exponent_mask && (pattern & ~exponent_mask & 0x7FFF) != 0;
    const uint16_t expected = is_nan ? static_cast<uint16_t>(pattern | quiet_bit) : pattern;
    ASSERT_EQ(from_float(to_float(pattern)), expected) << std::hex << bits;
  }
}

TEST(Bf16, EveryPatternRoundTrips) {
  check_round_trip(bf16_bits_to_float, float_to_bf16_bits, 0x7F80, 0x0040);
}

TEST(F16, EveryPatternRoundTrips) { check_round_trip(f16_bits_to_float, float_to_f16_bits, 0x7C00, 0x0200); }

// For every pair of adjacent finite values (of either sign): the midpoint goes to the even pattern,
// and anything a hair off the midpoint goes to the nearer one. The midpoint is exact in double.
template <typename ToFloat, typename FromDouble>
void check_midpoints(ToFloat to_float, FromDouble from_double, uint16_t max_finite) {
  for (uint16_t sign : {uint16_t{0}, uint16_t{0x8000}}) {
    for (uint16_t b = 0; b < max_finite; ++b) {
      const uint16_t lo = sign | b, hi = sign | static_cast<uint16_t>(b + 1);
      const double low = to_float(lo), high = to_float(hi);
      const double mid = (low + high) / 2;
      ASSERT_EQ(from_double(mid), (b % 2 == 0) ? lo : hi) << std::hex << b;
      ASSERT_EQ(from_double(std::nextafter(mid, low)), lo) << std::hex << b;
      ASSERT_EQ(from_double(std::nextafter(mid, high)), hi) << std::hex << b;
      ASSERT_EQ(from_double(low), lo);
    }
  }
}

TEST(Bf16, EveryMidpointRoundsToNearestEven) {
  check_midpoints(bf16_bits_to_float, double_to_bf16_bits, 0x7F7F);
}

TEST(F16, EveryMidpointRoundsToNearestEven) {
  check_midpoints(f16_bits_to_float, double_to_f16_bits, 0x7BFF);
}

}  // namespace
}  // namespace seam
