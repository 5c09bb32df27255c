// Branch-free pieces (LoweringOptions::branch_free): pad and cat pieces become guarded loads and selects,
// and sibling cat pieces share their loads (lower/merge_guarded_loads.h). Checked structurally on the
// kernel IR and numerically through the host backend against the interpreter.
#include <gtest/gtest.h>

#include "ir/builder.h"
#include "lower/lower_pointwise.h"
#include "testing/host_lowering.h"

namespace seam {
namespace {

using enum DType;

struct Counts {
  int loads = 0, guarded_loads = 0, branches = 0, selects = 0;
};

void count(const kir::Block& block, Counts& c) {
  for (const kir::Stmt& s : block) {
    if (s.kind == kir::Stmt::Kind::If) ++c.branches;
    if (s.kind == kir::Stmt::Kind::Define && s.expr.kind == kir::Expr::Kind::Load) {
      ++c.loads;
      c.guarded_loads += !s.expr.guards.empty();
    }
    if (s.kind == kir::Stmt::Kind::Define && s.expr.kind == kir::Expr::Kind::Select) ++c.selects;
    count(s.then_block, c);
    count(s.else_block, c);
  }
}

// Lowers, checks every output against the interpreter on the host backend, returns output 0's counts.
Counts lower_and_check(const Fusion& fusion, bool branch_free) {
  LoweringOptions options;
  options.branch_free = branch_free;
  kir::Kernel kernel = lower_and_check_on_host(fusion, options, Tolerance{1e-6, 1e-6}, 11);
  Counts c;
  count(kernel.outputs.at(0).body, c);
  return c;
}

Fusion rotate_half() {
  Builder b("rotate_half");
  Value x = b.input(Type::tensor(Float32, {4, 64}));
  Value lo = b.slice_axis(x, 1, 0, 32), hi = b.slice_axis(x, 1, 32, 64);
  return b.finish({b.cat({b.neg(hi), lo}, 1)});
}

TEST(BranchFree, RotateHalfIsOneSelectedLoadWithoutBranches) {
  Counts c = lower_and_check(rotate_half(), true);
  EXPECT_EQ(c.branches, 0);
  EXPECT_EQ(c.loads, 1);  // the two pieces' loads of x merged into one with a selected address
  EXPECT_EQ(c.guarded_loads, 0);
  EXPECT_EQ(c.selects, 1);
}

TEST(BranchFree, BranchyLoweringKeepsOneLoadPerPiece) {
  Counts c = lower_and_check(rotate_half(), false);
  EXPECT_EQ(c.branches, 1);
  EXPECT_EQ(c.loads, 2);
}

// Three pieces from two inputs: loads merge per input only, and a piece with no load of an input leaves
// that input's loads guarded.
TEST(BranchFree, ThreePieceCatMergesPerInput) {
  Builder b("three");
  Value x = b.input(Type::tensor(Float32, {3, 48}));
  Value y = b.input(Type::tensor(Float32, {3, 16}));
  Value z = b.cat({b.slice_axis(x, 1, 32, 48), b.neg(b.slice_axis(x, 1, 0, 16)), b.mul(y, y)}, 1);
  Counts c = lower_and_check(b.finish({z}), true);
  EXPECT_EQ(c.branches, 0);
  EXPECT_EQ(c.loads, 2);  // x in pieces 0 and 1 merged (guarded to them), y in piece 2 (guarded)
  EXPECT_EQ(c.guarded_loads, 2);
}

// Partial rotary (phi-2): cat(rotate(x[..., :n]), x[..., n:]) nests a cat in a cat; the inner pieces
// merge first, then the outer pieces' first loads of x.
TEST(BranchFree, NestedCatsMergeInnermostFirst) {
  Builder b("partial");
  Value x = b.input(Type::tensor(Float32, {2, 40}));
  Value c = b.input(Type::tensor(Float32, {2, 16}));
  Value rot = b.slice_axis(x, 1, 0, 16);
  Value r = b.cat({b.neg(b.slice_axis(rot, 1, 8, 16)), b.slice_axis(rot, 1, 0, 8)}, 1);
  Value y = b.cat({b.add(b.mul(rot, c), r), b.slice_axis(x, 1, 16, 40)}, 1);
  Counts counts = lower_and_check(b.finish({y}), true);
  EXPECT_EQ(counts.branches, 0);
  EXPECT_EQ(counts.loads, 3);  // x (merged with the tail), c and the partner (guarded to the rotary part)
  EXPECT_EQ(counts.guarded_loads, 2);
}

// Pieces reading different inputs share one load through a selected pointer.
TEST(BranchFree, PiecesOfDifferentInputsShareALoad) {
  Builder b("qkv");
  Value q = b.input(Type::tensor(BFloat16, {4, 16}));
  Value k = b.input(Type::tensor(BFloat16, {4, 8}));
  Value v = b.input(Type::tensor(BFloat16, {4, 8}));
  Value y = b.cat({b.neg(q), k, v}, 1);
  Counts c = lower_and_check(b.finish({y}), true);
  EXPECT_EQ(c.branches, 0);
  EXPECT_EQ(c.loads, 1);
  EXPECT_EQ(c.guarded_loads, 0);
}

// A cat on an outer axis is long runs of chunks per piece: a branch, uniform across most warps, so
// each thread does one piece's work (RoPE backward's q, k and v parts of dqkv).
TEST(BranchFree, CatOnAnOuterAxisStaysABranch) {
  Builder b("outer");
  Value q = b.input(Type::tensor(BFloat16, {4, 2, 16}));
  Value k = b.input(Type::tensor(BFloat16, {4, 1, 16}));
  Value y = b.cat({b.neg(q), k}, 1);
  Counts c = lower_and_check(b.finish({y}), true);
  EXPECT_EQ(c.branches, 1);
  EXPECT_EQ(c.loads, 2);
  EXPECT_EQ(c.guarded_loads, 0);
}

// Pads read nothing outside the input: their loads are guarded, the padding value selected.
TEST(BranchFree, PadLoadsAreGuarded) {
  Builder b("pad");
  Value x = b.input(Type::tensor(BFloat16, {3, 16}));
  Value y = b.pad(b.neg(x), {0, 8}, {0, 16}, Number::of_float(2.5));
  Counts c = lower_and_check(b.finish({y}), true);
  EXPECT_EQ(c.branches, 0);
  EXPECT_EQ(c.loads, 1);
  EXPECT_EQ(c.guarded_loads, 1);
  EXPECT_EQ(c.selects, 1);
}

}  // namespace
}  // namespace seam
