// compare_outputs: elements whose reference moves beyond the tolerance when the interpreter's inexact
// floating results are nudged (interp/perturbation.h) are excused, and only those.
#include <gtest/gtest.h>

#include <cmath>

#include "interp/compare.h"
#include "interp/interpreter.h"
#include "interp/perturbation.h"
#include "ir/builder.h"

namespace seam {
namespace {

Tolerance f32_tolerance(DType dtype) { return is_floating(dtype) ? Tolerance{1e-5, 1e-5} : Tolerance{0, 0}; }

// trunc(rsqrt(x)) as i64, and exp(x): the host's rsqrt (1/sqrt in f32, two roundings) gives 1 at
// x = nextafter(1, 2) where the correctly rounded 0.99999994 truncates to 0.
struct RsqrtCase {
  Fusion fusion;
  std::vector<HostTensor> inputs;
};
RsqrtCase rsqrt_case() {
  Builder b("rsqrt_truncated");
  Value x = b.input(Type::tensor(DType::Float32, {3}), "x");
  Value truncated = b.cast(b.unary(OpKind::Rsqrt, x), DType::Int64);
  Fusion fusion = b.finish({truncated, b.unary(OpKind::Exp, x)});
  const double just_above_one = std::nextafter(1.0f, 2.0f);
  return {std::move(fusion), {HostTensor::from_doubles(DType::Float32, {3}, {just_above_one, 0.3, 4.0})}};
}

TEST(IllConditioned, PerturbedReferenceMovesOnlyWhereIllConditioned) {
  const RsqrtCase c = rsqrt_case();
  const std::vector<HostTensor> exact = interpret(c.fusion, c.inputs);
  EXPECT_EQ(exact[0].get_int(0), 0);
  for (Perturbation::Direction direction : {Perturbation::Direction::Up, Perturbation::Direction::Down}) {
    Perturbation nudge;
    nudge.direction = direction;
    const std::vector<HostTensor> nudged = interpret_perturbed(c.fusion, c.inputs, nudge);
    EXPECT_EQ(nudged[0].get_int(0), direction == Perturbation::Direction::Up ? 1 : 0);
    EXPECT_EQ(nudged[0].get_int(1), 1);  // rsqrt(0.3) = 1.83 moves by 2^-20 only
    EXPECT_EQ(nudged[0].get_int(2), 0);
    EXPECT_TRUE(compare_tensors(nudged[1], exact[1], f32_tolerance(DType::Float32)).ok);
    EXPECT_NE(nudged[1].get_double(2), exact[1].get_double(2));  // exp is nudged
  }
}

TEST(IllConditioned, CompareOutputsExcusesOnlyIllConditionedElements) {
  const RsqrtCase c = rsqrt_case();
  const std::vector<HostTensor> expected = interpret(c.fusion, c.inputs);
  std::vector<HostTensor> actual = expected;
  actual[0].set_int(0, 1);  // what 1/sqrtf gives: excused
  std::vector<Comparison> result = compare_outputs(c.fusion, c.inputs, actual, expected, f32_tolerance);
  EXPECT_TRUE(result[0].ok) << result[0].message;
  EXPECT_EQ(result[0].excused, 1);
  EXPECT_TRUE(result[1].ok);

  actual[0].set_int(2, 1);  // rsqrt(4) = 0.5 is far from a whole number: a real mismatch
  actual[1].set_double(2, expected[1].get_double(2) * (1 + 1e-4));  // exp off by 1e-4: a real mismatch
  result = compare_outputs(c.fusion, c.inputs, actual, expected, f32_tolerance);
  EXPECT_FALSE(result[0].ok);
  EXPECT_EQ(result[0].mismatches, 1);
  EXPECT_EQ(result[0].excused, 1);
  EXPECT_NE(result[0].message.find("1 ill-conditioned elements excused"), std::string::npos)
      << result[0].message;
  EXPECT_FALSE(result[1].ok);
  EXPECT_EQ(result[1].excused, 0);
}

// A remainder by a value one f32 ulp off: the seed-9023 chain (sigmoid, then remainder of a large
// dividend). The nudged divisor moves the remainder far beyond the tolerance.
TEST(IllConditioned, RemainderOfALargeDividendIsIllConditioned) {
  Builder b("remainder_chain");
  Value x = b.input(Type::tensor(DType::Float32, {1}), "x");
  Value big = b.input(Type::tensor(DType::Float32, {1}), "big");
  Fusion fusion = b.finish({b.binary(OpKind::Remainder, big, b.unary(OpKind::Sigmoid, x))});
  const std::vector<HostTensor> inputs = {HostTensor::from_doubles(DType::Float32, {1}, {-6.0}),
                                          HostTensor::from_doubles(DType::Float32, {1}, {1e6})};
  const std::vector<HostTensor> expected = interpret(fusion, inputs);
  std::vector<HostTensor> actual = expected;
  const double divisor = 1.0 / (1.0 + std::exp(6.0));
  actual[0].set_double(
      0, std::fmod(1e6, static_cast<double>(std::nextafter(static_cast<float>(divisor), 1.0f))));
  ASSERT_FALSE(compare_tensors(actual[0], expected[0], f32_tolerance(DType::Float32)).ok);
  const std::vector<Comparison> result = compare_outputs(fusion, inputs, actual, expected, f32_tolerance);
  EXPECT_TRUE(result[0].ok) << result[0].message;
  EXPECT_EQ(result[0].excused, 1);
}

TEST(IllConditioned, ExactResultsAreNotNudged) {
  for (OpKind op : {OpKind::Floor, OpKind::Neg, OpKind::Maximum, OpKind::Fmod, OpKind::Nextafter, OpKind::Max,
                    OpKind::Cast, OpKind::Where, OpKind::Slice, OpKind::Uniform, OpKind::Gather})
    EXPECT_FALSE(has_inexact_floating_result(op)) << op_name(op);
  for (OpKind op : {OpKind::Add, OpKind::Div, OpKind::Exp, OpKind::Lgamma, OpKind::Remainder, OpKind::Atan2,
                    OpKind::Sum, OpKind::Prod, OpKind::Matmul})
    EXPECT_TRUE(has_inexact_floating_result(op)) << op_name(op);
}

}  // namespace
}  // namespace seam
