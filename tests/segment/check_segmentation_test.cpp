// check_segmentation rejects broken segmentations with a seam::Error.
#include <gtest/gtest.h>

#include "ir/builder.h"
#include "segment/segment.h"
#include "support/error.h"

namespace seam {
namespace {

// a = exp(x); r = sum(a); y = a * expand(r); z = y @ y^T: a normalization and the matmul, which reads y
// and its transpose in place.
SegmentedFusion two_groups() {
  Builder b;
  Value x = b.input(Type::tensor(DType::Float32, {4, 8}), "x");
  Value a = b.exp(x);
  Value r = b.sum(a, {1}, true);
  Value y = b.mul(a, b.expand(r, {4, 8}));
  Value z = b.matmul(y, b.permute(y, {1, 0}));
  SegmentOptions o;
  o.rules.limits.max_inlined_reduction = 0;  // keep the normalization a row kernel
  return segment_fusion(b.finish({z}), o);
}

TEST(CheckSegmentation, AcceptsWhatTheSegmenterMakes) {
  SegmentedFusion s = two_groups();
  EXPECT_EQ(s.num_kernels(), 2);
  EXPECT_NO_THROW(check_segmentation(s));
}

// The check applies the limits the segmentation ran under: a small sum inlined into a pointwise group is
// fine under the defaults and rejected once the record says nothing may be inlined.
TEST(CheckSegmentation, UsesTheRecordedScheduleLimits) {
  Builder b;
  Value x = b.input(Type::tensor(DType::Float32, {4, 8}), "x");
  SegmentedFusion s = segment_fusion(b.finish({b.exp(b.sum(b.exp(x), {1}))}));
  ASSERT_EQ(s.num_kernels(), 1);
  EXPECT_EQ(s.groups[0].kind, SchedulerKind::Pointwise);
  EXPECT_NO_THROW(check_segmentation(s));
  s.limits.max_inlined_reduction = 0;
  EXPECT_THROW(check_segmentation(s), Error);
}

TEST(CheckSegmentation, RejectsBrokenOnes) {
  SegmentedFusion base = two_groups();
  ASSERT_GE(base.groups.size(), 2u);
  {
    SegmentedFusion s = base;  // execution order reversed: a group reads a later one
    std::swap(s.groups.front(), s.groups.back());
    EXPECT_THROW(check_segmentation(s), Error);
  }
  {
    SegmentedFusion s = base;  // a node dropped
    s.groups.back().nodes.pop_back();
    EXPECT_THROW(check_segmentation(s), Error);
  }
  {
    SegmentedFusion s = base;  // a node in two groups
    s.groups.front().nodes.push_back(s.groups.back().nodes.back());
    EXPECT_THROW(check_segmentation(s), Error);
  }
  {
    SegmentedFusion s = base;  // a kind that does not accept the group
    s.groups.front().kind = SchedulerKind::Matmul;
    if (s.groups.front().nodes.size() > 1) {
      EXPECT_THROW(check_segmentation(s), Error);
    }
  }
  {
    SegmentedFusion s = base;  // bytes that do not match the boundary
    s.groups.front().boundary_bytes += 1;
    EXPECT_THROW(check_segmentation(s), Error);
  }
  {
    SegmentedFusion s = base;  // a must-cut pair sharing a group
    s.must_cut.push_back({s.groups.front().nodes.front(), s.groups.front().nodes.back()});
    if (s.groups.front().nodes.size() > 1) {
      EXPECT_THROW(check_segmentation(s), Error);
    }
  }
}

}  // namespace
}  // namespace seam
