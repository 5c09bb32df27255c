// The kernel-IR pipeline as data (names, order, each pass alone) and the kernel-IR printer.
#include "lower/kir_pipeline.h"

#include <gtest/gtest.h>

#include "ir/builder.h"
#include "lower/kir_printer.h"
#include "plan/pointwise_plan.h"
#include "support/error.h"

namespace seam {
namespace {

TEST(KirPipeline, NamedPassesInOrder) {
  std::vector<std::string> names;
  for (const KirPass& pass : kir_pipeline()) names.emplace_back(pass.name);
  EXPECT_EQ(names, (std::vector<std::string>{"hoist-loop-invariants", "merge-guarded-loads", "hoist-loads",
                                             "cse-values"}));
}

kir::Stmt define_load(const std::string& name, int64_t offset) {
  kir::Stmt s{kir::Stmt::Kind::Define};
  s.var = kir::Var{name, DType::Float32, 1};
  s.expr = kir::Expr{kir::Expr::Kind::Load};
  s.expr.param = 0;
  s.expr.offset = kir::constant(offset);
  return s;
}

kir::Stmt store(const std::string& source) {
  kir::Stmt s{kir::Stmt::Kind::Store};
  s.param = 1;
  s.index = kir::constant(0);
  s.source = kir::Var{source, DType::Float32, 1};
  return s;
}

// hoist-loads alone: loads move before the stores, in their order, also inside a branch.
TEST(KirPipeline, OnePassRunsAlone) {
  kir::Block body = {define_load("a", 0), store("a"), define_load("b", 1)};
  kir::Stmt branch{kir::Stmt::Kind::If};
  branch.then_block = {store("b"), define_load("c", 2)};
  body.push_back(branch);
  run_kir_pass("hoist-loads", body, KirPassOptions{});
  EXPECT_EQ(print_kir_block(body),
            "a:f32 = load p0[0]\n"
            "b:f32 = load p0[1]\n"
            "store p1[0] = a\n"
            "if true {\n"
            "  c:f32 = load p0[2]\n"
            "  store p1[0] = b\n"
            "}\n");
  kir::Block twice = {define_load("a", 0), define_load("b", 0), store("a"), store("b")};
  run_kir_pass("cse-values", twice, KirPassOptions{});
  EXPECT_EQ(print_kir_block(twice), "a:f32 = load p0[0]\nstore p1[0] = a\nstore p1[0] = a\n");
}

TEST(KirPipeline, UnknownPassNamesThePasses) {
  kir::Block body;
  try {
    run_kir_pass("no-such-pass", body, KirPassOptions{});
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("hoist-loads"), std::string::npos) << e.what();
  }
}

TEST(KirPrinter, PrintsParamsOutputsAndBodies) {
  Builder b("f");
  Value x = b.input(Type::tensor(DType::BFloat16, {4, 16}), "x");
  LoweringOptions options;
  options.kernel_name = "k";
  const std::string text = print_kir(plan_and_lower_pointwise(b.finish({b.neg(x)}), options));
  EXPECT_EQ(text.rfind("kernel k (reused loads kept)\n  p0: input in0 bf16\n  p1: output out0 bf16\n", 0), 0u)
      << text;
  EXPECT_NE(text.find("output p1: 8 chunks of 8 lanes (chunk0) {"), std::string::npos) << text;
  EXPECT_NE(text.find("= load p0["), std::string::npos) << text;
  EXPECT_NE(text.find("store p1["), std::string::npos) << text;
}

}  // namespace
}  // namespace seam
