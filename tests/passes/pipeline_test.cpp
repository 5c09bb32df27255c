#include "passes/pipeline.h"

#include <gtest/gtest.h>

#include "ir/builder.h"
#include "passes/rewrite.h"
#include "support/error.h"

namespace seam {
namespace {

Type f32(Shape shape) { return Type::tensor(DType::Float32, std::move(shape)); }

TEST(Pipeline, ListsEveryPassOnceByName) {
  const auto& passes = pass_pipeline();
  ASSERT_EQ(passes.size(), 5u);
  for (const PassInfo& pass : passes) {
    EXPECT_EQ(find_pass(pass.name), &pass);
    EXPECT_FALSE(pass.summary.empty());
    EXPECT_NE(pass.run, nullptr);
  }
  EXPECT_EQ(passes.back().name, "dead_code");  // sweeps up after every rewrite
}

TEST(Pipeline, UnknownPassNameIsAnErrorListingTheValidOnes) {
  EXPECT_EQ(find_pass("cse2"), nullptr);
  try {
    get_pass("cse2");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    std::string message = e.what();
    EXPECT_NE(message.find("cse2"), std::string::npos);
    for (const PassInfo& pass : pass_pipeline()) EXPECT_NE(message.find(pass.name), std::string::npos);
  }
  PipelineOptions options;
  options.disabled = {"no_such_pass"};
  Builder b("f");
  Fusion f = b.finish({b.input(f32({2}), "x")});
  EXPECT_THROW(run_pipeline(f, options), Error);
}

// cse merges two casts of x; only then do the slices of them form a split-then-cat that cancels, which
// needs canonicalize_movement again, and dead_code after it: a fixed point needs a second round.
Fusion fixed_point_example() {
  Builder b("f");
  Value x = b.input(Type::tensor(DType::BFloat16, {4, 6}), "x");
  Value unused = b.input(f32({1}), "unused");
  (void)unused;
  Value c1 = b.cast(x, DType::Float32);
  Value c2 = b.cast(x, DType::Float32);
  Value lo = b.slice_axis(c1, 1, 0, 2);
  Value hi = b.slice_axis(c2, 1, 2, 6);
  Value joined = b.cat({lo, hi}, 1);
  Value same = b.cast(b.cast(joined, DType::Float32), DType::Float64);  // f32 -> f32 folds
  return b.finish({{same, "y"}, {b.exp(c1), "e"}});
}

TEST(Pipeline, IteratesToAFixedPoint) {
  Fusion f = run_pipeline(fixed_point_example());
  // Left: x, unused, the cast to f32 that exp reads, exp, and y = cast(x -> f64): once the cat cancels,
  // y is cast(cast(x: bf16 -> f32) -> f64) and the exact inner cast folds away.
  ASSERT_EQ(f.num_nodes(), 5);
  const Node& y = f.node(f.outputs()[0].value);
  EXPECT_EQ(y.op, OpKind::Cast);
  EXPECT_EQ(y.type.dtype, DType::Float64);
  EXPECT_EQ(y.operands[0], f.inputs()[0]);
  EXPECT_EQ(f.outputs()[0].name, "y");
  EXPECT_EQ(f.outputs()[1].name, "e");
  EXPECT_EQ(f.inputs().size(), 2u);
  EXPECT_TRUE(same_structure(run_pipeline(f), f));  // a fixed point
}

TEST(Pipeline, OneRoundStopsShortOfTheFixedPoint) {
  PipelineOptions options;
  options.max_rounds = 1;
  EXPECT_GT(run_pipeline(fixed_point_example(), options).num_nodes(), 5);
}

TEST(Pipeline, DisabledPassesDoNotRunAndCallbackSeesEachRun) {
  PipelineOptions options;
  options.disabled = {"cse"};
  std::vector<std::string> ran;
  options.after_pass = [&](const PassInfo& pass, const Fusion& fusion) {
    ran.emplace_back(pass.name);
    EXPECT_EQ(fusion.outputs().size(), 2u);
  };
  Fusion f = run_pipeline(fixed_point_example(), options);
  ASSERT_GE(ran.size(), 4u);
  EXPECT_EQ(ran[0], "canonicalize_movement");
  EXPECT_EQ(ran[1], "simplify_casts");
  EXPECT_EQ(ran[2], "pads_to_cat");
  EXPECT_EQ(ran[3], "dead_code");
  for (const std::string& name : ran) EXPECT_NE(name, "cse");
  int casts = 0;
  for (const Node& n : f.nodes()) casts += n.op == OpKind::Cast;
  EXPECT_EQ(casts, 3);  // two casts of x stay apart, and the cat of their slices stays
}

TEST(Pipeline, EveryPassRunsAloneAndKeepsTheInterface) {
  Fusion f = fixed_point_example();
  for (const PassInfo& pass : pass_pipeline()) {
    Fusion after = run_pass_checked(pass, f);
    EXPECT_EQ(after.inputs().size(), 2u) << pass.name;
  }
}

TEST(Pipeline, InterfaceCheckCatchesAChangedOutput) {
  Builder a("f");
  Value x = a.input(f32({2}), "x");
  Fusion before = a.finish({{a.exp(x), "y"}});
  Builder b("f");
  Value x2 = b.input(f32({2}), "x");
  Fusion renamed = b.finish({{b.exp(x2), "z"}});
  EXPECT_THROW(check_interface_preserved(before, renamed, "test"), InternalError);
  Builder c("f");
  Value x3 = c.input(f32({2}), "x");
  Fusion retyped = c.finish({{c.cast(c.exp(x3), DType::Float64), "y"}});
  EXPECT_THROW(check_interface_preserved(before, retyped, "test"), InternalError);
  Builder d("f");
  Value x4 = d.input(f32({2}), "renamed_input");
  Fusion other_input = d.finish({{d.exp(x4), "y"}});
  EXPECT_THROW(check_interface_preserved(before, other_input, "test"), InternalError);
  EXPECT_NO_THROW(check_interface_preserved(before, before, "test"));
}

}  // namespace
}  // namespace seam
