// Pointwise ops and casts against hand-computed results: compute dtypes, promotion, rounding through
// f32 for half types, integer wraparound, NaN rules.
#include <cmath>
#include <limits>

#include "interp_test_util.h"
#include "tensor/scalar_convert.h"

namespace seam {
namespace {

using testing_interp::run_one;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// Runs op(a, b) on two input tensors.
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

HostTensor cast(const HostTensor& a, DType to) {
  Builder builder;
  Value x = builder.input(Type::tensor(a.dtype(), a.shape()), "a");
  return run_one(builder.finish({builder.cast(x, to)}), {a});
}

HostTensor doubles(DType d, std::vector<double> v) {
  const int64_t n = static_cast<int64_t>(v.size());
  return HostTensor::from_doubles(d, {n}, v);
}
HostTensor ints(DType d, std::vector<int64_t> v) {
  const int64_t n = static_cast<int64_t>(v.size());
  return HostTensor::from_ints(d, {n}, v);
}

TEST(Pointwise, AddF32) {
  HostTensor out =
      binary(OpKind::Add, doubles(DType::Float32, {1.5, -2, 1e30}), doubles(DType::Float32, {0.25, 4, 1e30}));
  EXPECT_EQ(out.dtype(), DType::Float32);
  EXPECT_EQ(out.to_doubles(), (std::vector<double>{1.75, 2, static_cast<double>(2e30f)}));
}

TEST(Pointwise, I32PlusF16IsF16WithOperandsConvertedFirst) {
  // 2049 is not an f16: it becomes 2048 before the add; 2048 + 1 = 2049 rounds (tie) to 2048 again.
  HostTensor out = binary(OpKind::Add, ints(DType::Int32, {3, 2049}), doubles(DType::Float16, {0.5, 1}));
  EXPECT_EQ(out.dtype(), DType::Float16);
  EXPECT_EQ(out.to_doubles(), (std::vector<double>{3.5, 2048}));
}

TEST(Pointwise, Bf16PlusF16IsF32) {
  // bf16 1.0078125 (0x3F81) + f16 2^-10: both exact in f32, so is the sum.
  HostTensor out =
      binary(OpKind::Add, doubles(DType::BFloat16, {1.0078125}), doubles(DType::Float16, {0.0009765625}));
  EXPECT_EQ(out.dtype(), DType::Float32);
  EXPECT_EQ(out.get_double(0), 1.0087890625);
}

TEST(Pointwise, IntTensorPlusFloatScalarIsF32) {
  Builder b;
  Value x = b.input(Type::tensor(DType::Int32, {2}), "x");
  Value y = b.add(x, b.constant(Number::of_float(0.5), DType::Float64));
  HostTensor out = run_one(b.finish({y}), {ints(DType::Int32, {1, 16777217})});
  EXPECT_EQ(out.dtype(), DType::Float32);
  // 16777217 converts to f32 16777216 first; + 0.5 in f32 stays 16777216.
  EXPECT_EQ(out.to_doubles(), (std::vector<double>{1.5, 16777216}));
}

TEST(Pointwise, FloatScalarTimesBf16TensorStaysBf16) {
  Builder b;
  Value x = b.input(Type::tensor(DType::BFloat16, {2}), "x");
  Value y = b.mul(x, b.constant(Number::of_float(1.0 / 3.0), DType::Float64));
  HostTensor out = run_one(b.finish({y}), {doubles(DType::BFloat16, {3, 1})});
  EXPECT_EQ(out.dtype(), DType::BFloat16);
  // The scalar becomes f32 1/3; 3 * that rounds to 1 in f32; 1 * that rounds to bf16 0.333984375.
  EXPECT_EQ(out.to_doubles(), (std::vector<double>{1.0, 0.333984375}));
}

TEST(Pointwise, AScalarNextToAHalfTensorIsNotRoundedToTheHalfType) {
  // The opmath rule: bf16 x - 0.1 computes x - 0.1f in f32. Rounding 0.1 to bf16 first (0.10009765625)
  // would cancel to 0 where x is that bf16 value. The same for f16 (0.1 rounds to 0.0999755859375) and
  // for comparisons.
  for (DType half : {DType::BFloat16, DType::Float16}) {
    SCOPED_TRACE(dtype_name(half));
    Builder b;
    Value x = b.input(Type::tensor(half, {1}), "x");
    Value tenth = b.constant(Number::of_float(0.1), DType::Float64);
    Fusion f = b.finish({b.sub(x, tenth), b.binary(OpKind::Eq, x, tenth)});
    const double near_tenth = half == DType::BFloat16 ? 0.10009765625 : 0.0999755859375;
    std::vector<HostTensor> out = interpret(f, {doubles(half, {near_tenth})});
    EXPECT_EQ(out[0].dtype(), half);
    const double f32_difference = static_cast<double>(static_cast<float>(near_tenth) - 0.1f);
    EXPECT_NE(out[0].get_double(0), 0.0);
    EXPECT_EQ(out[0].get_double(0), round_to_dtype(half, f32_difference));
    EXPECT_EQ(out[1].to_ints(), (std::vector<int64_t>{0}));
  }
}

TEST(Pointwise, ATensorOfAnotherDtypeIsRoundedToTheHalfTypeFirst) {
  // Unlike a scalar, a tensor converts to the common half type first, as a cast: i32 2049 becomes f16
  // 2048 (I32PlusF16IsF16WithOperandsConvertedFirst), in a comparison too.
  HostTensor out = binary(OpKind::Eq, ints(DType::Int32, {2049}), doubles(DType::Float16, {2048}));
  EXPECT_EQ(out.to_ints(), (std::vector<int64_t>{1}));
}

TEST(Pointwise, HalfTypesRoundOnceFromF32) {
  // f16 1 / 3 = 0x3555; bf16 sqrt(2) = 0x3FB5.
  EXPECT_EQ(binary(OpKind::Div, doubles(DType::Float16, {1}), doubles(DType::Float16, {3})).get_double(0),
            0.333251953125);
  EXPECT_EQ(unary(OpKind::Sqrt, doubles(DType::BFloat16, {2})).get_double(0), 1.4140625);
  // bf16 1 + 2^-8 is a tie between 1 and 1 + 2^-7: to even, 1.
  EXPECT_EQ(
      binary(OpKind::Add, doubles(DType::BFloat16, {1}), doubles(DType::BFloat16, {1.0 / 256})).get_double(0),
      1.0);
}

TEST(Pointwise, F64ComputesInDouble) {
  HostTensor out = binary(OpKind::Div, doubles(DType::Float64, {1}), doubles(DType::Float64, {3}));
  EXPECT_EQ(out.get_double(0), 1.0 / 3.0);
}

TEST(Pointwise, I32WrapsAround) {
  EXPECT_EQ(binary(OpKind::Add, ints(DType::Int32, {2147483647}), ints(DType::Int32, {1})).get_int(0),
            -2147483648LL);
  EXPECT_EQ(binary(OpKind::Mul, ints(DType::Int32, {65536}), ints(DType::Int32, {65537})).get_int(0), 65536);
  EXPECT_EQ(binary(OpKind::Sub, ints(DType::Int32, {-2147483648LL}), ints(DType::Int32, {1})).get_int(0),
            2147483647);
  EXPECT_EQ(unary(OpKind::Neg, ints(DType::Int32, {-2147483648LL})).get_int(0), -2147483648LL);
  EXPECT_EQ(unary(OpKind::Abs, ints(DType::Int32, {-5})).get_int(0), 5);
}

TEST(Pointwise, I64IsExactBeyond2To53) {
  const int64_t big = (int64_t{1} << 62) + 1;
  HostTensor out = binary(OpKind::Add, ints(DType::Int64, {big}), ints(DType::Int64, {2}));
  EXPECT_EQ(out.get_int(0), big + 2);
  EXPECT_EQ(
      binary(OpKind::Add, ints(DType::Int64, {std::numeric_limits<int64_t>::max()}), ints(DType::Int64, {1}))
          .get_int(0),
      std::numeric_limits<int64_t>::min());
}

TEST(Pointwise, IntegerDivisionIsTrueDivisionInF32) {
  HostTensor out = binary(OpKind::Div, ints(DType::Int32, {7, 1}), ints(DType::Int32, {2, 0}));
  EXPECT_EQ(out.dtype(), DType::Float32);
  EXPECT_EQ(out.to_doubles(), (std::vector<double>{3.5, kInf}));
}

TEST(Pointwise, IntegerPow) {
  HostTensor out = binary(OpKind::Pow, ints(DType::Int32, {2, 2, -1, 3}), ints(DType::Int32, {10, -1, 3, 0}));
  EXPECT_EQ(out.dtype(), DType::Int32);
  EXPECT_EQ(out.to_ints(), (std::vector<int64_t>{1024, 0, -1, 1}));
}

TEST(Pointwise, MaximumMinimumPropagateNaN) {
  HostTensor a = doubles(DType::Float32, {1, kNaN, 3});
  HostTensor b = doubles(DType::Float32, {2, 0, kNaN});
  HostTensor mx = binary(OpKind::Maximum, a, b);
  HostTensor mn = binary(OpKind::Minimum, a, b);
  EXPECT_EQ(mx.get_double(0), 2);
  EXPECT_EQ(mn.get_double(0), 1);
  for (int i : {1, 2}) {
    EXPECT_TRUE(std::isnan(mx.get_double(i)));
    EXPECT_TRUE(std::isnan(mn.get_double(i)));
  }
  EXPECT_EQ(binary(OpKind::Maximum, ints(DType::Int64, {-3, 5}), ints(DType::Int64, {2, 4})).to_ints(),
            (std::vector<int64_t>{2, 5}));
}

TEST(Pointwise, ComparisonsGiveBool) {
  HostTensor a = doubles(DType::Float32, {1, kNaN, 2});
  HostTensor b = doubles(DType::Float32, {2, kNaN, 2});
  EXPECT_EQ(binary(OpKind::Lt, a, b).to_ints(), (std::vector<int64_t>{1, 0, 0}));
  EXPECT_EQ(binary(OpKind::Le, a, b).to_ints(), (std::vector<int64_t>{1, 0, 1}));
  EXPECT_EQ(binary(OpKind::Eq, a, b).to_ints(), (std::vector<int64_t>{0, 0, 1}));
  EXPECT_EQ(binary(OpKind::Ne, a, b).to_ints(), (std::vector<int64_t>{1, 1, 0}));
  EXPECT_EQ(binary(OpKind::Gt, a, b).to_ints(), (std::vector<int64_t>{0, 0, 0}));
  EXPECT_EQ(binary(OpKind::Ge, a, b).dtype(), DType::Bool);
}

TEST(Pointwise, ComparisonPromotesOperandsFirst) {
  // i32 16777217 compared with f32 happens in f32, where it equals 16777216.
  HostTensor out =
      binary(OpKind::Eq, ints(DType::Int32, {16777217, 3}), doubles(DType::Float32, {16777216, 3.5}));
  EXPECT_EQ(out.to_ints(), (std::vector<int64_t>{1, 0}));
}

TEST(Pointwise, LogicalOps) {
  HostTensor a = doubles(DType::Float32, {0.0, 0.5, kNaN, -0.0});
  HostTensor b = ints(DType::Int32, {3, 3, 0, 0});
  EXPECT_EQ(binary(OpKind::LogicalAnd, a, b).to_ints(), (std::vector<int64_t>{0, 1, 0, 0}));
  EXPECT_EQ(binary(OpKind::LogicalOr, a, b).to_ints(), (std::vector<int64_t>{1, 1, 1, 0}));
  // NaN is true, so not NaN is false.
  EXPECT_EQ(unary(OpKind::LogicalNot, a).to_ints(), (std::vector<int64_t>{1, 0, 0, 1}));
}

TEST(Pointwise, UnaryFloatOpsOnIntegersGiveF32) {
  HostTensor out = unary(OpKind::Exp, ints(DType::Int32, {0, 1}));
  EXPECT_EQ(out.dtype(), DType::Float32);
  EXPECT_EQ(out.get_double(0), 1.0);
  EXPECT_EQ(out.get_double(1), 2.7182817459106445);  // e rounded to f32
  EXPECT_EQ(unary(OpKind::Sigmoid, doubles(DType::Float32, {0})).get_double(0), 0.5);
  EXPECT_EQ(unary(OpKind::Rsqrt, doubles(DType::Float32, {4})).get_double(0), 0.5);
  EXPECT_EQ(unary(OpKind::Reciprocal, doubles(DType::Float16, {0})).get_double(0), kInf);
  EXPECT_TRUE(std::isnan(unary(OpKind::Log, doubles(DType::Float32, {-1})).get_double(0)));
  EXPECT_EQ(unary(OpKind::Neg, doubles(DType::BFloat16, {0})).to_doubles()[0], 0.0);
  EXPECT_TRUE(std::signbit(unary(OpKind::Neg, doubles(DType::BFloat16, {0})).get_double(0)));
}

TEST(Pointwise, WherePicksAndPromotes) {
  Builder b;
  Value c = b.input(Type::tensor(DType::Bool, {3}), "c");
  Value x = b.input(Type::tensor(DType::Int32, {3}), "x");
  Value y = b.where(c, x, b.constant(Number::of_float(0.5), DType::Float64));
  HostTensor out = run_one(b.finish({y}), {ints(DType::Bool, {1, 0, 1}), ints(DType::Int32, {1, 2, 3})});
  EXPECT_EQ(out.dtype(), DType::Float32);
  EXPECT_EQ(out.to_doubles(), (std::vector<double>{1, 0.5, 3}));
}

TEST(Pointwise, ScalarsGiveScalars) {
  Builder b;
  Value x = b.input(Type::scalar(DType::Float32), "x");
  Value y = b.mul(x, b.constant(Number::of_int(3), DType::Int64));
  HostTensor out = run_one(b.finish({y}), {HostTensor::from_doubles(DType::Float32, {}, {1.5})});
  EXPECT_EQ(out.rank(), 0);
  EXPECT_EQ(out.dtype(), DType::Float32);
  EXPECT_EQ(out.get_double(0), 4.5);
}

TEST(Cast, FloatToIntTruncatesSaturatesAndZeroesNaN) {
  HostTensor in = doubles(DType::Float32, {2.7, -2.7, kNaN, 1e10, -1e10, kInf, -kInf, -0.5});
  EXPECT_EQ(cast(in, DType::Int32).to_ints(),
            (std::vector<int64_t>{2, -2, 0, 2147483647, -2147483648LL, 2147483647, -2147483648LL, 0}));
  EXPECT_EQ(cast(in, DType::Int64).to_ints(), (std::vector<int64_t>{2, -2, 0, 10000000000LL, -10000000000LL,
                                                                    std::numeric_limits<int64_t>::max(),
                                                                    std::numeric_limits<int64_t>::min(), 0}));
  EXPECT_EQ(cast(doubles(DType::Float64, {9.3e18, -9.3e18}), DType::Int64).to_ints(),
            (std::vector<int64_t>{std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()}));
}

TEST(Cast, ToBoolIsNonZero) {
  EXPECT_EQ(cast(doubles(DType::Float32, {0, -0.0, 0.1, kNaN, -kInf}), DType::Bool).to_ints(),
            (std::vector<int64_t>{0, 0, 1, 1, 1}));
  EXPECT_EQ(cast(ints(DType::Int64, {0, 1LL << 40, -1}), DType::Bool).to_ints(),
            (std::vector<int64_t>{0, 1, 1}));
}

TEST(Cast, IntToIntWraps) {
  EXPECT_EQ(cast(ints(DType::Int64, {(1LL << 32) + 5, 1LL << 31, -1}), DType::Int32).to_ints(),
            (std::vector<int64_t>{5, -2147483648LL, -1}));
  EXPECT_EQ(cast(ints(DType::Bool, {1, 0}), DType::Int32).to_ints(), (std::vector<int64_t>{1, 0}));
}

TEST(Cast, FloatToFloatRoundsToNearestEven) {
  HostTensor in = doubles(DType::Float32, {0.1, 65520, 1e-8, 1 + 1.0 / 2048, kNaN, -0.0});
  HostTensor half = cast(in, DType::Float16);
  EXPECT_EQ(half.get_double(0), 0.0999755859375);  // f16 0x2E66
  EXPECT_EQ(half.get_double(1), kInf);
  EXPECT_EQ(half.get_double(2), 0.0);  // 1e-8 < 2^-25: rounds to zero
  EXPECT_EQ(half.get_double(3), 1.0);  // tie to even
  EXPECT_TRUE(std::isnan(half.get_double(4)));
  EXPECT_TRUE(std::signbit(half.get_double(5)));
  EXPECT_EQ(cast(doubles(DType::Float16, {65504}), DType::BFloat16).get_double(0), 65536);
  EXPECT_EQ(cast(doubles(DType::BFloat16, {3.0e38}), DType::Float16).get_double(0), kInf);
}

TEST(Cast, IntToFloatRoundsOnce) {
  // 2^60 + 2^36 + 1 is just above the f32 midpoint 2^60 + 2^36: correct rounding goes up to 2^60 + 2^37.
  // Going through double first would land exactly on the midpoint and then tie down to 2^60.
  const int64_t v = (1LL << 60) + (1LL << 36) + 1;
  EXPECT_EQ(cast(ints(DType::Int64, {v}), DType::Float32).get_double(0),
            std::ldexp(1.0, 60) + std::ldexp(1.0, 37));
  EXPECT_EQ(cast(ints(DType::Int32, {2049, 2051, -2049}), DType::Float16).to_doubles(),
            (std::vector<double>{2048, 2052, -2048}));
  EXPECT_EQ(cast(ints(DType::Int32, {257}), DType::BFloat16).get_double(0), 256);
  EXPECT_EQ(cast(ints(DType::Int32, {100000}), DType::Float16).get_double(0), kInf);
  EXPECT_EQ(cast(ints(DType::Bool, {1, 0}), DType::Float32).to_doubles(), (std::vector<double>{1, 0}));
}

}  // namespace
}  // namespace seam

namespace seam {
namespace {

// Every unary and binary op of the table evaluates on every dtype it accepts (the op table drives
// the dispatch, so a new op needs no interpreter edit; this catches one that would not work).
TEST(Pointwise, EveryTableOpEvaluatesOnEveryAcceptedDtype) {
  int evaluated = 0;
  for (int k = 0; k < kNumOpKinds; ++k) {
    const OpKind op = static_cast<OpKind>(k);
    const OpCategory category = op_info(op).category;
    if (category != OpCategory::Unary && category != OpCategory::Binary) continue;
    for (DType dtype : kAllDTypes) {
      Builder b;
      Value x = b.input(Type::tensor(dtype, {4}), "x");
      Value y;
      try {
        y = category == OpCategory::Unary ? b.unary(op, x) : b.binary(op, x, x);
      } catch (const Error&) {
        continue;  // the op rejects this dtype (e.g. neg of bool)
      }
      Fusion f = b.finish({y});
      std::vector<HostTensor> out = interpret(f, random_inputs(f, 5));
      ASSERT_EQ(out.size(), 1u);
      EXPECT_EQ(out[0].dtype(), f.type(y).dtype) << op_name(op);
      EXPECT_EQ(out[0].shape(), (Shape{4})) << op_name(op);
      ++evaluated;
    }
  }
  EXPECT_GT(evaluated, 100);
}

TEST(Pointwise, TranscendentalsMatchTheLibraryRoundedToF32) {
  const double x = 0.375;  // exact in every float dtype
  const std::vector<std::pair<OpKind, double>> cases = {
      {OpKind::Exp, std::exp(x)},   {OpKind::Log, std::log(x)},
      {OpKind::Sin, std::sin(x)},   {OpKind::Cos, std::cos(x)},
      {OpKind::Tanh, std::tanh(x)}, {OpKind::Erf, std::erf(x)},
      {OpKind::Sqrt, std::sqrt(x)}, {OpKind::Sigmoid, 1 / (1 + std::exp(-x))}};
  for (const auto& [op, exact] : cases) {
    EXPECT_EQ(unary(op, doubles(DType::Float32, {x})).get_double(0), static_cast<float>(exact))
        << op_name(op);
    EXPECT_EQ(unary(op, doubles(DType::Float64, {x})).get_double(0), exact) << op_name(op);
  }
}

}  // namespace
}  // namespace seam
