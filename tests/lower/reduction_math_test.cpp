// Reduction semantics of generated code (lower/reduction_math.h): accumulator dtypes, identities and
// combine ops, the rules the row, inlined and scan lowerings and their printers share.
#include "lower/reduction_math.h"

#include <gtest/gtest.h>

#include <limits>

namespace seam {
namespace {

using enum DType;

TEST(ReductionMath, AccumulatorDTypes) {
  for (DType d : {Float16, BFloat16, Float32}) {
    EXPECT_EQ(reduction_accumulator(d), Float32);
    EXPECT_EQ(inlined_reduction_accumulator(d), Float32);
  }
  EXPECT_EQ(reduction_accumulator(Float64), Float64);
  EXPECT_EQ(inlined_reduction_accumulator(Float64), Float64);
  for (DType d : {Bool, Int32, Int64}) {
    EXPECT_EQ(reduction_accumulator(d), Int64);
    EXPECT_EQ(inlined_reduction_accumulator(d), d);  // a few terms in the result's own dtype
  }
}

TEST(ReductionMath, Identities) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(reduction_identity(OpKind::Sum, Float32).as_double(), 0.0);
  EXPECT_EQ(reduction_identity(OpKind::Prod, Int64).as_int(), 1);
  EXPECT_EQ(reduction_identity(OpKind::Max, Float32).as_double(), -inf);
  EXPECT_EQ(reduction_identity(OpKind::Min, Float64).as_double(), inf);
  EXPECT_EQ(reduction_identity(OpKind::Max, Int64).as_int(), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(reduction_identity(OpKind::Min, Int64).as_int(), std::numeric_limits<int64_t>::max());
}

TEST(ReductionMath, CombineOps) {
  EXPECT_EQ(reduction_combine(OpKind::Sum), OpKind::Add);
  EXPECT_EQ(reduction_combine(OpKind::Prod), OpKind::Mul);
  EXPECT_EQ(reduction_combine(OpKind::Max), OpKind::Maximum);
  EXPECT_EQ(reduction_combine(OpKind::Min), OpKind::Minimum);
}

}  // namespace
}  // namespace seam
