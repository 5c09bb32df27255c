// The size limits (ir/limits.h, docs/LIMITS.md): every type Builder builds stays within 2^40 elements
// and bytes and rank 64, input strides reach at most 2^40 bytes, a fusion has at most 2^20 values plus
// outputs, and no size computation on the way overflows. Each way past a limit is a seam::Error naming
// the value, never a wrapped size.
#include <gtest/gtest.h>

#include <limits>

#include "ir/builder.h"
#include "ir/limits.h"
#include "support/checked_math.h"
#include "support/error.h"

namespace seam {
namespace {

constexpr int64_t k2e40 = int64_t{1} << 40;
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

template <typename F>
void expect_error(F&& f, std::initializer_list<std::string> fragments) {
  try {
    f();
    ADD_FAILURE() << "expected seam::Error";
  } catch (const Error& e) {
    for (const std::string& fragment : fragments)
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos)
          << "message: " << e.what() << "\nmissing: " << fragment;
  }
}

Type T(DType d, Shape s) { return Type::tensor(d, std::move(s)); }

TEST(CheckedMath, ProductsAndSumsReportOverflow) {
  EXPECT_EQ(checked_mul(int64_t{1} << 31, int64_t{1} << 31), int64_t{1} << 62);
  EXPECT_FALSE(checked_mul(int64_t{1} << 32, int64_t{1} << 31));
  EXPECT_FALSE(checked_mul(kInt64Max, -2));
  EXPECT_FALSE(checked_add(kInt64Max, 1));
  EXPECT_EQ(checked_add(kInt64Max, -1), kInt64Max - 1);
  EXPECT_EQ(checked_product(Shape{2, 3, 4}), 24);
  EXPECT_EQ(checked_product(Shape{}), 1);
  EXPECT_FALSE(checked_product(Shape{int64_t{1} << 40, int64_t{1} << 40, 0}));  // overflows before the 0
}

// A reported overflow: 2^61 f64 elements, 2^64 bytes, once wrapped to a size of 0.
TEST(SizeLimits, TheIssuesTwoToTheSixtyFourByteTensorIsRejectedAtTheInput) {
  Builder b;
  expect_error(
      [&] {
        b.input(T(DType::Float64, {2147483648, 1073741824}), "x");
      },
      {"%0 = input", "f64[2147483648,1073741824]", "too many elements"});
  EXPECT_EQ(b.num_nodes(), 0);
}

TEST(SizeLimits, ElementsAndBytesUpToTheLimitAreAccepted) {
  Builder b;
  EXPECT_EQ(b.type(b.input(T(DType::Bool, {k2e40}))).bytes(), k2e40);
  EXPECT_EQ(b.type(b.input(T(DType::Float32, {k2e40 / 4}))).bytes(), k2e40);
  EXPECT_EQ(b.type(b.input(T(DType::Float64, {1 << 20, 1 << 17}))).bytes(), k2e40);
  expect_error([&] { b.input(T(DType::Bool, {k2e40 + 1})); }, {"too many elements", "2^40"});
  expect_error([&] { b.input(T(DType::Float32, {k2e40 / 4 + 1})); },
               {"f32[274877906945]", "needs 1099511627780 bytes", "over the limit of 2^40 bytes"});
  expect_error([&] { b.input(T(DType::Int64, {1 << 20, 1 << 20})); }, {"bytes"});
}

TEST(SizeLimits, EmptyTensorsCountZeroExtentsAsOne) {
  // Strides and other partial products of an empty tensor still multiply its non-zero extents.
  Builder b;
  EXPECT_EQ(b.type(b.input(T(DType::Float32, {0, 1 << 20, 1 << 18}))).numel(), 0);
  expect_error(
      [&] {
        b.input(T(DType::Float32, {0, int64_t{1} << 30, int64_t{1} << 30, int64_t{1} << 30}));
      },
      {"too many elements", "extents of 0 counted as 1"});
  expect_error(
      [&] {
        b.full({int64_t{1} << 30, 0, int64_t{1} << 30}, DType::Float64, Number::of_int(0));
      },
      {"%1 = full", "too many elements"});
}

TEST(SizeLimits, Rank) {
  Builder b;
  EXPECT_EQ(b.type(b.input(T(DType::Float32, Shape(64, 1)))).rank(), 64);
  expect_error([&] { b.input(T(DType::Float32, Shape(65, 1))); }, {"rank 65", "limit of 64"});
  Value x = b.input(T(DType::Float32, Shape(64, 1)));
  expect_error([&] { b.broadcast(x, {0}); }, {"rank 65"});
}

TEST(SizeLimits, InputStridesReachAtMostTheByteLimit) {
  Builder b;
  b.input(T(DType::Float32, {2, 2}), "ok", {k2e40 / 8, 1});
  expect_error(
      [&] {
        b.input(T(DType::Float32, {2, 2}), "far", {k2e40 / 4, 1});
      },
      {"reach 1099511627784 bytes", "over the limit"});
  expect_error(
      [&] {
        b.input(T(DType::Bool, {k2e40 / 2, 2}), "wrap", {k2e40, k2e40});
      },
      {"reach beyond 2^63 elements"});
  // An empty tensor reaches nothing, but its strides still enter index arithmetic.
  b.input(T(DType::Float32, {0, 4}), "empty", {k2e40, 1});
  expect_error([&] { b.input(T(DType::Float32, {0, 4}), "empty2", {kInt64Max, 1}); }, {"outside [0, 2^40]"});
}

TEST(SizeLimits, ShapeRulesDoNotOverflow) {
  Builder b;
  Value x = b.input(T(DType::Float32, {8}), "x");
  // ceil(span / step) without span + step - 1.
  EXPECT_EQ(b.type(b.slice(x, {1}, {8}, {kInt64Max})).shape, Shape{1});
  EXPECT_EQ(b.type(b.slice(x, {0}, {8}, {3})).shape, Shape{3});
  EXPECT_EQ(b.type(b.slice(x, {4}, {4}, {kInt64Max})).shape, Shape{0});
  expect_error([&] { b.pad(x, {kInt64Max}, {1}, Number::of_int(0)); },
               {"%", "= pad", "magnitude at most 2^40"});
  expect_error([&] { b.pad(x, {-(int64_t{1} << 62)}, {(int64_t{1} << 62) + 4}, Number::of_int(0)); },
               {"magnitude at most 2^40"});  // an extent of 12, but offsets of 2^62 in index arithmetic
  expect_error([&] { b.pad(x, {-9}, {k2e40}, Number::of_int(0)); }, {"f32[1099511627775]", "bytes"});
  EXPECT_EQ(b.type(b.pad(x, {-k2e40}, {k2e40}, Number::of_int(0))).shape, Shape{8});
  Value big = b.input(T(DType::Bool, {k2e40 / 2}), "big");
  expect_error([&] { b.cat({big, big, big}, 0); }, {"= cat", "too many elements"});
  expect_error([&] { b.reshape(x, {-1, kInt64Max, kInt64Max}); }, {"reshape", "too many elements"});
  expect_error([&] { b.expand(b.broadcast(x, {0}), {k2e40, 8}); }, {"= expand", "too many elements"});
  Value row = b.input(T(DType::Float32, {1 << 20, 1}), "row");
  Value col = b.input(T(DType::Float32, {1, 1 << 20}), "col");
  expect_error([&] { b.matmul(row, col); }, {"= matmul", "f32[1048576,1048576]", "bytes"});
}

TEST(SizeLimits, TypeArithmeticThrowsInsteadOfWrapping) {
  const Type huge = T(DType::Float64, {int64_t{1} << 32, int64_t{1} << 32});  // built by hand, unchecked
  expect_error([&] { (void)huge.numel(); }, {"more than 2^63 elements"});
  expect_error(
      [&] {
        (void)T(DType::Float64, {int64_t{1} << 31, int64_t{1} << 31}).bytes();
      },
      {"more than 2^63 bytes"});
  expect_error([&] { contiguous_strides({int64_t{1} << 32, int64_t{1} << 32, 1}); }, {"too large"});
  expect_error([&] { strided_storage_bytes(DType::Float64, {2, 2}, {kInt64Max, 1}); }, {"beyond 2^63"});
  EXPECT_EQ(strided_storage_bytes(DType::Float64, {0, 2}, {kInt64Max, 1}), 0);
}

TEST(SizeLimits, FusionSize) {
  EXPECT_NO_THROW(check_fusion_size(SizeLimits::kMaxFusionSize - 1, 1));
  expect_error([] { check_fusion_size(SizeLimits::kMaxFusionSize, 1); }, {"over the limit of 2^20"});
  Builder b;
  Value x = b.input(T(DType::Float32, {2}), "x");
  std::vector<FusionOutput> outputs(static_cast<size_t>(SizeLimits::kMaxFusionSize), FusionOutput{x, ""});
  expect_error([&] { b.finish(std::move(outputs)); }, {"1048576 outputs", "over the limit of 2^20"});
}

}  // namespace
}  // namespace seam
