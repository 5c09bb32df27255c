#include "passes/dead_code.h"

#include <gtest/gtest.h>

#include "ir/builder.h"

namespace seam {
namespace {

Type f32(Shape shape) { return Type::tensor(DType::Float32, std::move(shape)); }

TEST(DeadCode, RemovesNodesNoOutputUses) {
  Builder b("f");
  Value x = b.input(f32({4}), "x");
  Value used = b.exp(x);
  b.neg(x);            // dead
  b.neg(b.neg(used));  // dead chain hanging off a live node
  Fusion before = b.finish({used});
  Fusion after = eliminate_dead_code(before);
  ASSERT_EQ(after.num_nodes(), 2);
  EXPECT_EQ(after.node(Value{1}).op, OpKind::Exp);
  EXPECT_EQ(after.outputs()[0].value, Value{1});
}

TEST(DeadCode, KeepsUnusedInputsInOrderWithTheirAttributes) {
  Builder b("f");
  b.input(f32({2}), "unused_a");
  Value x = b.input(f32({2, 3}), "x", {1, 2});
  b.exp(x);  // dead
  b.input(Type::scalar(DType::Int64), "unused_b");
  Fusion after = eliminate_dead_code(b.finish({{x, "out"}}));
  ASSERT_EQ(after.inputs().size(), 3u);
  EXPECT_EQ(after.node(after.inputs()[0]).attrs.get_string("name"), "unused_a");
  EXPECT_EQ(after.node(after.inputs()[1]).attrs.get_ints("strides"), (Shape{1, 2}));
  EXPECT_EQ(after.node(after.inputs()[2]).type, Type::scalar(DType::Int64));
  EXPECT_EQ(after.num_nodes(), 3);
  EXPECT_EQ(after.outputs()[0].name, "out");
  EXPECT_EQ(after.outputs()[0].value, after.inputs()[1]);
}

TEST(DeadCode, KeepsEveryOutputAndWhatItNeeds) {
  Builder b("f");
  Value x = b.input(f32({3}), "x");
  Value y = b.input(f32({3}), "y");
  Value s = b.add(x, y);
  b.mul(s, s);  // dead
  Value e = b.exp(s);
  Fusion after = eliminate_dead_code(b.finish({{e, "e"}, {s, "s"}, {e, "e_again"}}));
  EXPECT_EQ(after.num_nodes(), 4);
  ASSERT_EQ(after.outputs().size(), 3u);
  EXPECT_EQ(after.node(after.outputs()[0].value).op, OpKind::Exp);
  EXPECT_EQ(after.node(after.outputs()[1].value).op, OpKind::Add);
  EXPECT_EQ(after.outputs()[2].value, after.outputs()[0].value);
}

TEST(DeadCode, LiveNodesMarksOnlyWhatOutputsReach) {
  Builder b("f");
  Value x = b.input(f32({3}), "x");
  Value unused = b.input(f32({3}), "unused");
  Value dead = b.neg(unused);
  Value e = b.exp(x);
  Fusion f = b.finish({e});
  std::vector<bool> live = live_nodes(f);
  EXPECT_TRUE(live[x.id]);
  EXPECT_FALSE(live[unused.id]);
  EXPECT_FALSE(live[dead.id]);
  EXPECT_TRUE(live[e.id]);
}

}  // namespace
}  // namespace seam
