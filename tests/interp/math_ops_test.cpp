// The math ops whose semantics are subtle, against hand-computed results: remainders' signs and
// integer division by zero, shifts outside [0, bits), the 32-bit logical shift and gcd, round half to
// even, signbit of -0 and NaN, f32's nextafter, erfinv/erfcinv accuracy, prod, and the dtype rules.
#include <cmath>
#include <limits>

#include "interp_test_util.h"
#include "support/erfinv.h"

namespace seam {
namespace {

using testing_interp::error_of;
using testing_interp::run_one;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int64_t kMin32 = std::numeric_limits<int32_t>::min();
constexpr int64_t kMax32 = std::numeric_limits<int32_t>::max();
constexpr int64_t kMin64 = std::numeric_limits<int64_t>::min();

HostTensor binary(OpKind op, const HostTensor& a, const HostTensor& b) {
  Builder builder;
  Value x = builder.input(Type::tensor(a.dtype(), a.shape()), "a");
  Value y = builder.input(Type::tensor(b.dtype(), b.shape()), "b");
  return run_one(builder.finish({builder.binary(op, x, y)}), {a, b});
}

HostTensor unary(OpKind op, const HostTensor& a) {
  Builder builder;
  Value x = builder.input(Type::tensor(a.dtype(), a.shape()), "a");
  return run_one(builder.finish({builder.unary(op, x)}), {a});
}

HostTensor doubles(DType d, std::vector<double> v) {
  const int64_t n = static_cast<int64_t>(v.size());
  return HostTensor::from_doubles(d, {n}, v);
}
HostTensor ints(DType d, std::vector<int64_t> v) {
  const int64_t n = static_cast<int64_t>(v.size());
  return HostTensor::from_ints(d, {n}, v);
}

TEST(MathOps, FmodTakesTheDividendsSignRemainderTheDivisors) {
  HostTensor a = doubles(DType::Float32, {5.5, -5.5, 5.5, -5.5, 3, 5});
  HostTensor b = doubles(DType::Float32, {2, 2, -2, -2, 0, kInf});
  EXPECT_EQ(binary(OpKind::Fmod, a, b).to_doubles()[0], 1.5);
  EXPECT_EQ(binary(OpKind::Fmod, a, b).to_doubles()[1], -1.5);
  EXPECT_EQ(binary(OpKind::Remainder, a, b).to_doubles()[1], 0.5);
  EXPECT_EQ(binary(OpKind::Remainder, a, b).to_doubles()[2], -0.5);
  EXPECT_TRUE(std::isnan(binary(OpKind::Remainder, a, b).to_doubles()[4]));
  EXPECT_EQ(binary(OpKind::Remainder, a, b).to_doubles()[5], 5);
  HostTensor i = ints(DType::Int32, {7, -7, 7, -7, kMin32, 9});
  HostTensor j = ints(DType::Int32, {3, 3, -3, -3, -1, 0});
  EXPECT_EQ(binary(OpKind::Fmod, i, j).to_ints(), (std::vector<int64_t>{1, -1, 1, -1, 0, 0}));
  EXPECT_EQ(binary(OpKind::Remainder, i, j).to_ints(), (std::vector<int64_t>{1, 2, -2, -1, 0, 0}));
}

TEST(MathOps, TruncDivRoundsTowardZero) {
  HostTensor i = ints(DType::Int32, {7, -7, 7, -7, kMin32, 9, kMin32, -9});
  HostTensor j = ints(DType::Int32, {2, 2, -2, -2, -1, 0, 1, 10});
  // By zero gives -1 (the GPU's all-ones result); INT_MIN / -1 wraps to INT_MIN.
  EXPECT_EQ(binary(OpKind::TruncDiv, i, j).to_ints(),
            (std::vector<int64_t>{3, -3, -3, 3, kMin32, -1, kMin32, 0}));
  EXPECT_EQ(binary(OpKind::TruncDiv, i, j).dtype(), DType::Int32);
  HostTensor a = ints(DType::Int64, {kMin64, kMin64, -1});
  HostTensor b = ints(DType::Int64, {-1, 2, 0});
  EXPECT_EQ(binary(OpKind::TruncDiv, a, b).to_ints(), (std::vector<int64_t>{kMin64, kMin64 / 2, -1}));
  // Mixed widths promote.
  EXPECT_EQ(binary(OpKind::TruncDiv, ints(DType::Int32, {-9}), ints(DType::Int64, {4})).dtype(),
            DType::Int64);
}

TEST(MathOps, ShiftsOutsideTheWidthShiftEveryBitOut) {
  HostTensor a = ints(DType::Int32, {1, -5, -5, -5, 3, -8});
  HostTensor s = ints(DType::Int32, {31, 1, 32, -1, 40, 0});
  EXPECT_EQ(binary(OpKind::ShiftLeft, a, s).to_ints(), (std::vector<int64_t>{kMin32, -10, 0, 0, 0, -8}));
  EXPECT_EQ(binary(OpKind::ShiftRight, a, s).to_ints(), (std::vector<int64_t>{0, -3, -1, -1, 0, -8}));
  // The logical shift sees 32 bits for i32: -5 >>> 1 is 0x7FFFFFFD.
  EXPECT_EQ(binary(OpKind::LogicalShiftRight, a, s).to_ints(),
            (std::vector<int64_t>{0, 0x7FFFFFFD, 0, 0, 0, -8}));
  HostTensor b = ints(DType::Int64, {-1, 1, kMin64});
  HostTensor t = ints(DType::Int64, {63, 64, 63});
  EXPECT_EQ(binary(OpKind::LogicalShiftRight, b, t).to_ints(), (std::vector<int64_t>{1, 0, 1}));
  EXPECT_EQ(binary(OpKind::ShiftLeft, b, t).to_ints(), (std::vector<int64_t>{kMin64, 0, 0}));
}

TEST(MathOps, GcdMatchesTorchAtTheMostNegativeValue) {
  HostTensor a = ints(DType::Int32, {12, -12, 0, kMin32, kMin32, 6, kMax32});
  HostTensor b = ints(DType::Int32, {18, 18, 0, 0, 6, kMin32, kMin32});
  EXPECT_EQ(binary(OpKind::Gcd, a, b).to_ints(), (std::vector<int64_t>{6, 6, 0, kMin32, -2, -2, -1}));
  HostTensor c = ints(DType::Int64, {kMin64, kMin64});
  HostTensor d = ints(DType::Int64, {6, -1});
  EXPECT_EQ(binary(OpKind::Gcd, c, d).to_ints(), (std::vector<int64_t>{-2, 1}));
}

TEST(MathOps, RoundingOps) {
  HostTensor x = doubles(DType::Float32, {0.5, 1.5, 2.5, -0.5, -2.5, 2.7, -2.7, kInf});
  EXPECT_EQ(unary(OpKind::Round, x).to_doubles(), (std::vector<double>{0, 2, 2, -0.0, -2, 3, -3, kInf}));
  EXPECT_TRUE(std::signbit(unary(OpKind::Round, x).to_doubles()[3]));  // -0.5 rounds to -0
  EXPECT_EQ(unary(OpKind::Ceil, x).to_doubles()[5], 3);
  EXPECT_EQ(unary(OpKind::Floor, x).to_doubles()[6], -3);
  EXPECT_EQ(unary(OpKind::Trunc, x).to_doubles()[6], -2);
  HostTensor frac = unary(OpKind::Frac, x);
  EXPECT_FLOAT_EQ(static_cast<float>(frac.to_doubles()[6]), -0.7f);
  EXPECT_TRUE(std::isnan(frac.to_doubles()[7]));
  HostTensor i = ints(DType::Int64, {kMin64, 7});
  EXPECT_EQ(unary(OpKind::Round, i).to_ints(), i.to_ints());
  EXPECT_EQ(unary(OpKind::Round, i).dtype(), DType::Int64);
}

TEST(MathOps, SignbitSeesNegativeZeroAndNaN) {
  HostTensor x = doubles(DType::BFloat16, {0.0, -0.0, -kNaN, kNaN, -1});
  HostTensor out = unary(OpKind::Signbit, x);
  EXPECT_EQ(out.dtype(), DType::Bool);
  EXPECT_EQ(out.to_ints(), (std::vector<int64_t>{0, 1, std::signbit(-kNaN) ? 1 : 0, 0, 1}));
  EXPECT_EQ(unary(OpKind::Signbit, ints(DType::Int32, {-1, 0, 1})).to_ints(),
            (std::vector<int64_t>{1, 0, 0}));
}

TEST(MathOps, NextafterStepsInTheComputeDtype) {
  HostTensor f = binary(OpKind::Nextafter, doubles(DType::Float32, {1, 0}), doubles(DType::Float32, {2, -1}));
  EXPECT_EQ(f.to_doubles()[0], 1.0 + std::ldexp(1.0, -23));
  EXPECT_EQ(f.to_doubles()[1], -static_cast<double>(std::numeric_limits<float>::denorm_min()));
  HostTensor d = binary(OpKind::Nextafter, doubles(DType::Float64, {1}), doubles(DType::Float64, {2}));
  EXPECT_EQ(d.to_doubles()[0], 1.0 + std::ldexp(1.0, -52));
}

TEST(MathOps, ErfinvInvertsErfToRoundOff) {
  EXPECT_DOUBLE_EQ(erfinv(0.5), 0.47693627620446987);
  EXPECT_TRUE(std::signbit(erfinv(-0.0)));
  EXPECT_EQ(erfinv(1), kInf);
  EXPECT_EQ(erfinv(-1), -kInf);
  EXPECT_TRUE(std::isnan(erfinv(1.5)));
  EXPECT_TRUE(std::isnan(erfinv(kNaN)));
  for (double y = -0.9999; y < 1; y += 0.00731) {
    const double x = erfinv(y);
    // erf's slope at x turns an ulp of y into this much x; allow a few ulps of either.
    const double slope = 1.1283791670955126 * std::exp(-x * x);
    EXPECT_NEAR(std::erf(x), y, 4e-16) << y;
    EXPECT_NEAR(erfinv(std::erf(x)), x, 4e-16 * (1 + std::fabs(x)) / slope) << y;
  }
  for (double r : {1e-300, 1e-100, 1e-20, 1e-8, 0.01, 0.3, 0.5, 0.9, 1.0, 1.3, 1.7, 1.99}) {
    const double x = erfcinv(r);
    // An ulp of x moves erfc(x) by 2x^2 ulps in the tail.
    EXPECT_NEAR(std::erfc(x) / r, 1, 4e-16 * (1 + 2 * x * x)) << r;
  }
  EXPECT_EQ(erfcinv(0), kInf);
  EXPECT_EQ(erfcinv(2), -kInf);
  EXPECT_TRUE(std::isnan(erfcinv(-0.5)));
}

TEST(MathOps, ErfinvOfF32IsTheRoundedF64Value) {
  HostTensor out = unary(OpKind::Erfinv, doubles(DType::Float32, {0.25, -0.999}));
  EXPECT_EQ(out.to_doubles()[0], static_cast<double>(static_cast<float>(erfinv(0.25))));
  EXPECT_EQ(out.dtype(), DType::Float32);
  EXPECT_EQ(unary(OpKind::Lgamma, ints(DType::Int32, {1})).dtype(), DType::Float32);
}

TEST(MathOps, DTypeRules) {
  auto build = [](OpKind op, DType a, DType b) {
    Builder builder;
    Value x = builder.input(Type::tensor(a, {2}), "a");
    Value y = builder.input(Type::tensor(b, {2}), "b");
    builder.binary(op, x, y);
  };
  EXPECT_NE(error_of([&] { build(OpKind::Gcd, DType::Float32, DType::Int32); }).find("integer"),
            std::string::npos);
  EXPECT_NE(error_of([&] { build(OpKind::TruncDiv, DType::Float32, DType::Float32); }).find("integer"),
            std::string::npos);
  EXPECT_NE(error_of([&] { build(OpKind::ShiftLeft, DType::Bool, DType::Int32); }).find("integer"),
            std::string::npos);
  EXPECT_NE(error_of([&] { build(OpKind::Nextafter, DType::Int32, DType::Int64); }).find("floating"),
            std::string::npos);
  EXPECT_EQ(error_of([&] { build(OpKind::Nextafter, DType::Int32, DType::Float64); }), "");
  EXPECT_EQ(binary(OpKind::ShiftLeft, ints(DType::Int32, {1}), ints(DType::Int64, {40})).dtype(),
            DType::Int64);
  EXPECT_EQ(binary(OpKind::Atan2, ints(DType::Int32, {1}), ints(DType::Int32, {1})).dtype(), DType::Float32);
  EXPECT_NE(error_of([&] { unary(OpKind::Frac, ints(DType::Int32, {1})); }).find("floating"),
            std::string::npos);
}

HostTensor reduce(OpKind op, const HostTensor& in, std::vector<int64_t> axes, bool keepdim) {
  Builder b;
  Value x = b.input(Type::tensor(in.dtype(), in.shape()), "x");
  return run_one(b.finish({b.reduce(op, x, std::move(axes), keepdim)}), {in});
}

TEST(MathOps, Prod) {
  HostTensor m = HostTensor::from_doubles(DType::Float32, {2, 3}, {1, 2, 3, -4, 0.5, kNaN});
  EXPECT_EQ(reduce(OpKind::Prod, m, {1}, false).to_doubles()[0], 6);
  EXPECT_TRUE(std::isnan(reduce(OpKind::Prod, m, {1}, false).to_doubles()[1]));
  EXPECT_EQ(reduce(OpKind::Prod, m, {0}, true).shape(), (Shape{1, 3}));
  HostTensor empty = HostTensor::zeros(DType::Float32, {2, 0});
  EXPECT_EQ(reduce(OpKind::Prod, empty, {1}, false).to_doubles(), (std::vector<double>{1, 1}));
  // Integer products are i64 and wrap: 2^32 * 2^32 = 2^64 = 0.
  HostTensor big = HostTensor::from_ints(DType::Int32, {1, 3}, {65536, 65536, 0});
  HostTensor wrap = HostTensor::from_ints(DType::Int64, {1, 2}, {int64_t{1} << 32, int64_t{1} << 32});
  EXPECT_EQ(reduce(OpKind::Prod, big, {1}, false).dtype(), DType::Int64);
  EXPECT_EQ(reduce(OpKind::Prod, wrap, {1}, false).to_ints(), (std::vector<int64_t>{0}));
}

}  // namespace
}  // namespace seam
