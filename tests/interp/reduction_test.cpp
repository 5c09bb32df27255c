// Reductions, opaque ops and leaves against hand-computed results.
#include <cmath>
#include <limits>

#include "interp_test_util.h"

namespace seam {
namespace {

using testing_interp::run_one;

HostTensor reduce(OpKind op, const HostTensor& in, std::vector<int64_t> axes, bool keepdim) {
  Builder b;
  Value x = b.input(Type::tensor(in.dtype(), in.shape()), "x");
  return run_one(b.finish({b.reduce(op, x, std::move(axes), keepdim)}), {in});
}

const HostTensor kMatrix = HostTensor::from_doubles(DType::Float32, {2, 3}, {1, 2, 3, 4, 5, 6});

TEST(Reduction, SumOverOneAxis) {
  HostTensor rows = reduce(OpKind::Sum, kMatrix, {1}, false);
  EXPECT_EQ(rows.shape(), (Shape{2}));
  EXPECT_EQ(rows.to_doubles(), (std::vector<double>{6, 15}));
  HostTensor cols = reduce(OpKind::Sum, kMatrix, {0}, true);
  EXPECT_EQ(cols.shape(), (Shape{1, 3}));
  EXPECT_EQ(cols.to_doubles(), (std::vector<double>{5, 7, 9}));
}

TEST(Reduction, SumOverAllAxes) {
  HostTensor all = reduce(OpKind::Sum, kMatrix, {0, 1}, false);
  EXPECT_EQ(all.rank(), 0);
  EXPECT_EQ(all.get_double(0), 21);
  HostTensor kept = reduce(OpKind::Sum, kMatrix, {0, 1}, true);
  EXPECT_EQ(kept.shape(), (Shape{1, 1}));
}

TEST(Reduction, MiddleAxisOf3D) {
  HostTensor in = HostTensor::zeros(DType::Int32, {2, 3, 2});
  for (int64_t i = 0; i < in.numel(); ++i) in.set_int(i, i);
  // out[i][k] = sum_j in[i][j][k] = sum_j (6i + 2j + k) = 18i + 6 + 3k
  HostTensor out = reduce(OpKind::Sum, in, {1}, true);
  EXPECT_EQ(out.shape(), (Shape{2, 1, 2}));
  EXPECT_EQ(out.dtype(), DType::Int64);
  EXPECT_EQ(out.to_ints(), (std::vector<int64_t>{6, 9, 24, 27}));
  EXPECT_EQ(reduce(OpKind::Max, in, {0, 2}, false).to_ints(), (std::vector<int64_t>{7, 9, 11}));
  EXPECT_EQ(reduce(OpKind::Min, in, {0, 2}, false).to_ints(), (std::vector<int64_t>{0, 2, 4}));
}

TEST(Reduction, IntegerSumIsI64WithoutI32Overflow) {
  HostTensor in = HostTensor::from_ints(DType::Int32, {2}, {2147483647, 1});
  HostTensor out = reduce(OpKind::Sum, in, {0}, false);
  EXPECT_EQ(out.dtype(), DType::Int64);
  EXPECT_EQ(out.get_int(0), 2147483648LL);
  HostTensor flags = HostTensor::from_ints(DType::Bool, {4}, {1, 0, 1, 1});
  EXPECT_EQ(reduce(OpKind::Sum, flags, {0}, false).get_int(0), 3);
}

TEST(Reduction, Bf16SumRoundsOnce) {
  // 1 + 2^-8 + 2^-8 = 1 + 2^-7 exactly; rounding after each add would give 1 twice (ties to even).
  HostTensor in = HostTensor::from_doubles(DType::BFloat16, {3}, {1, 1.0 / 256, 1.0 / 256});
  EXPECT_EQ(reduce(OpKind::Sum, in, {0}, false).get_double(0), 1.0078125);
}

TEST(Reduction, MaxMinPropagateNaN) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  HostTensor in = HostTensor::from_doubles(DType::Float32, {2, 3}, {1, nan, 3, -4, 5, -6});
  HostTensor mx = reduce(OpKind::Max, in, {1}, false);
  HostTensor mn = reduce(OpKind::Min, in, {1}, false);
  EXPECT_TRUE(std::isnan(mx.get_double(0)));
  EXPECT_TRUE(std::isnan(mn.get_double(0)));
  EXPECT_EQ(mx.get_double(1), 5);
  EXPECT_EQ(mn.get_double(1), -6);
  // NaN first or last makes no difference.
  HostTensor last = HostTensor::from_doubles(DType::Float32, {2}, {1, nan});
  EXPECT_TRUE(std::isnan(reduce(OpKind::Max, last, {0}, false).get_double(0)));
}

TEST(Reduction, EmptySumIsZero) {
  HostTensor out = reduce(OpKind::Sum, HostTensor::zeros(DType::Float16, {0, 3}), {0}, false);
  EXPECT_EQ(out.shape(), (Shape{3}));
  EXPECT_EQ(out.to_doubles(), (std::vector<double>{0, 0, 0}));
}

TEST(Opaque, Matmul) {
  Builder b;
  Value x = b.input(Type::tensor(DType::Float32, {2, 3}), "x");
  Value w = b.input(Type::tensor(DType::Float32, {3, 2}), "w");
  HostTensor out = run_one(b.finish({b.matmul(x, w)}),
                           {kMatrix, HostTensor::from_doubles(DType::Float32, {3, 2}, {1, 0, 0, 1, 1, -1})});
  // [[1,2,3],[4,5,6]] @ [[1,0],[0,1],[1,-1]] = [[4,-1],[10,-1]]
  EXPECT_EQ(out.shape(), (Shape{2, 2}));
  EXPECT_EQ(out.to_doubles(), (std::vector<double>{4, -1, 10, -1}));
}

TEST(Opaque, MatmulBroadcastsBatchAxes) {
  // a: [2,1,2,2], b: [3,2,2] -> [2,3,2,2]; out[p][q] = a[p][0] @ b[q].
  HostTensor a = HostTensor::zeros(DType::Float64, {2, 1, 2, 2});
  HostTensor bt = HostTensor::zeros(DType::Float64, {3, 2, 2});
  for (int64_t i = 0; i < a.numel(); ++i) a.set_int(i, i + 1);
  for (int64_t i = 0; i < bt.numel(); ++i) bt.set_int(i, (i % 5) - 2);
  Builder b;
  Value x = b.input(Type::tensor(DType::Float64, a.shape()), "a");
  Value y = b.input(Type::tensor(DType::Float64, bt.shape()), "b");
  HostTensor out = run_one(b.finish({b.matmul(x, y)}), {a, bt});
  ASSERT_EQ(out.shape(), (Shape{2, 3, 2, 2}));
  std::vector<double> av = a.to_doubles(), bv = bt.to_doubles(), expected;
  for (int p = 0; p < 2; ++p)
    for (int q = 0; q < 3; ++q)
      for (int r = 0; r < 2; ++r)
        for (int c = 0; c < 2; ++c)
          expected.push_back(av[p * 4 + r * 2 + 0] * bv[q * 4 + 0 * 2 + c] +
                             av[p * 4 + r * 2 + 1] * bv[q * 4 + 1 * 2 + c]);
  EXPECT_EQ(out.to_doubles(), expected);
}

TEST(Opaque, EmptyInnerExtentGivesZeros) {
  Builder b;
  Value x = b.input(Type::tensor(DType::Float32, {2, 0}), "x");
  Value w = b.input(Type::tensor(DType::Float32, {0, 3}), "w");
  Value wt = b.input(Type::tensor(DType::Float32, {3, 0}), "wt");
  std::vector<HostTensor> out =
      interpret(b.finish({b.matmul(x, w), b.linear(x, wt)}),
                {HostTensor::zeros(DType::Float32, {2, 0}), HostTensor::zeros(DType::Float32, {0, 3}),
                 HostTensor::zeros(DType::Float32, {3, 0})});
  EXPECT_EQ(out[0].shape(), (Shape{2, 3}));
  EXPECT_EQ(out[0].to_doubles(), std::vector<double>(6, 0.0));
  EXPECT_EQ(out[1].to_doubles(), std::vector<double>(6, 0.0));
}

TEST(Opaque, Bf16MatmulRoundsOnce) {
  // 1*1 + 2^-8 * 1 + 2^-8 * 1 = 1 + 2^-7, exact only when accumulated before rounding.
  Builder b;
  Value x = b.input(Type::tensor(DType::BFloat16, {1, 3}), "x");
  Value w = b.input(Type::tensor(DType::BFloat16, {3, 1}), "w");
  HostTensor out = run_one(b.finish({b.matmul(x, w)}),
                           {HostTensor::from_doubles(DType::BFloat16, {1, 3}, {1, 1.0 / 256, 1.0 / 256}),
                            HostTensor::from_doubles(DType::BFloat16, {3, 1}, {1, 1, 1})});
  EXPECT_EQ(out.get_double(0), 1.0078125);
}

TEST(Opaque, LinearWithAndWithoutBias) {
  // x [2,3] @ w^T, w [2,3] = [[1,0,1],[0,2,0]] -> [[4,4],[10,10]]; + bias [0.5, -1].
  HostTensor w = HostTensor::from_doubles(DType::Float32, {2, 3}, {1, 0, 1, 0, 2, 0});
  HostTensor bias = HostTensor::from_doubles(DType::Float32, {2}, {0.5, -1});
  Builder b1;
  Value x1 = b1.input(Type::tensor(DType::Float32, {2, 3}), "x");
  Value w1 = b1.input(Type::tensor(DType::Float32, {2, 3}), "w");
  EXPECT_EQ(run_one(b1.finish({b1.linear(x1, w1)}), {kMatrix, w}).to_doubles(),
            (std::vector<double>{4, 4, 10, 10}));
  Builder b2;
  Value x2 = b2.input(Type::tensor(DType::Float32, {1, 2, 3}), "x");
  Value w2 = b2.input(Type::tensor(DType::Float32, {2, 3}), "w");
  Value bias2 = b2.input(Type::tensor(DType::Float32, {2}), "bias");
  HostTensor x3 = HostTensor::from_doubles(DType::Float32, {1, 2, 3}, {1, 2, 3, 4, 5, 6});
  HostTensor out = run_one(b2.finish({b2.linear(x2, w2, bias2)}), {x3, w, bias});
  EXPECT_EQ(out.shape(), (Shape{1, 2, 2}));
  EXPECT_EQ(out.to_doubles(), (std::vector<double>{4.5, 3, 10.5, 9}));
}

TEST(Leaves, ConstFullIota) {
  Builder b;
  Value c = b.constant(Number::of_int(2049), DType::Float16);
  Value f = b.full({2, 2}, DType::BFloat16, Number::of_float(0.1));
  Value i = b.iota(4, DType::Float32, Number::of_float(0.5), Number::of_float(0.25));
  Value j = b.iota(3, DType::Int32, Number::of_int(5), Number::of_int(-2));
  Value wrap = b.iota(2, DType::Int32, Number::of_int(2147483647), Number::of_int(1));
  Value t = b.constant(Number::of_bool(true), DType::Int64);
  std::vector<HostTensor> out = interpret(b.finish({c, f, i, j, wrap, t}), {});
  ASSERT_EQ(out.size(), 6u);
  EXPECT_EQ(out[0].rank(), 0);
  EXPECT_EQ(out[0].get_double(0), 2048);  // 2049 rounds to even in f16
  EXPECT_EQ(out[1].to_doubles(), std::vector<double>(4, 0.10009765625));
  EXPECT_EQ(out[2].to_doubles(), (std::vector<double>{0.5, 0.75, 1.0, 1.25}));
  EXPECT_EQ(out[3].dtype(), DType::Int32);
  EXPECT_EQ(out[3].to_ints(), (std::vector<int64_t>{5, 3, 1}));
  EXPECT_EQ(out[4].to_ints(), (std::vector<int64_t>{2147483647, -2147483648LL}));  // wraps like a cast
  EXPECT_EQ(out[5].dtype(), DType::Int64);
  EXPECT_EQ(out[5].get_int(0), 1);
}

}  // namespace
}  // namespace seam
