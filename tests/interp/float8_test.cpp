// The f8 storage dtypes (support/float8.h) against hand values: PyTorch's rounding (nearest even, f32
// first), e4m3fn's NaN past 448 (no saturation), e5m2's infinity past 57344, exact decoding, subnormals;
// casts in the interpreter; the IR's refusal to compute on them.
#include <cmath>
#include <limits>

#include "interp_test_util.h"
#include "tensor/float8_convert.h"
#include "text/parser.h"
#include "text/printer.h"

namespace seam {
namespace {

using testing_interp::error_of;
using testing_interp::run_one;

constexpr DType E4 = DType::Float8E4M3FN;
constexpr DType E5 = DType::Float8E5M2;

double round_trip(DType d, double v) { return float8_bits_to_float(d, double_to_float8_bits(d, v)); }

TEST(Float8, E4M3FNRoundsToNearestEvenAndOverflowsToNaN) {
  EXPECT_EQ(double_to_float8_bits(E4, 1.0), 0x38);
  EXPECT_EQ(double_to_float8_bits(E4, -2.0), 0xC0);
  EXPECT_EQ(double_to_float8_bits(E4, 448.0), 0x7E);
  EXPECT_EQ(round_trip(E4, 464.0), 448.0);  // halfway to 480 (the NaN pattern): to even, 448
  EXPECT_TRUE(std::isnan(round_trip(E4, 465.0)));
  EXPECT_TRUE(std::isnan(round_trip(E4, 480.0)));
  EXPECT_TRUE(std::isnan(round_trip(E4, -1e6)));
  EXPECT_EQ(double_to_float8_bits(E4, -std::numeric_limits<double>::infinity()), 0xFF);
  EXPECT_EQ(double_to_float8_bits(E4, std::nan("")), 0x7F);
  EXPECT_EQ(round_trip(E4, 1.0625), 1.0);   // halfway between 1 and 1.125: even
  EXPECT_EQ(round_trip(E4, 1.1875), 1.25);  // halfway between 1.125 and 1.25: even
  EXPECT_EQ(round_trip(E4, std::ldexp(1.0, -9)), std::ldexp(1.0, -9));  // smallest subnormal
  EXPECT_EQ(round_trip(E4, std::ldexp(1.0, -10)), 0.0);                 // half of it: to even, 0
  EXPECT_EQ(round_trip(E4, std::ldexp(1.5, -10)), std::ldexp(1.0, -9));
  EXPECT_EQ(round_trip(E4, std::ldexp(15.0, -10)), std::ldexp(1.0, -6));  // subnormal rounds up to normal
  EXPECT_TRUE(std::signbit(round_trip(E4, -0.0)));
}

TEST(Float8, E5M2OverflowsToInfinity) {
  EXPECT_EQ(double_to_float8_bits(E5, 1.0), 0x3C);
  EXPECT_EQ(round_trip(E5, 57344.0), 57344.0);
  EXPECT_EQ(round_trip(E5, 61439.0), 57344.0);
  EXPECT_EQ(double_to_float8_bits(E5, 61440.0), 0x7C);  // halfway: to even, past the largest: inf
  EXPECT_EQ(double_to_float8_bits(E5, -1e30), 0xFC);
  EXPECT_EQ(double_to_float8_bits(E5, std::nan("")), 0x7F);
  EXPECT_EQ(round_trip(E5, std::ldexp(1.0, -16)), std::ldexp(1.0, -16));
  EXPECT_EQ(round_trip(E5, std::ldexp(1.0, -17)), 0.0);
}

TEST(Float8, DoublesRoundToF32First) {
  // 1.0625 + 2^-40 rounds to 1.0625 in f32 (a tie in e4m3fn, then to even: 1.0); straight from the double
  // it would round up to 1.125. PyTorch's cast goes through f32.
  EXPECT_EQ(round_trip(E4, 1.0625 + std::ldexp(1.0, -40)), 1.0);
}

TEST(Float8, EveryPatternDecodesAndReEncodesToItself) {
  for (DType d : kFloat8DTypes)
    for (int bits = 0; bits < 256; ++bits) {
      const float v = float8_bits_to_float(d, static_cast<uint8_t>(bits));
      if (std::isnan(v)) continue;
      EXPECT_EQ(double_to_float8_bits(d, v), bits) << dtype_name(d) << " " << bits;
    }
  int e4_nans = 0;
  for (int bits = 0; bits < 256; ++bits)
    e4_nans += std::isnan(float8_bits_to_float(E4, static_cast<uint8_t>(bits)));
  EXPECT_EQ(e4_nans, 2);  // S.1111.111 only
  EXPECT_EQ(float8_bits_to_float(E4, 0x7E), 448.0f);
  EXPECT_EQ(float8_bits_to_float(E5, 0x7C), std::numeric_limits<float>::infinity());
}

TEST(Float8, CastsInTheInterpreter) {
  Builder b;
  Value x = b.input(Type::tensor(DType::Float32, {6}), "x");
  Value f8 = b.cast(x, E4);
  Fusion f = b.finish({b.cast(f8, DType::BFloat16)});
  HostTensor in = HostTensor::from_doubles(DType::Float32, {6}, {1.0, 464.0, 500.0, -0.3, 1e-4, 3.0});
  std::vector<double> out = run_one(f, {in}).to_doubles();
  EXPECT_EQ(out[0], 1.0);
  EXPECT_EQ(out[1], 448.0);
  EXPECT_TRUE(std::isnan(out[2]));
  EXPECT_EQ(out[3], -0.3125);
  EXPECT_EQ(out[4], 0.0);
  EXPECT_EQ(out[5], 3.0);
}

TEST(Float8, OnlyCastsMovementAndIndexingTakeThem) {
  Builder b;
  Value x = b.input(Type::tensor(E5, {2, 3}), "x");
  EXPECT_NE(error_of([&] { b.add(x, x); }).find("storage dtype f8e5m2"), std::string::npos);
  EXPECT_NE(error_of([&] { b.sum(x, {0}); }).find("storage dtype"), std::string::npos);
  EXPECT_NE(error_of([&] { b.cumsum(x, 0); }).find("storage dtype"), std::string::npos);
  Value y = b.input(Type::tensor(DType::Float32, {2, 3}), "y");
  EXPECT_NE(error_of([&] { b.add(b.cast(y, E4), y); }).find("storage dtype"), std::string::npos);
  EXPECT_EQ(error_of([&] { b.cast(b.permute(x, {1, 0}), DType::Float32); }), "");
  EXPECT_NE(error_of([&] { promote_types(E4, DType::Float32); }).find("no type promotion"),
            std::string::npos);
}

TEST(Float8, TextNamesThem) {
  const Fusion f = parse_fusion(R"(fusion f {
  %0 = input : f8e4m3fn[2]
  %1 = cast %0 {dtype=f8e5m2} : f8e5m2[2]
  return %1
})");
  EXPECT_NE(print_fusion(f).find("cast %0 {dtype=f8e5m2} : f8e5m2[2]"), std::string::npos) << print_fusion(f);
}

}  // namespace
}  // namespace seam
