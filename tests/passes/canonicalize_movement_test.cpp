#include "passes/canonicalize_movement.h"

#include <gtest/gtest.h>

#include "ir/builder.h"
#include "passes/dead_code.h"

namespace seam {
namespace {

Type f32(Shape shape) { return Type::tensor(DType::Float32, std::move(shape)); }

Fusion canonical(Builder& b, Value out) {
  return eliminate_dead_code(canonicalize_movement(b.finish({out})));
}

std::vector<OpKind> ops_of(const Fusion& f) {
  std::vector<OpKind> ops;
  for (const Node& n : f.nodes()) ops.push_back(n.op);
  return ops;
}

using Ints = std::vector<int64_t>;

// A proposed node on `x`, for calling one rule directly.
ProposedNode propose(OpKind op, std::vector<Value> operands, Attrs attrs) {
  return ProposedNode{op, std::move(operands), std::move(attrs), std::nullopt};
}

TEST(CanonicalizeMovement, IdentityRulesReturnTheOperand) {
  Builder b("f");
  Value x = b.input(f32({2, 3}), "x");
  EXPECT_EQ(
      fold_identity_slice(b, propose(OpKind::Slice, {x},
                                     {{"starts", Ints{0, 0}}, {"stops", Ints{2, 3}}, {"steps", Ints{1, 1}}})),
      x);
  EXPECT_EQ(fold_zero_pad(
                b, propose(OpKind::Pad, {x},
                           {{"low", Ints{0, 0}}, {"high", Ints{0, 0}}, {"value", Number::of_float(1.0)}})),
            x);
  EXPECT_EQ(fold_same_shape_reshape(b, propose(OpKind::Reshape, {x}, {{"shape", Ints{2, 3}}})), x);
  EXPECT_EQ(fold_identity_permute(b, propose(OpKind::Permute, {x}, {{"perm", Ints{0, 1}}})), x);
  EXPECT_EQ(fold_same_shape_expand(b, propose(OpKind::Expand, {x}, {{"shape", Ints{2, 3}}})), x);
  EXPECT_EQ(fold_no_axis_squeeze_or_broadcast(b, propose(OpKind::Squeeze, {x}, {{"axes", Ints{}}})), x);
  EXPECT_EQ(fold_no_axis_squeeze_or_broadcast(b, propose(OpKind::Broadcast, {x}, {{"axes", Ints{}}})), x);
  EXPECT_EQ(fold_single_operand_cat(b, propose(OpKind::Cat, {x}, {{"axis", int64_t{1}}})), x);
  EXPECT_EQ(b.num_nodes(), 1);  // nothing was added
}

TEST(CanonicalizeMovement, IdentityRulesRejectRealMovement) {
  Builder b("f");
  Value x = b.input(f32({2, 3}), "x");
  Value one = b.input(f32({1, 3}), "one");
  EXPECT_FALSE(fold_identity_slice(
      b,
      propose(OpKind::Slice, {x}, {{"starts", Ints{0, 1}}, {"stops", Ints{2, 3}}, {"steps", Ints{1, 1}}})));
  EXPECT_FALSE(fold_identity_slice(
      b,
      propose(OpKind::Slice, {x}, {{"starts", Ints{0, 0}}, {"stops", Ints{2, 3}}, {"steps", Ints{1, 2}}})));
  EXPECT_FALSE(fold_zero_pad(
      b, propose(OpKind::Pad, {x},
                 {{"low", Ints{0, 0}}, {"high", Ints{0, -1}}, {"value", Number::of_float(0.0)}})));
  EXPECT_FALSE(fold_same_shape_reshape(b, propose(OpKind::Reshape, {x}, {{"shape", Ints{3, 2}}})));
  EXPECT_FALSE(fold_identity_permute(b, propose(OpKind::Permute, {x}, {{"perm", Ints{1, 0}}})));
  EXPECT_FALSE(fold_same_shape_expand(b, propose(OpKind::Expand, {one}, {{"shape", Ints{4, 3}}})));
  EXPECT_FALSE(fold_no_axis_squeeze_or_broadcast(b, propose(OpKind::Squeeze, {one}, {{"axes", Ints{0}}})));
  EXPECT_FALSE(fold_single_operand_cat(b, propose(OpKind::Cat, {x, x}, {{"axis", int64_t{0}}})));
}

TEST(CanonicalizeMovement, StridedSliceOfExtentOneAxisIsIdentity) {
  // On an axis of extent 1 any step reads the one element.
  Builder b("f");
  Value x = b.input(f32({1, 3}), "x");
  EXPECT_EQ(
      fold_identity_slice(b, propose(OpKind::Slice, {x},
                                     {{"starts", Ints{0, 0}}, {"stops", Ints{1, 3}}, {"steps", Ints{5, 1}}})),
      x);
}

TEST(CanonicalizeMovement, SliceOfSliceComposes) {
  Builder b("f");
  Value x = b.input(f32({20, 4}), "x");
  Value s1 = b.slice(x, {2, 0}, {20, 4}, {3, 1});  // rows 2,5,8,11,14,17
  Value s2 = b.slice(s1, {1, 1}, {5, 3}, {2, 1});  // rows 5,11; columns 1,2
  Fusion f = canonical(b, s2);
  ASSERT_EQ(ops_of(f), (std::vector<OpKind>{OpKind::Input, OpKind::Slice}));
  const Node& slice = f.node(f.outputs()[0].value);
  EXPECT_EQ(slice.attrs.get_ints("starts"), (Ints{5, 1}));
  EXPECT_EQ(slice.attrs.get_ints("steps"), (Ints{6, 1}));
  EXPECT_EQ(slice.attrs.get_ints("stops"), (Ints{12, 3}));
  EXPECT_EQ(f.type(f.outputs()[0].value), f32({2, 2}));
}

TEST(CanonicalizeMovement, SliceOfSliceCoveringEverythingVanishes) {
  Builder b("f");
  Value x = b.input(f32({6}), "x");
  Value s = b.slice(b.slice(x, {0}, {6}, {1}), {0}, {6}, {1});
  EXPECT_EQ(canonical(b, s).num_nodes(), 1);
}

TEST(CanonicalizeMovement, ComposedSliceOfEmptyResultStaysValid) {
  Builder b("f");
  Value x = b.input(f32({10}), "x");
  Value s1 = b.slice(x, {0}, {10}, {3});  // 0,3,6,9
  Value s2 = b.slice(s1, {4}, {4}, {1});  // nothing; naive start 12 would be out of range
  Fusion f = canonical(b, s2);
  EXPECT_EQ(f.type(f.outputs()[0].value), f32({0}));
  EXPECT_EQ(f.num_nodes(), 2);
}

TEST(CanonicalizeMovement, NormalizesSliceBounds) {
  Builder b("f");
  Value x = b.input(f32({10, 5}), "x");
  Value s = b.slice(x, {1, 2}, {10, 3}, {4, 7});  // rows 1,5,9 with a loose stop; one column
  Fusion f = canonical(b, s);
  const Node& slice = f.node(f.outputs()[0].value);
  EXPECT_EQ(slice.attrs.get_ints("stops"), (Ints{10, 3}));
  EXPECT_EQ(slice.attrs.get_ints("steps"), (Ints{4, 1}));
  Builder c("f");
  Value y = c.input(f32({10, 5}), "x");
  Value loose = c.slice(y, {1, 0}, {8, 5}, {3, 1});  // rows 1,4,7: tight stop 8 already
  EXPECT_FALSE(normalize_slice(c, propose(OpKind::Slice, {y}, c.node(loose).attrs)));
}

TEST(CanonicalizeMovement, ReshapeChainsCompose) {
  Builder b("f");
  Value x = b.input(f32({2, 3, 4}), "x");
  Value r = b.reshape(b.reshape(b.reshape(x, {6, 4}), {24}), {4, 6});
  Fusion f = canonical(b, r);
  ASSERT_EQ(ops_of(f), (std::vector<OpKind>{OpKind::Input, OpKind::Reshape}));
  EXPECT_EQ(f.node(f.outputs()[0].value).operands[0], f.inputs()[0]);
  Builder c("f");
  Value y = c.input(f32({2, 3, 4}), "x");
  EXPECT_EQ(canonical(c, c.reshape(c.reshape(y, {6, 4}), {2, 3, 4})).num_nodes(), 1);
}

// A language model's `logits.view(b, t, V).float().view(-1, V)`: the cast moves after the reshapes,
// which compose to nothing; a round trip through other shapes leaves one cast of one reshape.
TEST(CanonicalizeMovement, ReshapesComposeThroughACast) {
  Builder b("f");
  Value x = b.input(Type::tensor(DType::BFloat16, {8, 5}), "x");
  Value r = b.reshape(b.cast(b.reshape(x, {2, 4, 5}), DType::Float32), {8, 5});
  Fusion f = canonical(b, r);
  ASSERT_EQ(ops_of(f), (std::vector<OpKind>{OpKind::Input, OpKind::Cast}));
  EXPECT_EQ(f.type(f.outputs()[0].value), f32({8, 5}));
  Builder c("f");
  Value y = c.input(Type::tensor(DType::BFloat16, {8, 5}), "x");
  Fusion g = canonical(c, c.reshape(c.cast(c.reshape(y, {2, 4, 5}), DType::Float32), {40}));
  ASSERT_EQ(ops_of(g), (std::vector<OpKind>{OpKind::Input, OpKind::Reshape, OpKind::Cast}));
  EXPECT_EQ(g.type(g.outputs()[0].value), f32({40}));
}

TEST(CanonicalizeMovement, PermuteChainsCompose) {
  Builder b("f");
  Value x = b.input(f32({2, 3, 4}), "x");
  Value p = b.permute(b.permute(x, {1, 2, 0}), {1, 2, 0});  // [3,4,2] then [4,2,3]
  Fusion f = canonical(b, p);
  ASSERT_EQ(ops_of(f), (std::vector<OpKind>{OpKind::Input, OpKind::Permute}));
  EXPECT_EQ(f.node(f.outputs()[0].value).attrs.get_ints("perm"), (Ints{2, 0, 1}));
  Builder c("f");
  Value y = c.input(f32({2, 3, 4}), "x");
  EXPECT_EQ(canonical(c, c.permute(c.permute(y, {1, 2, 0}), {2, 0, 1})).num_nodes(), 1);
}

TEST(CanonicalizeMovement, SplitThenCatInOrderCancels) {
  Builder b("f");
  Value x = b.input(f32({4, 10}), "x");
  Value a = b.slice_axis(x, 1, 0, 3);
  Value m = b.slice_axis(x, 1, 3, 7);
  Value z = b.slice_axis(x, 1, 7, 10);
  Fusion f = canonical(b, b.cat({a, m, z}, 1));
  EXPECT_EQ(f.num_nodes(), 1);
  EXPECT_EQ(f.outputs()[0].value, f.inputs()[0]);
}

TEST(CanonicalizeMovement, SplitThenCatOutOfOrderStays) {
  Builder b("f");
  Value x = b.input(f32({4, 10}), "x");
  Value lo = b.slice_axis(x, 1, 0, 5);
  Value hi = b.slice_axis(x, 1, 5, 10);
  Fusion f = canonical(b, b.cat({hi, lo}, 1));  // the rotate-half of RoPE
  EXPECT_EQ(ops_of(f), (std::vector<OpKind>{OpKind::Input, OpKind::Slice, OpKind::Slice, OpKind::Cat}));
}

TEST(CanonicalizeMovement, CatOfPartOfAnAxisBecomesOneSlice) {
  Builder b("f");
  Value x = b.input(f32({10, 4}), "x");
  Value y = b.input(f32({2, 4}), "y");
  Value a = b.slice_axis(x, 0, 2, 4);
  Value c = b.slice_axis(x, 0, 4, 9);
  Fusion f = canonical(b, b.cat({y, a, c}, 0));
  ASSERT_EQ(ops_of(f), (std::vector<OpKind>{OpKind::Input, OpKind::Input, OpKind::Slice, OpKind::Cat}));
  const Node& slice = f.node(Value{2});
  EXPECT_EQ(slice.attrs.get_ints("starts"), (Ints{2, 0}));
  EXPECT_EQ(slice.attrs.get_ints("stops"), (Ints{9, 4}));
  EXPECT_EQ(f.node(f.outputs()[0].value).operands, (std::vector<Value>{Value{1}, Value{2}}));
}

TEST(CanonicalizeMovement, CatSlicesMustAgreeOffTheCatAxis) {
  Builder b("f");
  Value x = b.input(f32({4, 10}), "x");
  Value a = b.slice(x, {0, 0}, {2, 5}, {1, 1});
  Value c = b.slice(x, {1, 5}, {3, 10}, {1, 1});  // other rows
  Value other = b.input(f32({4, 10}), "other");
  Value d = b.slice_axis(other, 1, 5, 10);  // another value
  Value e = b.slice_axis(x, 1, 0, 5);
  Fusion f = canonical(b, b.cat({b.cat({a, c}, 1), b.cat({e, d}, 1)}, 0));
  int slices = 0;
  for (const Node& n : f.nodes()) slices += n.op == OpKind::Slice;
  EXPECT_EQ(slices, 4);
}

TEST(CanonicalizeMovement, StridedCatPiecesDoNotMerge) {
  Builder b("f");
  Value x = b.input(f32({8}), "x");
  Value evens = b.slice(x, {0}, {8}, {2});
  Value odds = b.slice(x, {1}, {8}, {2});
  Fusion f = canonical(b, b.cat({evens, odds}, 0));
  EXPECT_EQ(f.num_nodes(), 4);
}

TEST(CanonicalizeMovement, EmptyCatOperandsAreDropped) {
  Builder b("f");
  Value x = b.input(f32({3, 4}), "x");
  Value empty = b.input(f32({3, 0}), "empty");
  Value lo = b.slice_axis(x, 1, 0, 2);
  Value nothing = b.slice_axis(x, 1, 3, 3);
  Value hi = b.slice_axis(x, 1, 2, 4);
  Fusion f = canonical(b, b.cat({empty, lo, nothing, empty, hi}, 1));
  EXPECT_EQ(f.outputs()[0].value, f.inputs()[0]);
  Builder c("f");
  Value e = c.input(f32({3, 0}), "e");
  Fusion g = canonical(c, c.cat({e, e}, 1));
  EXPECT_EQ(g.outputs()[0].value, g.inputs()[0]);
}

TEST(CanonicalizeMovement, NonMovementOpsAreCopied) {
  Builder b("f");
  Value x = b.input(f32({3}), "x");
  Value e = b.exp(b.slice(x, {0}, {3}, {1}));
  Fusion f = canonical(b, e);
  EXPECT_EQ(ops_of(f), (std::vector<OpKind>{OpKind::Input, OpKind::Exp}));
}

}  // namespace
}  // namespace seam
