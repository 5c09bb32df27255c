// Chunk orders chosen from a first, row-major lowering (lower/invariant_coordinate.h):
//  - copies: outputs invariant along part of an axis (an expanded tensor: GQA's k and v heads) are
//    computed once per block of copies and stored to each (LoweringOptions::max_copies);
//  - runs: outputs whose outer-axis branches change every few chunks of a row (RoPE backward's dqkv
//    slots) take runs of those chunks from several rows per warp (LoweringOptions::uniform_branches).
// Checked on the kernel IR and numerically through the host backend against the interpreter.
#include <gtest/gtest.h>

#include "ir/builder.h"
#include "lower/invariant_coordinate.h"
#include "lower/lower_pointwise.h"
#include "plan/pointwise_plan.h"
#include "testing/host_lowering.h"
#include "workloads/rope.h"

namespace seam {
namespace {

using enum DType;

int stores(const kir::Block& block) {
  int n = 0;
  for (const kir::Stmt& s : block) n += s.kind == kir::Stmt::Kind::Store;
  return n;
}

kir::Kernel lower_and_check(const Fusion& fusion, int max_copies) {
  LoweringOptions options;
  options.max_copies = max_copies;
  return lower_and_check_on_host(fusion, options, Tolerance{1e-6, 1e-6}, 5);
}

TEST(Copies, IndexSimplificationDividesExactMultiples) {
  kir::Index x = kir::variable("x");
  EXPECT_EQ(kir::to_string(kir::div(kir::mul(x, 8), 4)), "(x * 2)");
  EXPECT_EQ(kir::to_string(kir::div(kir::mul(x, 4), 4)), "x");
  EXPECT_EQ(kir::to_string(kir::mod(kir::mul(x, 8), 4)), "0");
  EXPECT_EQ(kir::to_string(kir::div(kir::mul(x, 6), 4)), "((x * 6) / 4)");  // not exact: kept
  EXPECT_EQ(kir::to_string(kir::mod(kir::mul(x, 6), 4)), "((x * 6) % 4)");
}

kir::Block block_reading(kir::Index offset) {
  kir::Stmt load{kir::Stmt::Kind::Define};
  load.expr = kir::Expr{kir::Expr::Kind::Load};
  load.expr.offset = std::move(offset);
  return {load};
}

TEST(Copies, InvariantBlockIsTheGcdOfTheDivisors) {
  kir::Index x = kir::variable("x"), y = kir::variable("y");
  EXPECT_EQ(invariant_block(block_reading(kir::mul(y, 3)), "x", 32), 32);  // never read
  EXPECT_EQ(invariant_block(block_reading(kir::add(kir::div(x, 4), kir::div(x, 8))), "x", 32), 4);
  EXPECT_EQ(invariant_block(block_reading(kir::div(x, 64)), "x", 32), 32);
  EXPECT_EQ(invariant_block(block_reading(kir::div(x, 6)), "x", 32), 2);
  EXPECT_EQ(invariant_block(block_reading(kir::add(kir::div(x, 4), kir::mod(x, 4))), "x", 32), 1);
  EXPECT_EQ(invariant_block(block_reading(kir::add(x, 1)), "x", 32), 1);
  // A guard's bounds and an If's bounds count as reads; stores do not.
  kir::Block guarded = block_reading(kir::constant(0));
  guarded[0].expr.guards.push_back(kir::Guard{-1, 0, 1, {kir::Bound{x, 0, 8}}});
  EXPECT_EQ(invariant_block(guarded, "x", 32), 1);
  kir::Stmt branch{kir::Stmt::Kind::If};
  branch.bounds = {kir::Bound{kir::div(x, 16), std::nullopt, 1}};
  branch.then_block = block_reading(kir::div(x, 8));
  EXPECT_EQ(invariant_block({branch}, "x", 32), 8);
  kir::Stmt store{kir::Stmt::Kind::Store};
  store.index = x;
  EXPECT_EQ(invariant_block({store}, "x", 32), 32);
}

// GQA as litgpt 0.5.0 writes it: k and v expanded from ng to nh heads. q is not invariant; k (rotated)
// and v (a copy) are computed once per group and stored qpk times.
TEST(Copies, ExpandedGqaHeadsAreStoredFromOneComputation) {
  RopeConfig config{"tiny-gqa", 8, 2, 16, 16, 8};
  RopeOptions rope;
  rope.dtype = Float32;
  Fusion fusion = build_rope(config, rope);
  kir::Kernel kernel = lower_and_check(fusion, 16);
  ASSERT_EQ(kernel.outputs.size(), 3u);
  int replicated = 0;
  for (const kir::OutputProgram& p : kernel.outputs) {
    EXPECT_EQ(stores(p.body), p.order.copies);
    EXPECT_EQ(p.chunks * p.lanes * p.order.copies, p.numel);
    replicated += p.order.copies == 4;
    EXPECT_TRUE(p.order.copies == 1 || p.order.copies == 4) << p.order.copies;
  }
  EXPECT_EQ(replicated, 2);  // k and v

  kir::Kernel off = lower_and_check(fusion, 1);
  for (const kir::OutputProgram& p : off.outputs) EXPECT_EQ(p.order.copies, 1);
}

// A broadcast input expanded along an outer axis: the copies are capped at max_copies (the largest
// divisor of the invariant block within it), and a value read along that axis is not copied.
Fusion expand_outer(bool with_sum) {
  Builder b("expand_outer");
  Value row = b.input(Type::tensor(Float32, {1, 6, 16}));
  Value expanded = b.exp(b.expand(row, {24, 6, 16}));
  if (!with_sum) return b.finish({expanded});
  Value other = b.input(Type::tensor(Float32, {24, 6, 16}));
  return b.finish({expanded, b.add(expanded, other)});
}

TEST(Copies, CopiesAreCappedAtADivisorOfTheBlock) {
  kir::Kernel kernel = lower_and_check(expand_outer(true), 8);
  EXPECT_EQ(kernel.outputs.at(0).order.copies, 8);
  EXPECT_EQ(kernel.outputs.at(1).order.copies, 1);
  kir::Kernel capped = lower_and_check(expand_outer(false), 5);
  EXPECT_EQ(capped.outputs.at(0).order.copies, 4);  // 24 copies: the largest divisor <= 5
}

// Copies of a value in the row-tiled chunk order and at a narrower vector width still match.
TEST(Copies, WorkWithRowTilesAndNarrowVectors) {
  Builder b("tiled");
  Value src = b.input(Type::tensor(Float32, {2, 1, 64, 12}));
  Value out = b.neg(b.reshape(b.expand(src, {2, 3, 64, 12}), {6, 64, 12}));
  LoweringOptions options;
  options.row_tile_min_bytes = 0;  // tile even this small slab
  kir::Kernel kernel = lower_and_check_on_host(b.finish({out}), options, Tolerance{1e-6, 1e-6}, 3);
  EXPECT_GT(kernel.outputs.at(0).order.tile, 1);
  EXPECT_EQ(kernel.outputs.at(0).order.copies, 3);
  EXPECT_EQ(kernel.outputs.at(0).lanes, 4);
}

// RoPE backward: dqkv [B, T, (nh + 2 ng) * hs] takes the q, k or v branch per slot of hs elements. With
// hs = 32 f32 (8 chunks of 4, a 128-byte line per row) a warp takes one slot from 4 rows; GQA, MHA and a
// partial rotary (hs = 40: 10 chunks) all match the interpreter.
TEST(Runs, RopeBackwardSlotsRunOverRows) {
  struct Case {
    RopeConfig config;
    int64_t run;
  };
  for (const Case& c : {Case{{"gqa", 8, 2, 32, 32, 8}, 8}, Case{{"mha", 4, 4, 32, 32, 8}, 8},
                        Case{{"partial", 4, 4, 40, 16, 8}, 10}}) {
    RopeOptions rope;
    rope.dtype = Float32;
    rope.direction = Direction::Backward;
    Fusion fusion = build_rope(c.config, rope);
    LoweringOptions options;  // branch-free: the rotation's cats select within rows, the slots branch
    kir::Kernel kernel = lower_and_check_on_host(fusion, options, Tolerance{1e-5, 1e-5}, 9);
    ASSERT_EQ(kernel.outputs.size(), 1u);
    EXPECT_EQ(kernel.outputs[0].order.run, c.run) << c.config.name;
    options.uniform_branches = false;
    EXPECT_EQ(plan_and_lower_pointwise(fusion, options).outputs[0].order.run, 0) << c.config.name;
  }
}

// Runs shorter than a cache line per row (a warp would read scattered pieces of rows) are not taken, nor
// runs of a warp or more (a warp stays in one slot anyway: gemma's hs = 256).
TEST(Runs, ShortAndWarpWideRunsKeepRowMajorOrder) {
  RopeOptions rope;
  rope.dtype = Float32;
  rope.direction = Direction::Backward;
  Fusion narrow = build_rope({"narrow", 4, 4, 16, 16, 8}, rope);  // slots of 64 bytes
  EXPECT_EQ(lower_and_check_on_host(narrow, {}, Tolerance{1e-5, 1e-5}, 2).outputs[0].order.run, 0);
  Fusion wide = build_rope({"wide", 2, 1, 128, 128, 4}, rope);  // slots of 32 chunks
  EXPECT_EQ(lower_and_check_on_host(wide, {}, Tolerance{1e-5, 1e-5}, 2).outputs[0].order.run, 0);
}

}  // namespace
}  // namespace seam
