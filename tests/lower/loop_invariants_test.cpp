// Loop-invariant code motion on hand-built kernel IR (lower/loop_invariants.h).
#include "lower/loop_invariants.h"

#include <gtest/gtest.h>

namespace seam {
namespace {

kir::Stmt let(const std::string& name, kir::Index index) {
  kir::Stmt s{kir::Stmt::Kind::Let};
  s.name = name;
  s.index = std::move(index);
  return s;
}

kir::Stmt load(const std::string& name, kir::Index offset) {
  kir::Stmt s{kir::Stmt::Kind::Define};
  s.var = kir::Var{name, DType::Float32, 1};
  s.expr = kir::Expr{kir::Expr::Kind::Load};
  s.expr.offset = std::move(offset);
  return s;
}

kir::Stmt add(const std::string& name, const std::string& a, const std::string& b) {
  kir::Stmt s{kir::Stmt::Kind::Define};
  s.var = kir::Var{name, DType::Float32, 1};
  s.expr = kir::Expr{kir::Expr::Kind::Call};
  s.expr.op = OpKind::Add;
  s.expr.args = {kir::Var{a, DType::Float32, 1}, kir::Var{b, DType::Float32, 1}};
  return s;
}

kir::Stmt assign(const std::string& target, const std::string& source) {
  kir::Stmt s{kir::Stmt::Kind::Assign};
  s.var = kir::Var{target, DType::Float32, 1};
  s.source = kir::Var{source, DType::Float32, 1};
  return s;
}

std::vector<std::string> names(const kir::Block& block) {
  std::vector<std::string> out;
  for (const kir::Stmt& s : block)
    out.push_back(s.kind == kir::Stmt::Kind::Let || s.kind == kir::Stmt::Kind::Loop ? s.name : s.var.name);
  return out;
}

TEST(LoopInvariants, WhatIgnoresTheLoopMovesBeforeItInOrder) {
  kir::Stmt loop{kir::Stmt::Kind::Loop};
  loop.name = "r";
  loop.begin = 1;
  loop.extent = 4;
  loop.then_block = {
      let("e", kir::mul(kir::variable("r"), 64)),                   // reads r: stays
      load("c", kir::variable("t")),                                // ignores r: moves
      load("x", kir::add(kir::variable("e"), kir::variable("t"))),  // reads e: stays
      add("cc", "c", "c"),                                          // reads only c: moves
      add("y", "x", "cc"),                                          // reads x: stays
      add("s2", "s", "y"),                                          // reads the assigned s: stays
      assign("s", "s2"),
      add("z", "s", "c"),  // s is assigned in the loop: stays
  };
  kir::Block body = {loop};
  hoist_loop_invariants(body);
  EXPECT_EQ(names(body), (std::vector<std::string>{"c", "cc", "r"}));
  EXPECT_EQ(names(body[2].then_block), (std::vector<std::string>{"e", "x", "y", "s2", "s", "z"}));
}

TEST(LoopInvariants, InnerLoopsHoistThroughOuterOnes) {
  kir::Stmt inner{kir::Stmt::Kind::Loop};
  inner.name = "b";
  inner.then_block = {load("u", kir::variable("t")), load("v", kir::variable("a")),
                      load("w", kir::variable("b"))};
  kir::Stmt outer{kir::Stmt::Kind::Loop};
  outer.name = "a";
  outer.then_block = {inner};
  kir::Block body = {outer};
  hoist_loop_invariants(body);
  // u ignores both loops; v only the inner one; w reads b.
  EXPECT_EQ(names(body), (std::vector<std::string>{"u", "a"}));
  EXPECT_EQ(names(body[1].then_block), (std::vector<std::string>{"v", "b"}));
  EXPECT_EQ(names(body[1].then_block[1].then_block), (std::vector<std::string>{"w"}));
}

}  // namespace
}  // namespace seam
