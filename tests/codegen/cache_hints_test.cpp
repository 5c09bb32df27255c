// Cache hints (LoweringOptions::keep_reused_loads, streaming_stores): the loads that other chunks repeat
// (broadcast inputs: RoPE's cos/sin) are marked `reused` and printed with the keep-in-L2 helper; the
// loads every chunk reads alone (qkv) and the stores are not, unless stores are asked to stream.
#include <gtest/gtest.h>

#include "codegen/kernel_printer.h"
#include "lower/invariant_coordinate.h"
#include "lower/lower_pointwise.h"
#include "plan/pointwise_plan.h"
#include "workloads/rope.h"

namespace seam {
namespace {

using enum DType;

// (reused, not reused) loads of `param` in `block` and its branches.
std::pair<int, int> loads_of(const kir::Block& block, int param) {
  std::pair<int, int> n{0, 0};
  for (const kir::Stmt& s : block) {
    if (s.kind == kir::Stmt::Kind::Define && s.expr.kind == kir::Expr::Kind::Load && s.expr.param == param)
      ++(s.expr.reused ? n.first : n.second);
    for (const kir::Block* inner : {&s.then_block, &s.else_block}) {
      const auto [reused, alone] = loads_of(*inner, param);
      n.first += reused;
      n.second += alone;
    }
  }
  return n;
}

int occurrences(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(CacheHints, LoadsInvariantInAVariableAreMarkedThroughLets) {
  kir::Block body;
  kir::Stmt let{kir::Stmt::Kind::Let};
  let.name = "e";
  let.index = kir::mul(kir::variable("h"), 128);
  body.push_back(let);
  for (const kir::Index& offset : {kir::add(kir::variable("e"), kir::variable("t")), kir::variable("t")}) {
    kir::Stmt load{kir::Stmt::Kind::Define};
    load.expr = kir::Expr{kir::Expr::Kind::Load};
    load.expr.offset = offset;
    body.push_back(load);
  }
  mark_loads_invariant_in(body, "t");  // both read t: nothing marked
  EXPECT_FALSE(body[1].expr.reused);
  EXPECT_FALSE(body[2].expr.reused);
  mark_loads_invariant_in(body, "h");  // the second ignores h (the first reads it through e)
  EXPECT_FALSE(body[1].expr.reused);
  EXPECT_TRUE(body[2].expr.reused);
}

TEST(CacheHints, RopeCosAndSinAreKeptAndQkvIsNot) {
  for (RopeContract contract : {RopeContract::Thunder, RopeContract::RopeOnly}) {
    RopeOptions rope;
    rope.contract = contract;
    const Fusion fusion = build_rope({"gqa", 8, 2, 64, 64, 16}, rope);
    LoweringOptions options;
    options.keep_reused_loads = true;
    const kir::Kernel kernel = plan_and_lower_pointwise(fusion, options);
    // Params: qkv, cos, sin, then the outputs. q's cos and sin loads are reused (every head reads them),
    // its qkv loads are not.
    const kir::OutputProgram& q = kernel.outputs.at(0);
    EXPECT_EQ(loads_of(q.body, 0).first, 0);
    EXPECT_GT(loads_of(q.body, 0).second, 0);
    EXPECT_GT(loads_of(q.body, 1).first, 0);
    EXPECT_EQ(loads_of(q.body, 1).second, 0);
    EXPECT_GT(loads_of(q.body, 2).first, 0);
    const std::string kept = print_cuda_kernel(kernel, CudaLaunchShape{});
    EXPECT_EQ(occurrences(kept, "seam_load_keep<"),
              occurrences(kept, "seam_load_keep<8>(in1") + occurrences(kept, "seam_load_keep<8>(in2"));
    EXPECT_GE(occurrences(kept, "seam_load_keep<8>(in1"), 2);  // q and k
    EXPECT_EQ(occurrences(kept, "seam_store_stream<"), 0);
    options.keep_reused_loads = false;
    options.streaming_stores = true;
    const std::string streamed =
        print_cuda_kernel(plan_and_lower_pointwise(fusion, options), CudaLaunchShape{});
    EXPECT_EQ(occurrences(streamed, "seam_load_keep<"), 0);
    EXPECT_EQ(occurrences(streamed, "seam_store<"), 0);
    EXPECT_EQ(occurrences(streamed, "seam_store_stream<"), occurrences(kept, "seam_store<"));
  }
}

}  // namespace
}  // namespace seam
