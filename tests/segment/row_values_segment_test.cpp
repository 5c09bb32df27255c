// Segmentation of row values moved by unit axes: a squeeze or unsqueeze (any of squeeze, broadcast,
// reshape) of a value computed from a reduction into the reduction's own layout stays in its row kernel.
#include <gtest/gtest.h>

#include "ir/builder.h"
#include "passes/pipeline.h"
#include "segment/dump.h"
#include "segment/segment.h"

namespace seam {
namespace {

SegmentedFusion segment(const Fusion& fusion) {
  SegmentOptions options;
  options.time_budget_seconds = 10;  // a sanitizer build is slower than the default budget assumes
  return segment_fusion(run_pipeline(fusion), options);
}

// y = squeeze(2 * sum(x, 1, keepdim=true), 1): one kernel (two before: the squeeze read the sum from
// memory in a second one).
TEST(RowValuesSegment, SqueezeOfArithmeticOnAKeepdimSumIsOneKernel) {
  Builder b("squeezed");
  Value x = b.input(Type::tensor(DType::BFloat16, {64, 512}), "x");
  Value twice = b.mul(b.sum(x, {1}, true), b.constant(Number::of_float(2), DType::Float64));
  const SegmentedFusion s = segment(b.finish({b.squeeze(twice, {1})}));
  SCOPED_TRACE(dump_segments(s));
  ASSERT_EQ(s.num_kernels(), 1);
  EXPECT_EQ(s.groups[0].kind, SchedulerKind::Normalization);
}

// A frontend's mean(x, -1), arithmetic, then the unsqueeze written as a reshape and expanded.
TEST(RowValuesSegment, ReshapedMeanReadBackAcrossTheRowIsOneKernel) {
  Builder b("centered");
  Value x = b.input(Type::tensor(DType::Float32, {8, 16, 256}), "x");
  Value mean = b.div(b.sum(x, {-1}), b.constant(Number::of_float(256), DType::Float64));
  Value shifted = b.reshape(b.add(mean, b.constant(Number::of_float(1), DType::Float64)), {8, 16, 1});
  const SegmentedFusion s = segment(b.finish({b.sub(x, b.expand(shifted, {8, 16, 256}))}));
  SCOPED_TRACE(dump_segments(s));
  ASSERT_EQ(s.num_kernels(), 1);
  EXPECT_EQ(s.groups[0].kind, SchedulerKind::Normalization);
}

// The same values put in another layout ([1, 64], an expand of which runs across the rows) are read from
// memory by a second kernel.
TEST(RowValuesSegment, AnotherLayoutOfTheRowValuesIsASecondKernel) {
  Builder b("across");
  Value x = b.input(Type::tensor(DType::Float32, {64, 64}), "x");
  Value across = b.reshape(b.sum(x, {1}), {1, 64});
  const SegmentedFusion s = segment(b.finish({b.sub(x, b.expand(across, {64, 64}))}));
  SCOPED_TRACE(dump_segments(s));
  EXPECT_EQ(s.num_kernels(), 2);
}

}  // namespace
}  // namespace seam
