// cumsum against hand-computed results: axes (negative, middle, rank 0), dtypes (integer and bool sums in
// i64 with wrap-around, f16 rounded per output from a wider running sum), shape and dtype rules.
#include <cmath>
#include <cstdint>
#include <limits>

#include "interp_test_util.h"
#include "support/parallel.h"
#include "text/parser.h"
#include "text/printer.h"

namespace seam {
namespace {

using testing_interp::error_of;
using testing_interp::run_one;

HostTensor cumsum(const HostTensor& in, int64_t axis) {
  Builder b;
  Value x = b.input(Type::tensor(in.dtype(), in.shape()), "x");
  return run_one(b.finish({b.cumsum(x, axis)}), {in});
}

const HostTensor kMatrix = HostTensor::from_doubles(DType::Float32, {2, 3}, {1, 2, 3, 4, 5, 6});

TEST(Scan, CumsumAlongEachAxis) {
  HostTensor rows = cumsum(kMatrix, 1);
  EXPECT_EQ(rows.dtype(), DType::Float32);
  EXPECT_EQ(rows.shape(), (Shape{2, 3}));
  EXPECT_EQ(rows.to_doubles(), (std::vector<double>{1, 3, 6, 4, 9, 15}));
  EXPECT_EQ(cumsum(kMatrix, 0).to_doubles(), (std::vector<double>{1, 2, 3, 5, 7, 9}));
  EXPECT_EQ(cumsum(kMatrix, -1).to_doubles(), rows.to_doubles());
  EXPECT_EQ(cumsum(kMatrix, -2).to_doubles(), (std::vector<double>{1, 2, 3, 5, 7, 9}));
}

TEST(Scan, MiddleAxisOf3D) {
  HostTensor in = HostTensor::zeros(DType::Int32, {2, 3, 2});
  for (int64_t i = 0; i < in.numel(); ++i) in.set_int(i, i);
  HostTensor out = cumsum(in, 1);
  EXPECT_EQ(out.dtype(), DType::Int64);  // like torch.cumsum
  // out[i][j][k] = sum_{j' <= j} (6i + 2j' + k)
  std::vector<int64_t> expected;
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 3; ++j)
      for (int64_t k = 0; k < 2; ++k) {
        int64_t s = 0;
        for (int64_t jj = 0; jj <= j; ++jj) s += 6 * i + 2 * jj + k;
        expected.push_back(s);
      }
  EXPECT_EQ(out.to_ints(), expected);
}

TEST(Scan, BoolCountsTrueValuesInI64) {
  HostTensor in = HostTensor::from_ints(DType::Bool, {5}, {1, 0, 1, 1, 0});
  HostTensor out = cumsum(in, 0);
  EXPECT_EQ(out.dtype(), DType::Int64);
  EXPECT_EQ(out.to_ints(), (std::vector<int64_t>{1, 1, 2, 3, 3}));
}

TEST(Scan, IntegerSumsWrapAround) {
  const int64_t max = std::numeric_limits<int64_t>::max();
  HostTensor in = HostTensor::from_ints(DType::Int64, {3}, {max, 1, 1});
  EXPECT_EQ(cumsum(in, 0).to_ints(), (std::vector<int64_t>{max, std::numeric_limits<int64_t>::min(),
                                                           std::numeric_limits<int64_t>::min() + 1}));
}

TEST(Scan, HalfOutputsAreRoundedFromAWiderRunningSum) {
  // 2048 + 1 is not an f16 (spacing 2 there): each output rounds (to even) on its own, while the running
  // sum keeps the ones, so the fourth output is 2051 -> 2052, not 2048 + 1 + 1 + 1 rounded step by step.
  HostTensor in = HostTensor::from_doubles(DType::Float16, {4}, {2048, 1, 1, 1});
  HostTensor out = cumsum(in, 0);
  EXPECT_EQ(out.dtype(), DType::Float16);
  EXPECT_EQ(out.to_doubles(), (std::vector<double>{2048, 2048, 2050, 2052}));
}

TEST(Scan, RankZeroAndEmptyTensors) {
  HostTensor scalar = HostTensor::from_doubles(DType::BFloat16, {}, {2.5});
  EXPECT_EQ(cumsum(scalar, 0).to_doubles(), (std::vector<double>{2.5}));
  EXPECT_EQ(cumsum(scalar, -1).to_doubles(), (std::vector<double>{2.5}));
  HostTensor empty = HostTensor::zeros(DType::Float32, {3, 0});
  EXPECT_EQ(cumsum(empty, 1).shape(), (Shape{3, 0}));
  EXPECT_EQ(cumsum(empty, 0).shape(), (Shape{3, 0}));
}

TEST(Scan, NaNAndInfinityPropagateForward) {
  const double inf = std::numeric_limits<double>::infinity();
  HostTensor in = HostTensor::from_doubles(DType::Float32, {4}, {1, inf, 1, -inf});
  std::vector<double> out = cumsum(in, 0).to_doubles();
  EXPECT_EQ(out[0], 1);
  EXPECT_EQ(out[1], inf);
  EXPECT_EQ(out[2], inf);
  EXPECT_TRUE(std::isnan(out[3]));
}

TEST(Scan, ManyThreadsGiveOneThreadsBits) {
  std::mt19937_64 rng(7);
  HostTensor in = HostTensor::random(DType::Float32, {64, 3000}, rng);
  HostTensor one, many;
  {
    ScopedWorkerThreads threads(1);
    one = cumsum(in, 1);
  }
  {
    ScopedWorkerThreads threads(4);
    many = cumsum(in, 1);
  }
  EXPECT_EQ(one.storage(), many.storage());
}

TEST(Scan, BadOperandsAndAxesAreErrors) {
  Builder b;
  Value x = b.input(Type::tensor(DType::Float32, {2, 3}), "x");
  EXPECT_NE(error_of([&] { b.cumsum(x, 2); }).find("axis 2 out of range"), std::string::npos);
  EXPECT_NE(error_of([&] { b.cumsum(x, -3); }).find("cumsum"), std::string::npos);
  Value s = b.input(Type::scalar(DType::Float32), "s");
  EXPECT_NE(error_of([&] { b.cumsum(s, 0); }).find("needs a tensor operand"), std::string::npos);
}

TEST(Scan, TextRoundTripCountsAxesFromTheStart) {
  const Fusion f = parse_fusion(R"(fusion f {
  %0 = input : i32[2,3]
  %1 = cumsum %0 {axis=-1} : i64[2,3]
  return %1
})");
  EXPECT_EQ(f.node(Value{1}).attrs.get_int("axis"), 1);
  EXPECT_NE(print_fusion(f).find("cumsum %0 {axis=1} : i64[2,3]"), std::string::npos) << print_fusion(f);
  EXPECT_NE(
      error_of([] {
        parse_fusion(
            "fusion f {\n  %0 = input : i32[2,3]\n  %1 = cumsum %0 {axis=1} : i32[2,3]\n  return %1\n}");
      }).find("i64"),
      std::string::npos);
}

}  // namespace
}  // namespace seam
