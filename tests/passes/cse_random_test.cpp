// cse and random ops (docs/RANDOM.md): a random op is a deterministic function of its operands and
// attributes, so identical ones merge, and ones with another seed, offset, range, shape or dtype never do.
#include <gtest/gtest.h>

#include "interp/interpreter.h"
#include "ir/builder.h"
#include "passes/cse.h"
#include "passes/dead_code.h"
#include "passes/pipeline.h"

namespace seam {
namespace {

int count_ops(const Fusion& f, OpKind op) {
  int n = 0;
  for (const Node& node : f.nodes()) n += node.op == op;
  return n;
}

TEST(CseRandom, IdenticalRandomOpsMergeOthersDoNot) {
  Builder b("r");
  auto f64 = [&](double v) { return b.constant(Number::of_float(v), DType::Float64); };
  auto i64 = [&](int64_t v) { return b.constant(Number::of_int(v), DType::Int64); };
  Value seed_in = b.input(Type::scalar(DType::Int64), "seed");
  std::vector<Value> outs = {
      b.uniform(f64(0), f64(1), i64(1), i64(0), {4}, DType::Float32),
      b.uniform(f64(0), f64(1), i64(1), i64(0), {4}, DType::Float32),   // same as the first: merges
      b.uniform(f64(0), f64(1), i64(2), i64(0), {4}, DType::Float32),   // another seed
      b.uniform(f64(0), f64(1), i64(1), i64(1), {4}, DType::Float32),   // another offset
      b.uniform(f64(0), f64(2), i64(1), i64(0), {4}, DType::Float32),   // another range
      b.uniform(f64(0), f64(1), i64(1), i64(0), {5}, DType::Float32),   // another shape
      b.uniform(f64(0), f64(1), i64(1), i64(0), {4}, DType::Float64),   // another dtype
      b.normal(f64(0), f64(1), i64(1), i64(0), {4}, DType::Float32),    // another distribution
      b.uniform(f64(0), f64(1), seed_in, i64(0), {4}, DType::Float32),  // a run-time seed
      b.uniform(f64(0), f64(1), seed_in, i64(0), {4}, DType::Float32),  // the same run-time seed: merges
  };
  Fusion before = b.finish(outs);
  Fusion after = eliminate_dead_code(eliminate_common_subexpressions(before));
  EXPECT_EQ(count_ops(after, OpKind::Uniform), 7);
  EXPECT_EQ(count_ops(after, OpKind::Normal), 1);
  EXPECT_EQ(after.outputs()[0].value, after.outputs()[1].value);
  EXPECT_EQ(after.outputs()[8].value, after.outputs()[9].value);
  EXPECT_NE(after.outputs()[0].value, after.outputs()[2].value);
  EXPECT_NE(after.outputs()[0].value, after.outputs()[3].value);
  // The values are the same before and after every pass.
  HostTensor seed = HostTensor::from_ints(DType::Int64, {}, {9});
  std::vector<HostTensor> expected = interpret(before, {seed});
  std::vector<HostTensor> actual = interpret(run_pipeline(before), {seed});
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t o = 0; o < actual.size(); ++o) EXPECT_EQ(actual[o].to_doubles(), expected[o].to_doubles()) << o;
}

}  // namespace
}  // namespace seam
