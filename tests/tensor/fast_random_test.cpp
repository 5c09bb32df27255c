#include "tensor/fast_random.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

namespace seam {
namespace {

TEST(FastRandom, ValuesInRangeVariedAndDeterministic) {
  for (DType dtype : kAllDTypes) {
    HostTensor a = HostTensor::zeros(dtype, {1000});
    HostTensor b = HostTensor::zeros(dtype, {1000});
    fill_fast_random(a, 5);
    fill_fast_random(b, 5);
    EXPECT_EQ(a.storage(), b.storage()) << dtype_name(dtype);
    std::set<double> distinct;
    for (int64_t i = 0; i < a.numel(); ++i) {
      double v = a.get_double(i);
      distinct.insert(v);
      if (is_floating(dtype)) {
        EXPECT_TRUE(std::fabs(v) < 1.0 && v != 0.0) << v;
      } else if (dtype != DType::Bool) {
        EXPECT_TRUE(v >= -8 && v < 8) << v;
      }
    }
    EXPECT_GE(distinct.size(), dtype == DType::Bool ? 2u : 16u) << dtype_name(dtype);
    HostTensor c = HostTensor::zeros(dtype, {1000});
    fill_fast_random(c, 6);
    EXPECT_NE(a.storage(), c.storage()) << "another seed, other values";
  }
}

TEST(FastRandom, StridedTensorsFillEveryLogicalElement) {
  HostTensor t = HostTensor::zeros_strided(DType::BFloat16, {3, 4}, {1, 3});
  fill_fast_random(t, 1);
  for (int64_t i = 0; i < t.numel(); ++i) EXPECT_NE(t.get_double(i), 0.0);
}

}  // namespace
}  // namespace seam
