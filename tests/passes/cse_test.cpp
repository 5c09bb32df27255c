#include "passes/cse.h"

#include <gtest/gtest.h>

#include <cmath>

#include "ir/builder.h"
#include "passes/dead_code.h"

namespace seam {
namespace {

Type f32(Shape shape) { return Type::tensor(DType::Float32, std::move(shape)); }

int count_ops(const Fusion& f, OpKind op) {
  int n = 0;
  for (const Node& node : f.nodes()) n += node.op == op;
  return n;
}

TEST(Cse, MergesIdenticalOpsTransitively) {
  Builder b("f");
  Value x = b.input(f32({4}), "x");
  Value a1 = b.exp(x), a2 = b.exp(x);
  Value m1 = b.mul(a1, x), m2 = b.mul(a2, x);  // equal only once a1 and a2 merge
  Fusion after = eliminate_common_subexpressions(b.finish({{m1, "p"}, {m2, "q"}}));
  after = eliminate_dead_code(after);
  EXPECT_EQ(count_ops(after, OpKind::Exp), 1);
  EXPECT_EQ(count_ops(after, OpKind::Mul), 1);
  EXPECT_EQ(after.outputs()[0].value, after.outputs()[1].value);
  EXPECT_EQ(after.outputs()[1].name, "q");
}

TEST(Cse, KeepsOpsThatDifferInOperandOrderAttributesOrType) {
  Builder b("f");
  Value x = b.input(f32({2, 3}), "x");
  Value y = b.input(f32({2, 3}), "y");
  Value s1 = b.sub(x, y), s2 = b.sub(y, x);                               // operand order
  Value c1 = b.cast(x, DType::BFloat16), c2 = b.cast(x, DType::Float16);  // attribute and type
  Value r1 = b.sum(x, {0}), r2 = b.sum(x, {0}, /*keepdim=*/true);         // attribute and shape
  Fusion after = eliminate_common_subexpressions(b.finish({s1, s2, c1, c2, r1, r2}));
  EXPECT_EQ(after.num_nodes(), 8);
}

TEST(Cse, NeverMergesInputs) {
  Builder b("f");
  Value x = b.input(f32({3}), "x");
  Value y = b.input(f32({3}), "y");  // same type, a different argument
  Fusion after = eliminate_common_subexpressions(b.finish({b.exp(x), b.exp(y)}));
  EXPECT_EQ(after.inputs().size(), 2u);
  EXPECT_EQ(count_ops(after, OpKind::Exp), 2);
}

TEST(Cse, MergesIdenticalLeavesOnly) {
  Builder b("f");
  Value f1 = b.full({3}, DType::Float32, Number::of_float(0.0));
  Value f2 = b.full({3}, DType::Float32, Number::of_float(0.0));
  Value negative_zero = b.full({3}, DType::Float32, Number::of_float(-0.0));  // other bits: stays
  Value other_shape = b.full({4}, DType::Float32, Number::of_float(0.0));
  Value i1 = b.iota(3, DType::Int32), i2 = b.iota(3, DType::Int32);
  Value i3 = b.iota(3, DType::Int32, Number::of_int(1));
  Value k1 = b.constant(Number::of_int(2), DType::Int64), k2 = b.constant(Number::of_int(2), DType::Int64);
  Value k3 = b.constant(Number::of_int(2), DType::Int32);
  Fusion after = eliminate_dead_code(eliminate_common_subexpressions(
      b.finish({f1, f2, negative_zero, other_shape, i1, i2, i3, k1, k2, k3})));
  EXPECT_EQ(count_ops(after, OpKind::Full), 3);
  EXPECT_EQ(count_ops(after, OpKind::Iota), 2);
  EXPECT_EQ(count_ops(after, OpKind::Const), 2);
  EXPECT_EQ(after.outputs()[0].value, after.outputs()[1].value);
  EXPECT_NE(after.outputs()[0].value, after.outputs()[2].value);
  EXPECT_EQ(after.outputs()[4].value, after.outputs()[5].value);
  EXPECT_EQ(after.outputs()[7].value, after.outputs()[8].value);
}

TEST(Cse, KeyDistinguishesSignedZeroAndAgreesOnNan) {
  ProposedNode zero{OpKind::Full, {}, {{"value", Number::of_float(0.0)}}, f32({2})};
  ProposedNode negative_zero = zero;
  negative_zero.attrs.set("value", Number::of_float(-0.0));
  EXPECT_NE(cse_key(zero), cse_key(negative_zero));
  ProposedNode nan = zero;
  nan.attrs.set("value", Number::of_float(std::nan("")));
  ProposedNode other_nan = zero;
  other_nan.attrs.set("value", Number::of_float(-std::nan("1")));
  EXPECT_EQ(cse_key(nan), cse_key(other_nan));
}

}  // namespace
}  // namespace seam
