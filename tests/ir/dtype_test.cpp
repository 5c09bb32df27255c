#include "ir/dtype.h"

#include <gtest/gtest.h>

namespace seam {
namespace {

using enum DType;

TEST(DType, NamesRoundTrip) {
  for (DType d : kAllDTypes) EXPECT_EQ(parse_dtype(dtype_name(d)), d);
  EXPECT_FALSE(parse_dtype("float").has_value());
  EXPECT_FALSE(parse_dtype("").has_value());
}

TEST(DType, Sizes) {
  EXPECT_EQ(dtype_size(Bool), 1);
  EXPECT_EQ(dtype_size(Int32), 4);
  EXPECT_EQ(dtype_size(Int64), 8);
  EXPECT_EQ(dtype_size(Float16), 2);
  EXPECT_EQ(dtype_size(BFloat16), 2);
  EXPECT_EQ(dtype_size(Float32), 4);
  EXPECT_EQ(dtype_size(Float64), 8);
}

// Expected values from torch.promote_types.
TEST(DType, PromoteTypesMatchesTorch) {
  struct Case {
    DType a, b, expected;
  } cases[] = {
      {Bool, Bool, Bool},           {Bool, Int32, Int32},        {Int32, Int64, Int64},
      {Int64, Float16, Float16},    {Int32, BFloat16, BFloat16}, {Float16, BFloat16, Float32},
      {BFloat16, Float32, Float32}, {Float16, Float64, Float64}, {Float32, Float64, Float64},
      {Bool, Float16, Float16},     {Int64, Float32, Float32},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(promote_types(c.a, c.b), c.expected) << dtype_name(c.a) << " " << dtype_name(c.b);
    EXPECT_EQ(promote_types(c.b, c.a), c.expected) << "symmetric";
  }
}

DType result(std::initializer_list<PromotionOperand> operands) {
  return result_type(operands.begin(), static_cast<int>(operands.size()));
}

// Expected values from torch.result_type on tensors, zero-dim tensors and Python scalars.
TEST(DType, ResultTypeTiers) {
  using enum PromotionTier;
  EXPECT_EQ(result({{BFloat16, Tensor}, {Float64, Scalar}}), BFloat16);  // bf16 tensor + 2.5
  EXPECT_EQ(result({{Int32, Tensor}, {Float64, Scalar}}), Float32);      // int tensor + 2.5
  EXPECT_EQ(result({{Int32, Tensor}, {Int64, Scalar}}), Int32);          // int32 tensor + 2
  EXPECT_EQ(result({{Bool, Tensor}, {Int64, Scalar}}), Int64);           // bool tensor + 2
  EXPECT_EQ(result({{Int32, Tensor}, {Float64, ZeroDimTensor}}), Float64);
  EXPECT_EQ(result({{Float16, Tensor}, {Float64, ZeroDimTensor}}), Float16);
  EXPECT_EQ(result({{Float16, ZeroDimTensor}, {Float64, Scalar}}), Float16);
  EXPECT_EQ(result({{Int64, ZeroDimTensor}, {Float64, Scalar}}), Float32);
  EXPECT_EQ(result({{Float64, Scalar}, {Float64, Scalar}}), Float64);  // scalars alone keep their dtype
  EXPECT_EQ(result({{Int32, Tensor}, {Int64, ZeroDimTensor}, {Float64, Scalar}}), Float32);
}

}  // namespace
}  // namespace seam
