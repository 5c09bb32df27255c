// scatter against hand-computed results (torch.scatter's values; negative indices wrapped once), its
// shape and dtype rules, duplicates (the latest along the axis wins), and the error an index out of
// range raises.
#include "interp_test_util.h"

namespace seam {
namespace {

using testing_interp::error_of;
using testing_interp::f32;
using testing_interp::run_one;

HostTensor counting(DType dtype, Shape shape, int64_t from = 0) {
  HostTensor t = HostTensor::zeros(dtype, std::move(shape));
  for (int64_t i = 0; i < t.numel(); ++i) t.set_int(i, from + i);
  return t;
}

// scatter(x, axis, index, src) with x = 0, 1, 2, ... (f32 `data`), the index's values and
// src = 100, 101, ... (f32 `src`).
HostTensor run_scatter(const Shape& data, int64_t axis, DType index_dtype, const Shape& index_shape,
                       const std::vector<int64_t>& index_values, const Shape& src) {
  Builder b;
  Value x = b.input(f32(data), "x");
  Value i = b.input(Type::tensor(index_dtype, index_shape), "i");
  Value s = b.input(f32(src), "s");
  return run_one(
      b.finish({b.scatter(x, axis, i, s)}),
      {counting(DType::Float32, data), HostTensor::from_ints(index_dtype, index_shape, index_values),
       counting(DType::Float32, src, 100)});
}

TEST(Scatter, RowsAlongAxisZero) {
  // torch.scatter(arange(12.).reshape(4, 3), 0, [[3, 0, 1], [-4, 2, 3]], 100 + arange(6.).reshape(2, 3)):
  // index element [i][j] writes src[i][j] to out[index[i][j]][j]; -4 wraps to 0.
  HostTensor out = run_scatter({4, 3}, 0, DType::Int64, {2, 3}, {3, 0, 1, -4, 2, 3}, {2, 3});
  EXPECT_EQ(out.shape(), (Shape{4, 3}));
  EXPECT_EQ(out.to_ints(), (std::vector<int64_t>{103, 101, 2, 3, 4, 102, 6, 104, 8, 100, 10, 105}));
}

TEST(Scatter, ColumnsWithASmallerIndexAndSource) {
  // Along the last axis (-1), an index [1, 2] smaller than the data [2, 4] and than the source [2, 3]:
  // only row 0 is written, at columns 3 and 1, from src[0][0] and src[0][1].
  HostTensor out = run_scatter({2, 4}, -1, DType::Int32, {1, 2}, {3, -3}, {2, 3});
  EXPECT_EQ(out.to_ints(), (std::vector<int64_t>{0, 101, 2, 100, 4, 5, 6, 7}));
}

TEST(Scatter, TheIndexMayBeLongerThanTheDataAlongTheAxis) {
  // Five writes into an axis of two (torch allows an index up to the source's extent there): the latest
  // along the axis wins, here src[4] at position 1 and src[3] at position 0.
  HostTensor out = run_scatter({2}, 0, DType::Int64, {5}, {0, 1, 1, 0, -1}, {5});
  EXPECT_EQ(out.to_ints(), (std::vector<int64_t>{103, 104}));
}

TEST(Scatter, ScalarSourceConvertedToTheDataDtype) {
  Builder b;
  Value x = b.input(Type::tensor(DType::Int32, {2, 3}), "x");
  Value i = b.input(Type::tensor(DType::Int64, {2, 1}), "i");
  Value v = b.input(Type::scalar(DType::Float64), "v");
  HostTensor out =
      run_one(b.finish({b.scatter(x, 1, i, v)}),
              {counting(DType::Int32, {2, 3}), HostTensor::from_ints(DType::Int64, {2, 1}, {2, 0}),
               HostTensor::from_doubles(DType::Float64, {}, {-7.9})});
  // -7.9 converted to i32 as `cast` converts: truncated to -7.
  EXPECT_EQ(out.to_ints(), (std::vector<int64_t>{0, 1, -7, -7, 4, 5}));
  Builder c;
  Value y = c.input(Type::tensor(DType::BFloat16, {3}), "y");
  Value j = c.input(Type::tensor(DType::Int64, {1}), "j");
  HostTensor half =
      run_one(c.finish({c.scatter(y, 0, j, c.constant(Number::of_float(1.0 / 3.0), DType::Float64))}),
              {counting(DType::BFloat16, {3}), HostTensor::from_ints(DType::Int64, {1}, {1})});
  EXPECT_EQ(half.get_double(1), 0.333984375);  // 1/3 rounded once to bf16
  EXPECT_EQ(half.get_double(2), 2.0);
}

TEST(Scatter, EmptyIndexLeavesTheData) {
  HostTensor out = run_scatter({2, 3}, 1, DType::Int64, {2, 0}, {}, {2, 3});
  EXPECT_EQ(out.to_ints(), (std::vector<int64_t>{0, 1, 2, 3, 4, 5}));
  HostTensor empty = run_scatter({0, 3}, 0, DType::Int64, {0, 3}, {}, {0, 3});
  EXPECT_EQ(empty.shape(), (Shape{0, 3}));
}

TEST(Scatter, OutOfRangeIndexNamesOpAndIndex) {
  const std::string high = error_of([] { run_scatter({3, 2}, 0, DType::Int64, {1, 2}, {1, 3}, {1, 2}); });
  EXPECT_NE(high.find("scatter %3: index 3 is out of range for axis 0 of extent 3 (valid: -3 to 2)"),
            std::string::npos)
      << high;
  EXPECT_NE(high.find("index element [0,1]"), std::string::npos) << high;
  const std::string low = error_of([] { run_scatter({2, 3}, 1, DType::Int32, {2, 1}, {0, -4}, {2, 1}); });
  EXPECT_NE(low.find("scatter %3: index -4"), std::string::npos) << low;
}

TEST(Scatter, ShapeAndDtypeRules) {
  Builder b;
  Value x = b.input(f32({2, 3}), "x");
  Value src = b.input(f32({2, 3}), "src");
  Value halves = b.input(Type::tensor(DType::BFloat16, {2, 3}), "halves");
  Value ids = b.input(Type::tensor(DType::Int64, {2, 3}), "ids");
  Value floats = b.input(f32({2, 3}), "floats");
  Value flat = b.input(Type::tensor(DType::Int64, {6}), "flat");
  Value wide = b.input(Type::tensor(DType::Int64, {2, 4}), "wide");
  Value tall = b.input(Type::tensor(DType::Int64, {3, 3}), "tall");
  Value small_src = b.input(f32({1, 3}), "small_src");
  Value empty = b.input(f32({0, 3}), "empty");
  Value scalar_index = b.input(Type::scalar(DType::Int64), "k");
  auto message = [](auto body) { return error_of(body); };
  EXPECT_NE(message([&] { b.scatter(x, 0, floats, src); }).find("must be a tensor of an integer dtype"),
            std::string::npos);
  EXPECT_NE(message([&] { b.scatter(x, 0, scalar_index, src); }).find("must be a tensor of an integer dtype"),
            std::string::npos);
  EXPECT_NE(message([&] { b.scatter(x, 0, flat, src); }).find("must have the data's rank 2"),
            std::string::npos);
  EXPECT_NE(message([&] { b.scatter(x, 0, ids, halves); }).find("must have the data's dtype f32"),
            std::string::npos);
  EXPECT_NE(message([&] { b.scatter(x, 0, ids, b.input(f32({6}), "v")); }).find("must have the data's rank"),
            std::string::npos);
  EXPECT_NE(message([&] { b.scatter(x, 0, wide, src); }).find("larger than the data f32[2,3] on axis 1"),
            std::string::npos);
  EXPECT_NE(
      message([&] { b.scatter(x, 0, ids, small_src); }).find("larger than the source f32[1,3] on axis 0"),
      std::string::npos);
  EXPECT_NE(message([&] { b.scatter(empty, 0, ids, src); }).find("cannot index axis 0 of extent 0"),
            std::string::npos);
  EXPECT_NE(message([&] { b.scatter(x, 2, ids, src); }).find("axis 2 out of range"), std::string::npos);
  EXPECT_NE(message([&] {
              b.scatter(b.input(Type::scalar(DType::Float32), "s"), 0, ids, src);
            }).find("axis 0 out of range for rank 0"),
            std::string::npos);
  // Along the axis the index may exceed the data (up to the source); the result is the data's type.
  EXPECT_EQ(b.type(b.scatter(x, 0, tall, b.input(f32({3, 3}), "tall_src"))), f32({2, 3}));
  EXPECT_EQ(b.type(b.scatter(x, -1, ids, b.constant(Number::of_int(1), DType::Int64))), f32({2, 3}));
  EXPECT_EQ(b.type(b.scatter(empty, 1, b.input(Type::tensor(DType::Int32, {0, 2}), "none"), empty)),
            f32({0, 3}));
}

}  // namespace
}  // namespace seam
