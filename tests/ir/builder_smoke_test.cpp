#include <gtest/gtest.h>

#include "ir/builder.h"
#include "support/error.h"

namespace seam {
namespace {

TEST(Builder, BuildsAPointwiseChain) {
  Builder b("chain");
  Value x = b.input(Type::tensor(DType::BFloat16, {2, 3}), "x");
  Value y = b.cast(x, DType::Float32);
  Value z = b.add(y, b.constant(Number::of_float(1.5), DType::Float64));
  Fusion f = b.finish({z});
  EXPECT_EQ(f.type(z).to_string(), "f32[2,3]");
  EXPECT_EQ(f.inputs().size(), 1u);
}

TEST(Builder, RejectsMismatchedShapes) {
  Builder b;
  Value x = b.input(Type::tensor(DType::Float32, {2, 3}));
  Value y = b.input(Type::tensor(DType::Float32, {3, 2}));
  EXPECT_THROW(b.add(x, y), Error);
}

}  // namespace
}  // namespace seam
