// Every row-kernel variant the plan can choose (plan/row_plan.h), on the host backend with poisoned
// outputs against the reference interpreter: persistent (a row in registers) and streamed, vectors of
// 8, 4, 2 and 1 elements (the row length decides), rows shorter than a warp, N = 1, odd N, a single
// row and many; softmax (online max and sum when streamed), log-softmax, cross-entropy (three
// reductions, an integer target), LayerNorm (a reduction of a reduction), RMSNorm and integer sums.
// Floating sums follow the GPU's order (per lane, then per thread, then across threads), not the
// interpreter's: f32 results within 1e-5, bf16 within bf16's default tolerance (docs/CODEGEN.md).
#include <gtest/gtest.h>

#include "exec/executable.h"
#include "interp/compare.h"
#include "interp/interpreter.h"
#include "ir/builder.h"
#include "plan/row_plan.h"
#include "text/printer.h"

namespace seam {
namespace {

using enum DType;

Tolerance tolerance(DType dtype) {
  if (dtype == Float32) return {1e-5, 1e-5};
  return default_tolerance(dtype);
}

// x [M, N] in `dtype`, math in f32, softmax (or log-softmax) over the last axis back in `dtype`.
Fusion softmax(int64_t m, int64_t n, DType dtype, bool log) {
  Builder b(log ? "log_softmax" : "softmax");
  Value x = b.cast(b.input(Type::tensor(dtype, {m, n}), "x"), Float32);
  Value max = b.expand(b.reduce(OpKind::Max, x, {1}, true), {m, n});
  Value shifted = b.sub(x, max);
  Value e = b.exp(shifted);
  Value sum = b.expand(b.sum(e, {1}, true), {m, n});
  Value y = log ? b.sub(shifted, b.unary(OpKind::Log, sum)) : b.binary(OpKind::Div, e, sum);
  return b.finish({b.cast(y, dtype)});
}

// Per-row loss: log-sum-exp of the logits minus the target's logit (picked by comparing with an iota).
Fusion cross_entropy(int64_t m, int64_t n) {
  Builder b("cross_entropy");
  Value x = b.cast(b.input(Type::tensor(BFloat16, {m, n}), "logits"), Float32);
  Value target = b.input(Type::tensor(Int64, {m}), "target");
  Value max = b.reduce(OpKind::Max, x, {1}, true);
  Value sum = b.sum(b.exp(b.sub(x, b.expand(max, {m, n}))), {1}, true);
  Value lse = b.add(OpKind::Add, {b.unary(OpKind::Log, sum), max});
  Value hit = b.binary(OpKind::Eq, b.expand(b.broadcast(b.iota(n, Int64), {0}), {m, n}),
                       b.expand(b.broadcast(target, {1}), {m, n}));
  Value picked = b.sum(b.where(hit, x, b.constant(Number::of_float(0.0), Float32)), {1}, true);
  return b.finish({b.sub(lse, picked)});
}

Fusion layer_norm(int64_t m, int64_t n) {
  Builder b("layer_norm");
  Value x = b.cast(b.input(Type::tensor(BFloat16, {m, n}), "x"), Float32);
  Value w = b.cast(b.input(Type::tensor(BFloat16, {n}), "w"), Float32);
  Value count = b.constant(Number::of_float(static_cast<double>(n)), Float32);
  Value mean = b.binary(OpKind::Div, b.sum(x, {1}, true), count);
  Value centered = b.sub(x, b.expand(mean, {m, n}));
  Value var = b.binary(OpKind::Div, b.sum(b.binary(OpKind::Mul, centered, centered), {1}, true), count);
  Value rstd =
      b.unary(OpKind::Rsqrt, b.binary(OpKind::Add, var, b.constant(Number::of_float(1e-5), Float32)));
  Value y = b.binary(OpKind::Mul, b.binary(OpKind::Mul, centered, b.expand(rstd, {m, n})),
                     b.expand(b.broadcast(w, {0}), {m, n}));
  return b.finish({b.cast(y, BFloat16), rstd});
}

Fusion integer_sums(int64_t m, int64_t n) {
  Builder b("integer_sums");
  Value x = b.input(Type::tensor(Int32, {m, n}), "x");
  return b.finish({b.sum(x, {1}), b.reduce(OpKind::Max, x, {1}), b.reduce(OpKind::Min, x, {1})});
}

void check(const Fusion& fusion, bool persistent) {
  ExecutableOptions options;
  options.backend = Backend::Host;
  options.poison_outputs = true;
  options.segment.rules.limits.max_inlined_reduction = 0;
  options.launch.row_persistent = persistent;
  auto exe = Executable::compile(fusion, options);
  const std::vector<HostTensor> inputs = random_inputs(fusion, 5);
  const std::vector<HostTensor> expected = interpret(fusion, inputs);
  const std::vector<HostTensor> actual = exe->run(inputs);
  const std::string context = fusion.name() + (persistent ? " persistent" : " streamed");
  bool rows = false;
  for (const CompiledStep& step : exe->steps()) {
    if (!step.kernel.rows) continue;
    rows = true;
    // The plan keeps its word: persistent where it may and the row fits, streamed when told.
    if (!persistent) {
      EXPECT_EQ(step.kernel.rows->iterations, 0) << context;
    }
  }
  EXPECT_TRUE(rows) << context;
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t o = 0; o < actual.size(); ++o) {
    const Comparison c = compare_tensors(actual[o], expected[o], tolerance(expected[o].dtype()));
    EXPECT_TRUE(c.ok) << context << " output " << o << ": " << c.message << "\n" << print_fusion(fusion);
  }
}

// Row lengths that select every vector width (8, 4, 2, 1 for 16-bit data), rows shorter than a warp,
// longer than a block's threads, and row counts from 1 to many.
const std::vector<std::pair<int64_t, int64_t>> kShapes = {
    {1, 1}, {3, 7}, {5, 8}, {2, 12}, {9, 34}, {1, 1000}, {17, 256}, {64, 72}, {4, 4096}, {2, 12290}};

TEST(RowLayout, SoftmaxAndLogSoftmax) {
  for (auto [m, n] : kShapes)
    for (bool persistent : {true, false}) {
      check(softmax(m, n, BFloat16, false), persistent);
      check(softmax(m, n, Float32, true), persistent);
    }
}

TEST(RowLayout, CrossEntropy) {
  for (auto [m, n] : kShapes)
    for (bool persistent : {true, false}) check(cross_entropy(m, n), persistent);
}

TEST(RowLayout, LayerNormAndIntegerSums) {
  for (auto [m, n] : kShapes)
    for (bool persistent : {true, false}) {
      check(layer_norm(m, n), persistent);
      check(integer_sums(m, n), persistent);
    }
}

// The plan's choices for representative shapes: vectors of 16 bytes, persistent up to what the
// registers hold, streamed beyond; few rows spread over more threads.
TEST(RowLayout, PlanChoosesPerShape) {
  // One block per row at most (clusters: tests/exec/row_edges_test.cpp).
  auto layout_of = [](int64_t m, int64_t n, int element_bytes, int inputs) {
    RowPlanInput in;
    in.cluster_max = 1;
    in.shape.shape = {m, n};
    in.shape.axes = {1};
    in.shape.rows = m;
    in.shape.reduced = n;
    in.shape.inner_reduced = true;
    in.smallest_element_bytes = element_bytes;
    in.cached_bytes_per_element = element_bytes * inputs;
    return plan_row_layout(in, plan_row_vector(in));
  };
  const RowLayout rms = layout_of(16384, 4096, 2, 1);
  EXPECT_EQ(rms.vector, 8);
  EXPECT_EQ(rms.threads_per_row, 64);
  EXPECT_EQ(rms.iterations, 8);
  EXPECT_EQ(rms.rows_per_block, 4);
  const RowLayout wide = layout_of(1024, 65536, 2, 1);  // 128 elements per thread in 512 threads
  EXPECT_EQ(wide.threads_per_row, 512);
  EXPECT_EQ(wide.iterations, 16);
  const RowLayout huge = layout_of(256, 262144, 2, 1);  // more than registers hold: streamed
  EXPECT_EQ(huge.iterations, 0);
  EXPECT_EQ(huge.threads_per_row, 1024);
  const RowLayout odd = layout_of(16384, 4097, 2, 1);  // no vector divides the row
  EXPECT_EQ(odd.vector, 1);
  EXPECT_GT(odd.iterations, 0);
  const RowLayout decode = layout_of(1, 4096, 2, 1);  // one row: spread over 512 threads
  EXPECT_EQ(decode.threads_per_row, 512);
  const RowLayout f32 = layout_of(64, 4096, 4, 1);
  EXPECT_EQ(f32.vector, 4);
}

}  // namespace
}  // namespace seam
