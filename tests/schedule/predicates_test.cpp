#include <gtest/gtest.h>

#include "ir/builder.h"
#include "schedule/registry.h"
#include "schedule/view.h"
#include "segment/mark_cheap_ops.h"
#include "support/error.h"

namespace seam {
namespace {

TEST(ReshapeView, FollowsTorchComputeStride) {
  // Contiguous: any reshape is a view.
  EXPECT_EQ(reshape_view_strides({2, 3, 4}, {12, 4, 1}, {6, 4}), (Shape{4, 1}));
  EXPECT_EQ(reshape_view_strides({2, 3, 4}, {12, 4, 1}, {2, 12}), (Shape{12, 1}));
  // A transposed matrix cannot be flattened without a copy, but its axes can be split.
  EXPECT_EQ(reshape_view_strides({4, 3}, {1, 4}, {12}), std::nullopt);
  EXPECT_EQ(reshape_view_strides({4, 3}, {1, 4}, {2, 2, 3}), (Shape{2, 1, 4}));
  // Size-1 axes take any stride; the padded-row layout of a slice merges only within a row.
  EXPECT_EQ(reshape_view_strides({2, 4}, {8, 1}, {2, 1, 4}), (Shape{8, 4, 1}));
  EXPECT_EQ(reshape_view_strides({2, 4}, {8, 1}, {8}), std::nullopt);
}

TEST(NoOp, AcceptsViewsOfInputsOnly) {
  Builder b;
  Value x = b.input(Type::tensor(DType::BFloat16, {2, 3, 4}), "x");
  Value flat = b.reshape(x, {6, 4});                      // %1: a view
  Value t = b.permute(flat, {1, 0});                      // %2: a view
  Value copy = b.reshape(t, {24});                        // %3: non-contiguous flatten, a copy
  Value s = b.slice_axis(flat, 1, 1, 3);                  // %4: a view with an offset
  Value p = b.pad(s, {0, 0}, {0, 1}, Number::of_int(0));  // %5: never a view
  Value e = b.exp(flat);                                  // %6
  Fusion f = b.finish({t, copy, s, p, e});
  auto ok = [&](std::vector<int32_t> g) { return can_schedule(SchedulerKind::NoOp, f, g); };
  EXPECT_TRUE(ok({flat.id, t.id, s.id}));
  EXPECT_FALSE(ok({copy.id}));
  EXPECT_FALSE(ok({p.id}));
  EXPECT_FALSE(ok({e.id}));
  std::optional<StridedLayout> view = view_of_input(f, s);
  ASSERT_TRUE(view);
  EXPECT_EQ(view->offset, 1);
  EXPECT_EQ(view->strides, (Shape{4, 1}));
  // A declared non-contiguous input changes the answer.
  Builder b2;
  Value y = b2.input(Type::tensor(DType::BFloat16, {3, 4}), "y", {1, 3});
  Value r = b2.reshape(y, {12});
  Fusion f2 = b2.finish({r});
  EXPECT_FALSE(can_schedule(SchedulerKind::NoOp, f2, std::vector<int32_t>{r.id}));
}

TEST(Schedulers, KindsAcceptTheirShapes) {
  Builder b;
  Value x = b.input(Type::tensor(DType::Float32, {4, 8}), "x");
  Value w = b.input(Type::tensor(DType::Float32, {8, 8}), "w");
  Value sq = b.mul(x, x);             // %2
  Value ss = b.sum(sq, {1}, true);    // %3 [4,1]
  Value back = b.expand(ss, {4, 8});  // %4
  Value normed = b.div(x, back);      // %5
  Value other = b.sum(x, {0});        // %6 other axes
  Value mm = b.matmul(normed, w);     // %7
  Value m2 = b.matmul(x, w);          // %8
  Value wsum = b.sum(w, {0});         // %9 another operand shape
  Fusion f = b.finish({normed, other, mm, m2, wsum});
  const ScheduleLimits no_inlining{0};  // the row-kernel kinds below, without small-reduction inlining
  auto accepts = [&](SchedulerKind k, std::vector<int32_t> g) { return can_schedule(k, f, g, no_inlining); };
  // With the default limits a sum over 8 elements is inlined into a pointwise kernel; over 9 it is not.
  EXPECT_TRUE(
      can_schedule(SchedulerKind::Pointwise, f, std::vector<int32_t>{sq.id, ss.id, back.id, normed.id}));
  EXPECT_FALSE(
      can_schedule(SchedulerKind::Pointwise, f, std::vector<int32_t>{sq.id, ss.id}, ScheduleLimits{7}));
  EXPECT_TRUE(accepts(SchedulerKind::Pointwise, {sq.id, back.id, normed.id}));
  EXPECT_FALSE(accepts(SchedulerKind::Pointwise, {sq.id, ss.id}));
  EXPECT_TRUE(accepts(SchedulerKind::Reduction, {sq.id, ss.id}));
  EXPECT_FALSE(accepts(SchedulerKind::Reduction, {sq.id, ss.id, back.id}));  // reads its reduction
  EXPECT_FALSE(accepts(SchedulerKind::Reduction, {ss.id, other.id}));        // two signatures
  EXPECT_TRUE(accepts(SchedulerKind::Normalization, {sq.id, ss.id, back.id, normed.id}));
  // A row reduction and a sum over the rows of the same shape: outer reductions of one row kernel
  // (outer_reduction_pair.h); another operand shape is another kernel.
  EXPECT_TRUE(accepts(SchedulerKind::Normalization, {ss.id, other.id}));
  EXPECT_FALSE(accepts(SchedulerKind::Normalization, {ss.id, wsum.id}));
  EXPECT_TRUE(accepts(SchedulerKind::Matmul, {mm.id}));
  EXPECT_FALSE(accepts(SchedulerKind::Matmul, {mm.id, m2.id}));
  EXPECT_FALSE(accepts(SchedulerKind::Matmul, {normed.id}));
  EXPECT_EQ(choose_scheduler(f, std::vector<int32_t>{sq.id, ss.id, back.id, normed.id}, no_inlining),
            SchedulerKind::Normalization);
  EXPECT_EQ(choose_scheduler(f, std::vector<int32_t>{x.id}), std::nullopt);  // inputs belong to no kernel
  EXPECT_THROW(can_schedule(SchedulerKind::Pointwise, f, std::vector<int32_t>{99}), Error);
  EXPECT_EQ(launch_count(SchedulerKind::NoOp), 0);
  EXPECT_EQ(launch_count(SchedulerKind::Matmul), 1);
}

// A row kernel reads a reduction only at its own row: a reduction reached through a movement op other
// than expand (here a permute, i.e. the max of another row) keeps the two apart, so every Normalization
// group is one launch. The test is on the pair, so it holds through ops in between.
TEST(Schedulers, NormalizationKeepsUnalignedReadsOfAReductionApart) {
  Builder b;
  Value x = b.input(Type::tensor(DType::Float32, {4, 4}), "x");
  Value m = b.reduce(OpKind::Max, x, {1}, true);  // %1
  Value aligned = b.expand(m, {4, 4});            // %2
  Value z = b.sub(x, aligned);                    // %3
  Value t = b.permute(b.neg(m), {1, 0});          // %4 neg, %5 permute
  Value y = b.sub(x, b.expand(t, {4, 4}));        // %6 expand, %7 sub
  Fusion f = b.finish({z, y});
  const ScheduleLimits no_inlining{0};
  auto normalization = [&](std::vector<int32_t> group) {
    return can_schedule(SchedulerKind::Normalization, f, group, no_inlining);
  };
  EXPECT_TRUE(normalization({m.id, aligned.id, z.id}));
  EXPECT_TRUE(normalization({m.id, m.id + 3}));         // the neg: pointwise, aligned
  EXPECT_FALSE(normalization({m.id, t.id}));            // the permute reads the max at another row
  EXPECT_FALSE(normalization({m.id, m.id + 3, t.id}));  // ... through the neg too
  EXPECT_TRUE(normalization({t.id, t.id + 1, y.id}));   // without the max itself: read from memory
  EXPECT_FALSE(normalization({m.id, aligned.id, z.id, m.id + 3, t.id, t.id + 1, y.id}));
}

// A reduction without keepdim read through its unsqueeze (a broadcast inserting the reduced axis, or the
// same as a reshape) is read at its own row: the same group. Inserting the unit axis elsewhere is not.
TEST(Schedulers, NormalizationAcceptsUnsqueezedReductions) {
  Builder b;
  Value x = b.input(Type::tensor(DType::Float32, {4, 4}), "x");
  Value s = b.sum(x, {1});                    // %1: f32[4]
  Value row = b.broadcast(s, {1});            // %2: f32[4, 1], s[i] at [i, 0]
  Value y = b.div(x, b.expand(row, {4, 4}));  // %3 expand, %4 div
  Value flat = b.reshape(s, {4, 1});          // %5: the same as a reshape
  Value column = b.broadcast(s, {0});         // %6: f32[1, 4], s[j] at [0, j]: another row's sum
  Value k = b.sum(x, {1}, true);              // %7: f32[4, 1]
  Value squeezed = b.squeeze(k, {1});         // %8: f32[4]
  Fusion f = b.finish({y, flat, column, squeezed});
  const ScheduleLimits no_inlining{0};
  auto normalization = [&](std::vector<int32_t> group) {
    return can_schedule(SchedulerKind::Normalization, f, group, no_inlining);
  };
  EXPECT_TRUE(normalization({s.id, row.id, row.id + 1, y.id}));
  EXPECT_TRUE(normalization({s.id, flat.id}));  // a reshape of unit axes maps axis by axis
  EXPECT_FALSE(normalization({s.id, column.id}));
  EXPECT_TRUE(normalization({k.id, squeezed.id}));
}

// Values of the rows' shape computed from a reduction, squeezed or unsqueezed (by any of broadcast,
// squeeze, reshape) into the reduction's layout with or without keepdim, stay in the reduction's group;
// a reshape into another layout of the same values ([1, 4], whose expand runs across the rows) does not.
TEST(Schedulers, NormalizationAcceptsUnitAxisMovesOfRowValues) {
  Builder b;
  Value x = b.input(Type::tensor(DType::Float32, {4, 4}), "x");
  Value k = b.sum(x, {1}, true);                                            // %1: f32[4, 1]
  Value twice = b.mul(k, b.constant(Number::of_float(2), DType::Float32));  // %2 const, %3 mul
  Value squeezed = b.squeeze(twice, {1});                                   // %4: f32[4]
  Value flat = b.reshape(twice, {4});                                       // %5: f32[4]
  Value back = b.reshape(b.exp(squeezed), {4, 1});                          // %6 exp, %7: f32[4, 1]
  Value y = b.sub(x, b.expand(back, {4, 4}));                               // %8 expand, %9 sub
  Value across = b.reshape(squeezed, {1, 4});                               // %10: f32[1, 4]
  Value z = b.sub(x, b.expand(across, {4, 4}));                             // %11 expand, %12 sub
  Fusion f = b.finish({flat, y, z});
  const ScheduleLimits no_inlining{0};
  auto normalization = [&](std::vector<int32_t> group) {
    return can_schedule(SchedulerKind::Normalization, f, group, no_inlining);
  };
  EXPECT_TRUE(normalization({k.id, twice.id, squeezed.id}));
  EXPECT_TRUE(normalization({k.id, twice.id, flat.id}));
  EXPECT_TRUE(normalization({k.id, twice.id, squeezed.id, squeezed.id + 2, back.id, y.id - 1, y.id}));
  EXPECT_FALSE(normalization({k.id, twice.id, squeezed.id, across.id}));
  EXPECT_FALSE(normalization({k.id, twice.id, squeezed.id, across.id, z.id - 1, z.id}));
}

// An expand of a reduced value stays in the group only from the keepdim layout: the [1, 4] sum without
// keepdim over the last axis of [1, 4, 4], expanded to [4, 4], puts every row's sum in every row.
TEST(Schedulers, NormalizationKeepsExpandsOfOtherLayoutsApart) {
  Builder b;
  Value x = b.input(Type::tensor(DType::Float32, {1, 4, 4}), "x");
  Value s = b.sum(x, {2});               // %1: f32[1, 4]
  Value across = b.expand(s, {4, 4});    // %2
  Value k = b.sum(x, {2}, true);         // %3: f32[1, 4, 1]
  Value along = b.expand(k, {1, 4, 4});  // %4
  Value y = b.sub(x, along);             // %5
  Fusion f = b.finish({across, y});
  const ScheduleLimits no_inlining{0};
  auto normalization = [&](std::vector<int32_t> group) {
    return can_schedule(SchedulerKind::Normalization, f, group, no_inlining);
  };
  EXPECT_FALSE(normalization({s.id, across.id}));
  EXPECT_TRUE(normalization({k.id, along.id, y.id}));
}

TEST(MarkCheapOps, DuplicatesOnlyCheapOpsOfInputs) {
  Builder b;
  Value x = b.input(Type::tensor(DType::BFloat16, {4, 8}), "x");
  Value w = b.input(Type::tensor(DType::BFloat16, {8, 8}), "w");
  Value c = b.cast(x, DType::Float32);                               // %2 cheap
  Value s = b.slice_axis(c, 1, 0, 4);                                // %3 cheap: operand cheap
  Value e = b.exp(c);                                                // %4 not cheap: math
  Value ce = b.cast(e, DType::BFloat16);                             // %5 not cheap: operand computed
  Value t = b.permute(w, {1, 0});                                    // %6 not cheap: feeds a matmul
  Value mm = b.matmul(x, t);                                         // %7
  Value f1 = b.full({4, 8}, DType::Float32, Number::of_float(1.0));  // %8 cheap
  Fusion f = b.finish({s, ce, mm, b.add(f1, c)});
  std::vector<bool> cheap = mark_cheap_ops(f);
  EXPECT_TRUE(cheap[c.id]);
  EXPECT_TRUE(cheap[s.id]);
  EXPECT_FALSE(cheap[e.id]);
  EXPECT_FALSE(cheap[ce.id]);
  EXPECT_FALSE(cheap[t.id]);
  EXPECT_FALSE(cheap[mm.id]);
  EXPECT_TRUE(cheap[f1.id]);
  EXPECT_FALSE(cheap[x.id]);
}

}  // namespace
}  // namespace seam
