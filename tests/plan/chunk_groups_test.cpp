// Chunk groups (LoweringOptions::max_group): a chunk computes several consecutive values of an axis that
// some loads do not depend on, so those loads (RoPE's cos/sin over heads) happen once per group. Checked
// on the kernel IR and numerically through the host backend against the interpreter.
#include <gtest/gtest.h>

#include "lower/invariant_coordinate.h"
#include "lower/lower_pointwise.h"
#include "plan/pointwise_plan.h"
#include "testing/host_lowering.h"
#include "workloads/rope.h"

namespace seam {
namespace {

using enum DType;

kir::Stmt let(const std::string& name, kir::Index index) {
  kir::Stmt s{kir::Stmt::Kind::Let};
  s.name = name;
  s.index = std::move(index);
  return s;
}

kir::Stmt load(kir::Index offset) {
  kir::Stmt s{kir::Stmt::Kind::Define};
  s.expr = kir::Expr{kir::Expr::Kind::Load};
  s.expr.offset = std::move(offset);
  return s;
}

TEST(ChunkGroups, LoadsInvariantInAVariableFollowLetsAndGuards) {
  kir::Index h = kir::variable("h"), t = kir::variable("t");
  kir::Block body = {let("e", kir::mul(h, 128)), load(kir::add(kir::variable("e"), t)), load(t),
                     load(kir::mul(t, 2))};
  EXPECT_EQ(loads_invariant_in(body, "h").total, 3);
  EXPECT_EQ(loads_invariant_in(body, "h").invariant, 2);  // through the let e: dependent
  EXPECT_EQ(loads_invariant_in(body, "t").invariant, 0);
  // A guard reading the variable makes a load dependent; loads inside branches count too.
  kir::Block guarded = {load(t)};
  guarded[0].expr.guards.push_back(kir::Guard{-1, 0, 1, {kir::Bound{h, 0, 4}}});
  kir::Stmt branch{kir::Stmt::Kind::If};
  branch.then_block = {load(t)};
  guarded.push_back(branch);
  const LoadCount count = loads_invariant_in(guarded, "h");
  EXPECT_EQ(count.total, 2);
  EXPECT_EQ(count.invariant, 1);
}

int loads_of(const kir::Block& block, int param) {
  int n = 0;
  for (const kir::Stmt& s : block) {
    n += s.kind == kir::Stmt::Kind::Define && s.expr.kind == kir::Expr::Kind::Load && s.expr.param == param;
    n += loads_of(s.then_block, param) + loads_of(s.else_block, param);
  }
  return n;
}

// Forward RoPE: q and k are grouped over heads (cos/sin read once per group), GQA's expanded k/v keep
// their copies; every variant matches the interpreter.
TEST(ChunkGroups, RopeHeadsShareCosAndSin) {
  for (RopeContract contract : {RopeContract::Thunder, RopeContract::RopeOnly}) {
    for (const RopeConfig& config : {RopeConfig{"mha", 8, 8, 16, 16, 8}, RopeConfig{"gqa", 8, 2, 16, 16, 8},
                                     RopeConfig{"partial", 6, 6, 24, 8, 8}}) {
      RopeOptions rope;
      rope.dtype = Float32;
      rope.contract = contract;
      Fusion fusion = build_rope(config, rope);
      LoweringOptions options;
      options.max_group = 4;
      kir::Kernel kernel = lower_and_check_on_host(fusion, options, Tolerance{1e-6, 1e-6}, 3);
      const kir::OutputProgram& q = kernel.outputs.at(0);
      const std::string name = config.name + (contract == RopeContract::Thunder ? " thunder" : " rope-only");
      EXPECT_EQ(q.order.group_axis, 1u) << name;  // [B, H, T, D]: the heads
      EXPECT_EQ(q.order.group, config.n_head % 4 == 0 ? 4 : 3) << name;
      EXPECT_EQ(q.chunks * q.lanes * q.order.group, q.numel) << name;
      // qkv (param 0) once per head and once more for the rotated half; cos and sin once.
      EXPECT_EQ(loads_of(q.body, 1), 1) << name;
      EXPECT_EQ(loads_of(q.body, 2), 1) << name;
      for (const kir::OutputProgram& p : kernel.outputs)
        EXPECT_TRUE(p.order.group == 1 || p.order.copies == 1) << name;  // never both
      options.max_group = 1;
      for (const kir::OutputProgram& p : plan_and_lower_pointwise(fusion, options).outputs)
        EXPECT_EQ(p.order.group, 1) << name;
    }
  }
}

// Backward: grouped over the batch (cos/sin do not depend on it) with runs over the slots, in bf16 too.
TEST(ChunkGroups, RopeBackwardMatchesTheInterpreter) {
  for (DType dtype : {Float32, BFloat16}) {
    RopeOptions rope;
    rope.dtype = dtype;
    rope.direction = Direction::Backward;
    Fusion fusion = build_rope({"gqa", 8, 2, 64, 64, 8}, rope);  // slots of a 128-byte line or more: runs
    LoweringOptions options;
    options.max_group = 8;
    options.max_group_loaded_bytes = 0;  // any chunk (the product's default groups only light ones)
    kir::Kernel kernel = lower_and_check_on_host(
        fusion, options, dtype == Float32 ? Tolerance{1e-5, 1e-5} : Tolerance{1e-2, 1e-2}, 4);
    const kir::OutputProgram& dqkv = kernel.outputs.at(0);
    EXPECT_EQ(dqkv.order.group_axis, 0u);
    EXPECT_EQ(dqkv.order.group, 2);  // the batch of 2
    EXPECT_GT(dqkv.order.run, 0);
  }
}

}  // namespace
}  // namespace seam
