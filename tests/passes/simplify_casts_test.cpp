#include "passes/simplify_casts.h"

#include <gtest/gtest.h>

#include "ir/builder.h"
#include "passes/dead_code.h"

namespace seam {
namespace {

// x of dtype `from` cast through each dtype of `chain` in turn, as the only output; simplified and
// cleaned up.
Fusion simplified_chain(DType from, std::vector<DType> chain) {
  Builder b("f");
  Value v = b.input(Type::tensor(from, {3}), "x");
  for (DType d : chain) v = b.cast(v, d);
  return eliminate_dead_code(simplify_casts(b.finish({v})));
}

// The dtypes the remaining casts of a simplified chain convert to, in order.
std::vector<DType> cast_targets(const Fusion& f) {
  std::vector<DType> targets;
  for (const Node& n : f.nodes())
    if (n.op == OpKind::Cast) targets.push_back(n.attrs.get_dtype("dtype"));
  return targets;
}

using D = DType;

TEST(SimplifyCasts, ValuePreservingTable) {
  // Every widening that keeps all values, and the classic lossy ones.
  EXPECT_TRUE(is_value_preserving_cast(D::Bool, D::Float16));
  EXPECT_TRUE(is_value_preserving_cast(D::Bool, D::Int32));
  EXPECT_TRUE(is_value_preserving_cast(D::Int32, D::Int64));
  EXPECT_TRUE(is_value_preserving_cast(D::Int32, D::Float64));
  EXPECT_TRUE(is_value_preserving_cast(D::Float16, D::Float32));
  EXPECT_TRUE(is_value_preserving_cast(D::BFloat16, D::Float32));
  EXPECT_TRUE(is_value_preserving_cast(D::BFloat16, D::Float64));
  EXPECT_TRUE(is_value_preserving_cast(D::Float32, D::Float64));
  EXPECT_FALSE(is_value_preserving_cast(D::Int32, D::Float32));  // 2^24 + 1
  EXPECT_FALSE(is_value_preserving_cast(D::Int64, D::Float64));  // 2^53 + 1
  EXPECT_FALSE(is_value_preserving_cast(D::Float32, D::BFloat16));
  EXPECT_FALSE(is_value_preserving_cast(D::Float16, D::BFloat16));  // f16 has more mantissa
  EXPECT_FALSE(is_value_preserving_cast(D::BFloat16, D::Float16));  // bf16 has more range
  EXPECT_FALSE(is_value_preserving_cast(D::Float32, D::Int64));
  EXPECT_FALSE(is_value_preserving_cast(D::Int32, D::Bool));
  for (DType d : kAllDTypes) EXPECT_TRUE(is_value_preserving_cast(d, d));
}

TEST(SimplifyCasts, DropsSameDtypeCast) {
  Fusion f = simplified_chain(D::Float32, {D::Float32});
  EXPECT_EQ(f.num_nodes(), 1);
  EXPECT_EQ(f.outputs()[0].value, f.inputs()[0]);
}

TEST(SimplifyCasts, RoundTripThroughWiderTypeIsIdentity) {
  EXPECT_EQ(simplified_chain(D::BFloat16, {D::Float32, D::BFloat16}).num_nodes(), 1);
  EXPECT_EQ(simplified_chain(D::Int32, {D::Int64, D::Int32}).num_nodes(), 1);
  EXPECT_EQ(simplified_chain(D::Float16, {D::Float32, D::Float64, D::Float16}).num_nodes(), 1);
}

TEST(SimplifyCasts, RoundTripThroughNarrowerTypeStays) {
  EXPECT_EQ(cast_targets(simplified_chain(D::Float32, {D::BFloat16, D::Float32})),
            (std::vector<D>{D::BFloat16, D::Float32}));
  EXPECT_EQ(cast_targets(simplified_chain(D::Int32, {D::Float32, D::Int32})),
            (std::vector<D>{D::Float32, D::Int32}));
  EXPECT_EQ(cast_targets(simplified_chain(D::Int64, {D::Float64, D::Int64})),
            (std::vector<D>{D::Float64, D::Int64}));
}

TEST(SimplifyCasts, ExactInnerCastIsSkipped) {
  // bf16 -> f32 -> f16 reads the same value as bf16 -> f16.
  Fusion f = simplified_chain(D::BFloat16, {D::Float32, D::Float16});
  EXPECT_EQ(cast_targets(f), (std::vector<D>{D::Float16}));
  EXPECT_EQ(f.node(f.outputs()[0].value).operands[0], f.inputs()[0]);
  // A lossy step in the middle stops the folding there: f32 -> f64 -> bf16 -> f32.
  EXPECT_EQ(cast_targets(simplified_chain(D::Float32, {D::Float64, D::BFloat16, D::Float32})),
            (std::vector<D>{D::BFloat16, D::Float32}));
}

TEST(SimplifyCasts, InnerCastWithOtherUsersStays) {
  Builder b("f");
  Value x = b.input(Type::tensor(D::BFloat16, {3}), "x");
  Value wide = b.cast(x, D::Float32);
  Value back = b.cast(wide, D::BFloat16);
  Fusion f = eliminate_dead_code(simplify_casts(b.finish({{back, "back"}, {wide, "wide"}})));
  EXPECT_EQ(f.outputs()[0].value, f.inputs()[0]);
  EXPECT_EQ(f.node(f.outputs()[1].value).op, OpKind::Cast);
  EXPECT_EQ(f.num_nodes(), 2);
}

TEST(SimplifyCasts, RulesApplyOnlyToCasts) {
  Builder b("f");
  Value x = b.input(Type::tensor(D::Float32, {3}), "x");
  ProposedNode neg{OpKind::Neg, {x}, {}, std::nullopt};
  EXPECT_FALSE(fold_same_dtype_cast(b, neg));
  EXPECT_FALSE(fold_cast_of_exact_cast(b, neg));
  ProposedNode same{OpKind::Cast, {x}, {{"dtype", D::Float32}}, std::nullopt};
  EXPECT_EQ(fold_same_dtype_cast(b, same), x);
  ProposedNode narrow{OpKind::Cast, {x}, {{"dtype", D::BFloat16}}, std::nullopt};
  EXPECT_FALSE(fold_same_dtype_cast(b, narrow));
  EXPECT_FALSE(fold_cast_of_exact_cast(b, narrow));  // operand is not a cast
}

}  // namespace
}  // namespace seam
