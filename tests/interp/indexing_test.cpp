// Indexing ops against hand-written expectations (PyTorch's values, negative indices wrapped once), their
// shape and dtype rules, and the error an index out of range raises.
#include "interp_test_util.h"

namespace seam {
namespace {

using testing_interp::error_of;
using testing_interp::f32;
using testing_interp::run_one;

// 0, 1, 2, ... as a tensor of the shape.
HostTensor counting(DType dtype, Shape shape) {
  HostTensor t = HostTensor::zeros(dtype, std::move(shape));
  for (int64_t i = 0; i < t.numel(); ++i) t.set_int(i, i);
  return t;
}

// x (counting f32 of `data`) and an index input of `index_values`, through `make`.
template <typename Make>
HostTensor run_indexing(const Shape& data, DType index_dtype, const Shape& index_shape,
                        const std::vector<int64_t>& index_values, Make make) {
  Builder b;
  Value x = b.input(f32(data), "x");
  Value i = b.input(Type::tensor(index_dtype, index_shape), "i");
  return run_one(b.finish({make(b, x, i)}), {counting(DType::Float32, data),
                                             HostTensor::from_ints(index_dtype, index_shape, index_values)});
}

TEST(Indexing, IndexSelectRowsAndColumns) {
  HostTensor rows = run_indexing({3, 2}, DType::Int64, {4}, {2, 0, 2, -1},
                                 [](Builder& b, Value x, Value i) { return b.index_select(x, 0, i); });
  EXPECT_EQ(rows.shape(), (Shape{4, 2}));
  EXPECT_EQ(rows.to_ints(), (std::vector<int64_t>{4, 5, 0, 1, 4, 5, 4, 5}));
  HostTensor columns = run_indexing({2, 3}, DType::Int32, {2}, {-3, 1},
                                    [](Builder& b, Value x, Value i) { return b.index_select(x, -1, i); });
  EXPECT_EQ(columns.shape(), (Shape{2, 2}));
  EXPECT_EQ(columns.to_ints(), (std::vector<int64_t>{0, 1, 3, 4}));
}

TEST(Indexing, GatherReadsPerElement) {
  // torch.gather(x, 1, i) with x = [[0,1,2],[3,4,5]], i = [[2,0],[1,-1]] (the -1 wrapped to 2).
  HostTensor out = run_indexing({2, 3}, DType::Int64, {2, 2}, {2, 0, 1, -1},
                                [](Builder& b, Value x, Value i) { return b.gather(x, 1, i); });
  EXPECT_EQ(out.shape(), (Shape{2, 2}));
  EXPECT_EQ(out.to_ints(), (std::vector<int64_t>{2, 0, 4, 5}));
  // An index smaller than the data on the other axis reads only its own rows.
  HostTensor first_row = run_indexing({3, 3}, DType::Int32, {1, 3}, {2, 1, 0},
                                      [](Builder& b, Value x, Value i) { return b.gather(x, 0, i); });
  EXPECT_EQ(first_row.to_ints(), (std::vector<int64_t>{6, 4, 2}));
}

TEST(Indexing, TakeAlongAxisBroadcasts) {
  // The cross-entropy pick: one class per row, index [2,1] against logits [2,3].
  HostTensor picked = run_indexing({2, 3}, DType::Int64, {2, 1}, {1, 2},
                                   [](Builder& b, Value x, Value i) { return b.take_along_axis(x, i, 1); });
  EXPECT_EQ(picked.shape(), (Shape{2, 1}));
  EXPECT_EQ(picked.to_ints(), (std::vector<int64_t>{1, 5}));
  // An index broadcast over the rows: the same columns of every row.
  HostTensor columns = run_indexing({2, 3}, DType::Int64, {1, 2}, {2, 0},
                                    [](Builder& b, Value x, Value i) { return b.take_along_axis(x, i, 1); });
  EXPECT_EQ(columns.shape(), (Shape{2, 2}));
  EXPECT_EQ(columns.to_ints(), (std::vector<int64_t>{2, 0, 5, 3}));
  // The data broadcast against the index: x [1,3], index [2,2] reads row 0 for both output rows.
  HostTensor data_broadcast =
      run_indexing({1, 3}, DType::Int32, {2, 2}, {0, 1, 2, -3},
                   [](Builder& b, Value x, Value i) { return b.take_along_axis(x, i, 1); });
  EXPECT_EQ(data_broadcast.shape(), (Shape{2, 2}));
  EXPECT_EQ(data_broadcast.to_ints(), (std::vector<int64_t>{0, 1, 2, 0}));
}

TEST(Indexing, SelectRemovesTheAxis) {
  Builder b;
  Value x = b.input(f32({2, 3}), "x");
  Value i = b.input(Type::scalar(DType::Int64), "i");
  HostTensor index = HostTensor::from_ints(DType::Int64, {}, {-1});
  HostTensor out = run_one(b.finish({b.select(x, 1, i)}), {counting(DType::Float32, {2, 3}), index});
  EXPECT_EQ(out.shape(), (Shape{2}));
  EXPECT_EQ(out.to_ints(), (std::vector<int64_t>{2, 5}));
  Builder c;
  Value y = c.input(f32({2, 3}), "y");
  HostTensor row = run_one(c.finish({c.select(y, 0, c.constant(Number::of_int(1), DType::Int32))}),
                           {counting(DType::Float32, {2, 3})});
  EXPECT_EQ(row.to_ints(), (std::vector<int64_t>{3, 4, 5}));
}

TEST(Indexing, EmptyIndexGivesEmptyOutput) {
  HostTensor out = run_indexing({0, 3}, DType::Int64, {0}, {},
                                [](Builder& b, Value x, Value i) { return b.index_select(x, 0, i); });
  EXPECT_EQ(out.shape(), (Shape{0, 3}));
  HostTensor none = run_indexing({2, 3}, DType::Int64, {2, 0}, {},
                                 [](Builder& b, Value x, Value i) { return b.gather(x, 1, i); });
  EXPECT_EQ(none.shape(), (Shape{2, 0}));
}

TEST(Indexing, OutOfRangeIndexNamesOpAndIndex) {
  const std::string high = error_of([] {
    run_indexing({3, 2}, DType::Int64, {2}, {1, 3},
                 [](Builder& b, Value x, Value i) { return b.index_select(x, 0, i); });
  });
  EXPECT_NE(high.find("index_select %2: index 3 is out of range for axis 0 of extent 3 (valid: -3 to 2)"),
            std::string::npos)
      << high;
  const std::string low = error_of([] {
    run_indexing({2, 3}, DType::Int32, {2, 1}, {0, -4},
                 [](Builder& b, Value x, Value i) { return b.take_along_axis(x, i, 1); });
  });
  EXPECT_NE(low.find("take_along_axis %2: index -4"), std::string::npos) << low;
  EXPECT_NE(low.find("output element [1,0]"), std::string::npos) << low;
}

TEST(Indexing, ShapeAndDtypeRules) {
  Builder b;
  Value x = b.input(f32({2, 3}), "x");
  Value floats = b.input(f32({2}), "floats");
  Value matrix = b.input(Type::tensor(DType::Int64, {2, 3}), "matrix");
  Value wide = b.input(Type::tensor(DType::Int64, {2, 4}), "wide");
  Value column = b.input(Type::tensor(DType::Int64, {3, 1}), "column");
  Value empty = b.input(f32({2, 0}), "empty");
  Value ids = b.input(Type::tensor(DType::Int64, {2}), "ids");
  auto message = [](auto body) { return error_of(body); };
  EXPECT_NE(message([&] { b.index_select(x, 0, floats); }).find("the index must have an integer dtype"),
            std::string::npos);
  EXPECT_NE(message([&] { b.index_select(x, 0, matrix); }).find("must be a rank-1 tensor"),
            std::string::npos);
  EXPECT_NE(message([&] { b.gather(x, 0, ids); }).find("must have the data's rank 2"), std::string::npos);
  EXPECT_NE(message([&] { b.gather(x, 0, wide); }).find("larger than the data f32[2,3] on axis 1"),
            std::string::npos);
  EXPECT_NE(message([&] { b.take_along_axis(x, column, 1); }).find("does not broadcast"), std::string::npos);
  EXPECT_NE(message([&] { b.select(x, 0, ids); }).find("a scalar or a rank-0 tensor"), std::string::npos);
  EXPECT_NE(message([&] { b.index_select(empty, 1, ids); }).find("cannot index axis 1 of extent 0"),
            std::string::npos);
  EXPECT_NE(message([&] { b.gather(x, 2, matrix); }).find("axis 2 out of range for rank 2"),
            std::string::npos);
  EXPECT_EQ(b.type(b.gather(x, -1, matrix)), f32({2, 3}));
  EXPECT_EQ(b.type(b.take_along_axis(x, b.input(Type::tensor(DType::Int32, {1, 5}), "row"), 1)), f32({2, 5}));
  EXPECT_EQ(b.type(b.index_select(x, 1, ids)), f32({2, 2}));
}

}  // namespace
}  // namespace seam
