// Movement ops against hand-written index maps.
#include "interp_test_util.h"

namespace seam {
namespace {

using testing_interp::run_one;

// 0, 1, 2, ... as a tensor of the shape.
HostTensor counting(DType dtype, Shape shape) {
  HostTensor t = HostTensor::zeros(dtype, std::move(shape));
  for (int64_t i = 0; i < t.numel(); ++i) t.set_int(i, i);
  return t;
}

// Builds x -> op(x) with the builder call `make` and runs it on `in`.
template <typename Make>
HostTensor run_movement(const HostTensor& in, Make make) {
  Builder b;
  Value x = b.input(Type::tensor(in.dtype(), in.shape()), "x");
  return run_one(b.finish({make(b, x)}), {in});
}

TEST(Movement, Broadcast) {
  HostTensor out = run_movement(counting(DType::Float32, {2, 3}), [](Builder& b, Value x) {
    return b.broadcast(x, {0, 2});
  });
  EXPECT_EQ(out.shape(), (Shape{1, 2, 1, 3}));
  EXPECT_EQ(out.to_ints(), (std::vector<int64_t>{0, 1, 2, 3, 4, 5}));
}

TEST(Movement, Expand) {
  HostTensor out = run_movement(counting(DType::Int32, {3, 1}), [](Builder& b, Value x) {
    return b.expand(x, {3, 2});
  });
  EXPECT_EQ(out.shape(), (Shape{3, 2}));
  EXPECT_EQ(out.to_ints(), (std::vector<int64_t>{0, 0, 1, 1, 2, 2}));
  HostTensor row = run_movement(counting(DType::Int32, {1, 3}), [](Builder& b, Value x) {
    return b.expand(x, {2, 3});
  });
  EXPECT_EQ(row.to_ints(), (std::vector<int64_t>{0, 1, 2, 0, 1, 2}));
}

TEST(Movement, Squeeze) {
  HostTensor out = run_movement(counting(DType::Int64, {1, 3, 1}), [](Builder& b, Value x) {
    return b.squeeze(x, {0, 2});
  });
  EXPECT_EQ(out.shape(), (Shape{3}));
  EXPECT_EQ(out.to_ints(), (std::vector<int64_t>{0, 1, 2}));
}

TEST(Movement, ReshapeIsRowMajor) {
  HostTensor out = run_movement(counting(DType::Float32, {2, 3}), [](Builder& b, Value x) {
    return b.reshape(x, {3, 1, 2});
  });
  EXPECT_EQ(out.shape(), (Shape{3, 1, 2}));
  EXPECT_EQ(out.to_ints(), (std::vector<int64_t>{0, 1, 2, 3, 4, 5}));
}

TEST(Movement, Permute2D) {
  HostTensor out = run_movement(counting(DType::Float32, {2, 3}), [](Builder& b, Value x) {
    return b.permute(x, {1, 0});
  });
  EXPECT_EQ(out.shape(), (Shape{3, 2}));
  EXPECT_EQ(out.to_ints(), (std::vector<int64_t>{0, 3, 1, 4, 2, 5}));
}

TEST(Movement, Permute3D) {
  // Output axis d is input axis perm[d]: out[i][j][k] = in[j][k][i] for perm {2, 0, 1}.
  HostTensor out = run_movement(counting(DType::Int32, {2, 3, 4}), [](Builder& b, Value x) {
    return b.permute(x, {2, 0, 1});
  });
  ASSERT_EQ(out.shape(), (Shape{4, 2, 3}));
  std::vector<int64_t> expected;
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t j = 0; j < 2; ++j)
      for (int64_t k = 0; k < 3; ++k) expected.push_back(j * 12 + k * 4 + i);
  EXPECT_EQ(out.to_ints(), expected);
}

TEST(Movement, StridedSlice) {
  HostTensor out = run_movement(counting(DType::Int32, {10}),
                                [](Builder& b, Value x) { return b.slice(x, {1}, {8}, {3}); });
  EXPECT_EQ(out.to_ints(), (std::vector<int64_t>{1, 4, 7}));
  HostTensor stop_between = run_movement(counting(DType::Int32, {10}),
                                         [](Builder& b, Value x) { return b.slice(x, {2}, {9}, {3}); });
  EXPECT_EQ(stop_between.to_ints(), (std::vector<int64_t>{2, 5, 8}));
}

TEST(Movement, Slice2D) {
  // rows 1..3 step 2 -> {1, 3}; columns 0..4 step 2 -> {0, 2} of a [4,5] counting tensor.
  HostTensor out = run_movement(counting(DType::Float32, {4, 5}), [](Builder& b, Value x) {
    return b.slice(x, {1, 0}, {4, 4}, {2, 2});
  });
  EXPECT_EQ(out.shape(), (Shape{2, 2}));
  EXPECT_EQ(out.to_ints(), (std::vector<int64_t>{5, 7, 15, 17}));
  HostTensor empty = run_movement(counting(DType::Float32, {4, 5}), [](Builder& b, Value x) {
    return b.slice(x, {2, 0}, {2, 5}, {1, 1});
  });
  EXPECT_EQ(empty.shape(), (Shape{0, 5}));
}

TEST(Movement, PadAndNegativePad) {
  HostTensor in = HostTensor::from_ints(DType::Int32, {3}, {10, 11, 12});
  HostTensor grow =
      run_movement(in, [](Builder& b, Value x) { return b.pad(x, {2}, {-1}, Number::of_int(9)); });
  EXPECT_EQ(grow.to_ints(), (std::vector<int64_t>{9, 9, 10, 11}));
  HostTensor crop =
      run_movement(in, [](Builder& b, Value x) { return b.pad(x, {-1}, {2}, Number::of_int(-7)); });
  EXPECT_EQ(crop.to_ints(), (std::vector<int64_t>{11, 12, -7, -7}));
  HostTensor both =
      run_movement(in, [](Builder& b, Value x) { return b.pad(x, {-1}, {-1}, Number::of_int(0)); });
  EXPECT_EQ(both.to_ints(), (std::vector<int64_t>{11}));
}

TEST(Movement, Pad2DValueConvertedToDtype) {
  // A [1,2] bf16 tensor padded by one column on the left and one row below with 0.1 (bf16 0.10009765625).
  HostTensor in = HostTensor::from_doubles(DType::BFloat16, {1, 2}, {1, 2});
  HostTensor out = run_movement(in, [](Builder& b, Value x) {
    return b.pad(x, {0, 1}, {1, 0}, Number::of_float(0.1));
  });
  EXPECT_EQ(out.shape(), (Shape{2, 3}));
  const double p = 0.10009765625;
  EXPECT_EQ(out.to_doubles(), (std::vector<double>{p, 1, 2, p, p, p}));
}

TEST(Movement, Cat) {
  Builder b;
  Value x = b.input(Type::tensor(DType::Int64, {2, 1}), "x");
  Value y = b.input(Type::tensor(DType::Int64, {2, 2}), "y");
  Value z = b.input(Type::tensor(DType::Int64, {2, 0}), "z");
  HostTensor out =
      run_one(b.finish({b.cat({x, z, y}, 1)}), {HostTensor::from_ints(DType::Int64, {2, 1}, {1, 2}),
                                                HostTensor::from_ints(DType::Int64, {2, 2}, {10, 11, 20, 21}),
                                                HostTensor::zeros(DType::Int64, {2, 0})});
  EXPECT_EQ(out.shape(), (Shape{2, 3}));
  EXPECT_EQ(out.to_ints(), (std::vector<int64_t>{1, 10, 11, 2, 20, 21}));
}

TEST(Movement, CatAxis0) {
  Builder b;
  Value x = b.input(Type::tensor(DType::Float32, {1, 2}), "x");
  Value y = b.input(Type::tensor(DType::Float32, {2, 2}), "y");
  HostTensor out =
      run_one(b.finish({b.cat({y, x}, 0)}), {HostTensor::from_doubles(DType::Float32, {1, 2}, {1, 2}),
                                             HostTensor::from_doubles(DType::Float32, {2, 2}, {3, 4, 5, 6})});
  EXPECT_EQ(out.to_doubles(), (std::vector<double>{3, 4, 5, 6, 1, 2}));
}

TEST(Movement, KeepsInt64Exact) {
  const int64_t big = (int64_t{1} << 62) + 1;
  HostTensor out =
      run_movement(HostTensor::from_ints(DType::Int64, {2}, {big, -big}), [](Builder& b, Value x) {
        return b.permute(b.reshape(x, {2, 1}), {1, 0});
      });
  EXPECT_EQ(out.to_ints(), (std::vector<int64_t>{big, -big}));
}

}  // namespace
}  // namespace seam
