#include <gtest/gtest.h>

#include <set>

#include "ir/op.h"

namespace seam {
namespace {

TEST(OpTable, KeywordsAreUniqueAndLookUp) {
  std::set<std::string_view> seen;
  for (int i = 0; i < kNumOpKinds; ++i) {
    const OpInfo& info = op_info(static_cast<OpKind>(i));
    EXPECT_EQ(static_cast<int>(info.kind), i);
    EXPECT_TRUE(seen.insert(info.keyword).second) << "duplicate keyword " << info.keyword;
    EXPECT_EQ(op_from_keyword(info.keyword), info.kind);
  }
  EXPECT_FALSE(op_from_keyword("no_such_op").has_value());
}

TEST(OpTable, PointwiseOpsHaveADTypeRuleAndOthersDoNot) {
  for (int i = 0; i < kNumOpKinds; ++i) {
    const OpInfo& info = op_info(static_cast<OpKind>(i));
    bool math = info.category == OpCategory::Unary || info.category == OpCategory::Binary ||
                info.category == OpCategory::Ternary;
    EXPECT_EQ(math, info.dtype_rule != DTypeRule::None) << info.keyword;
  }
}

TEST(OpTable, SchemasParse) {
  const OpInfo& slice = op_info(OpKind::Slice);
  ASSERT_EQ(slice.attrs.size(), 3u);
  EXPECT_EQ(slice.attrs[0].key, "starts");
  EXPECT_EQ(slice.attrs[0].kind, AttrKind::Ints);
  const OpInfo& input = op_info(OpKind::Input);
  ASSERT_EQ(input.attrs.size(), 2u);
  EXPECT_TRUE(input.attrs[0].optional);
  EXPECT_EQ(op_info(OpKind::Cat).max_arity, -1);
}

}  // namespace
}  // namespace seam
