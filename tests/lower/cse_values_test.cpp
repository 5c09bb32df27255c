// The kernel-IR value CSE (lower/cse_values.h): recomputations go, scopes and assigned variables are
// respected, uses are renamed. End to end it runs inside every pointwise lowering the host tests check.
#include "lower/cse_values.h"

#include <gtest/gtest.h>

namespace seam {
namespace {

using enum DType;

kir::Var var(const std::string& name, DType dtype = Float32, int lanes = 8) { return {name, dtype, lanes}; }

kir::Stmt define(const kir::Var& v, kir::Expr::Kind kind, std::vector<kir::Var> args,
                 OpKind op = OpKind::Add) {
  kir::Stmt s{kir::Stmt::Kind::Define};
  s.var = v;
  s.expr = kir::Expr{kind};
  s.expr.args = std::move(args);
  s.expr.op = op;
  return s;
}

kir::Stmt store(const kir::Var& v) {
  kir::Stmt s{kir::Stmt::Kind::Store};
  s.source = v;
  s.index = kir::constant(0);
  return s;
}

const kir::Var x = var("x", BFloat16);

TEST(CseValues, RecomputationIsRemovedAndItsUsesRenamed) {
  kir::Block body = {define(var("a"), kir::Expr::Kind::Convert, {x}),
                     define(var("b"), kir::Expr::Kind::Convert, {x}),
                     define(var("c"), kir::Expr::Kind::Call, {var("a"), var("b")}), store(var("c"))};
  EXPECT_EQ(cse_values(body), 1);
  ASSERT_EQ(body.size(), 3u);
  EXPECT_EQ(body[1].expr.args[1].name, "a");  // b's use now reads a
  // A different op on the same arguments is a different value.
  kir::Block ops = {define(var("p"), kir::Expr::Kind::Call, {x, x}, OpKind::Add),
                    define(var("q"), kir::Expr::Kind::Call, {x, x}, OpKind::Mul)};
  EXPECT_EQ(cse_values(ops), 0);
  // Literals of one value and dtype are one; another value or dtype is another literal.
  auto literal = [](const std::string& name, Number n, DType dtype) {
    kir::Stmt s = define(var(name, dtype, 1), kir::Expr::Kind::Literal, {});
    s.expr.literal = n;
    return s;
  };
  kir::Block literals = {literal("z0", Number::of_int(0), Float32), literal("z1", Number::of_int(0), Float32),
                         literal("z2", Number::of_int(1), Float32),
                         literal("z3", Number::of_int(0), Float64)};
  EXPECT_EQ(cse_values(literals), 1);
  // So is the same op at a different width or dtype.
  kir::Block widths = {define(var("r", Float32, 8), kir::Expr::Kind::Convert, {x}),
                       define(var("s", Float32, 1), kir::Expr::Kind::Convert, {x}),
                       define(var("t", Float64, 8), kir::Expr::Kind::Convert, {x})};
  EXPECT_EQ(cse_values(widths), 0);
}

kir::Stmt load(const std::string& name, int64_t offset, std::vector<kir::Guard> guards = {}) {
  kir::Stmt s = define(var(name, BFloat16), kir::Expr::Kind::Load, {});
  s.expr.param = 0;
  s.expr.offset = kir::add(kir::variable("q"), offset);
  s.expr.guards = std::move(guards);
  return s;
}

// Inputs are read-only in a kernel, so a second load of the same address under the same guards is the
// first one; another address or another guard is another load.
TEST(CseValues, RepeatedLoadsAreOneLoad) {
  kir::Guard inside{-1, 0, 1, {kir::Bound{kir::variable("q"), 0, 64}}};
  kir::Block body = {load("a", 8),
                     load("b", 8),
                     load("c", 16),
                     load("d", 8, {inside}),
                     load("e", 8, {inside}),
                     define(var("s"), kir::Expr::Kind::Call, {var("b", BFloat16), var("e", BFloat16)})};
  EXPECT_EQ(cse_values(body), 2);  // b (a) and e (d)
  EXPECT_EQ(body.back().expr.args[0].name, "a");
  EXPECT_EQ(body.back().expr.args[1].name, "d");
}

TEST(CseValues, ScopesFollowTheBlocks) {
  kir::Stmt branch{kir::Stmt::Kind::If};
  branch.then_block = {define(var("inner"), kir::Expr::Kind::Convert, {x}), store(var("inner"))};
  branch.else_block = {define(var("other"), kir::Expr::Kind::Call, {x}, OpKind::Neg), store(var("other"))};
  kir::Stmt sibling{kir::Stmt::Kind::If};
  sibling.then_block = {define(var("again"), kir::Expr::Kind::Call, {x}, OpKind::Neg), store(var("again"))};
  kir::Block body = {define(var("outer"), kir::Expr::Kind::Convert, {x}), branch, sibling};
  // `inner` repeats `outer` from an enclosing block: removed. `again` repeats `other` from a sibling
  // block, which does not dominate it: kept.
  EXPECT_EQ(cse_values(body), 1);
  EXPECT_EQ(body[1].then_block.size(), 1u);
  EXPECT_EQ(body[1].then_block[0].source.name, "outer");
  EXPECT_EQ(body[2].then_block.size(), 2u);
}

TEST(CseValues, ValuesReadingAssignedVariablesStay) {
  kir::Stmt declare{kir::Stmt::Kind::Declare};
  declare.var = var("d");
  kir::Stmt assign{kir::Stmt::Kind::Assign};
  assign.var = var("d");
  assign.source = var("y");
  kir::Block body = {declare, define(var("u"), kir::Expr::Kind::Call, {var("d")}, OpKind::Neg), assign,
                     define(var("w"), kir::Expr::Kind::Call, {var("d")}, OpKind::Neg)};
  EXPECT_EQ(cse_values(body), 0);
}

}  // namespace
}  // namespace seam
