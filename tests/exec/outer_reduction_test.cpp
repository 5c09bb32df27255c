// Row kernels with outer reductions (lower/outer_reductions.h): normalization backward's weight
// gradients, sums over the rows, in the launch that computes dx. On the host backend (which runs the
// grid's blocks one after the other with the GPU's workspace, counter and order of the final sum) with
// poisoned outputs against the reference interpreter: RMSNorm and LayerNorm backward and a plain
// sum over each axis of one tensor; bf16 and f32; persistent and streamed rows; grids of one block
// (every block loops over many rows) up to one block per group of rows (the last block's spare
// slots idle). Shapes where the rows, a row and the whole tensor do not differ without extent-1 axes
// (M or N of 1) keep the outer sums in a kernel of their own (schedule/outer_reduction_pair.h).
#include <gtest/gtest.h>

#include "exec/executable.h"
#include "interp/compare.h"
#include "interp/interpreter.h"
#include "ir/builder.h"
#include "text/printer.h"

namespace seam {
namespace {

using enum DType;

Value f32_constant(Builder& b, double v) { return b.constant(Number::of_float(v), Float32); }

// dx = rstd * (g - xhat * mean(g * xhat)), g = dy * w; dw = sum over the rows of dy * xhat.
Fusion rmsnorm_backward(int64_t m, int64_t n, DType dtype) {
  Builder b("rmsnorm_bwd");
  Value x = b.cast(b.input(Type::tensor(dtype, {m, n}), "x"), Float32);
  Value w = b.cast(b.input(Type::tensor(dtype, {n}), "w"), Float32);
  Value dy = b.cast(b.input(Type::tensor(dtype, {m, n}), "dy"), Float32);
  Value rstd = b.expand(b.input(Type::tensor(Float32, {m, 1}), "rstd"), {m, n});
  Value xhat = b.binary(OpKind::Mul, x, rstd);
  Value dw = b.sum(b.binary(OpKind::Mul, dy, xhat), {0});
  Value g = b.binary(OpKind::Mul, dy, b.expand(b.broadcast(w, {0}), {m, n}));
  Value c = b.binary(OpKind::Div, b.sum(b.binary(OpKind::Mul, g, xhat), {1}, true),
                     f32_constant(b, static_cast<double>(n)));
  Value dx = b.binary(OpKind::Mul, rstd, b.sub(g, b.binary(OpKind::Mul, xhat, b.expand(c, {m, n}))));
  return b.finish({b.cast(dx, dtype), b.cast(dw, dtype)});
}

// LayerNorm: dx, dw = sum over the rows of dy * xhat, db = sum over the rows of dy.
Fusion layernorm_backward(int64_t m, int64_t n, DType dtype) {
  Builder b("layernorm_bwd");
  Value x = b.cast(b.input(Type::tensor(dtype, {m, n}), "x"), Float32);
  Value w = b.cast(b.input(Type::tensor(dtype, {n}), "w"), Float32);
  Value dy = b.cast(b.input(Type::tensor(dtype, {m, n}), "dy"), Float32);
  Value mean = b.expand(b.input(Type::tensor(Float32, {m, 1}), "mean"), {m, n});
  Value rstd = b.expand(b.input(Type::tensor(Float32, {m, 1}), "rstd"), {m, n});
  Value xhat = b.binary(OpKind::Mul, b.sub(x, mean), rstd);
  Value dw = b.sum(b.binary(OpKind::Mul, dy, xhat), {0});
  Value db = b.sum(dy, {0});
  Value g = b.binary(OpKind::Mul, dy, b.expand(b.broadcast(w, {0}), {m, n}));
  Value count = f32_constant(b, static_cast<double>(n));
  Value mean_g = b.binary(OpKind::Div, b.sum(g, {1}, true), count);
  Value mean_g_xhat = b.binary(OpKind::Div, b.sum(b.binary(OpKind::Mul, g, xhat), {1}, true), count);
  Value inner = b.sub(b.sub(g, b.expand(mean_g, {m, n})), b.binary(OpKind::Mul, xhat, b.expand(mean_g_xhat, {m, n})));
  Value dx = b.binary(OpKind::Mul, rstd, inner);
  return b.finish({b.cast(dx, dtype), b.cast(dw, dtype), b.cast(db, dtype)});
}

// Only the two sums of one tensor: no per-element output, the loop over the row accumulates only.
Fusion both_axes(int64_t m, int64_t n, DType dtype) {
  Builder b("both_axes");
  Value x = b.cast(b.input(Type::tensor(dtype, {m, n}), "x"), Float32);
  return b.finish({b.sum(x, {0}), b.sum(x, {1})});
}

Tolerance tolerance(DType dtype) {
  if (dtype == Float32) return {1e-4, 1e-4};  // sums of up to 4099 rows, in another order
  return default_tolerance(dtype);
}

// Whether M x N gives the outer sums a kernel with the rows (outer_reduction_pair.h, condition 3).
bool fuses(int64_t m, int64_t n) { return m > 1 && n > 1 && m != n; }

void check(const Fusion& fusion, size_t outer_sums, int sm_count, bool persistent) {
  ExecutableOptions options;
  options.backend = Backend::Host;
  options.poison_outputs = true;
  options.segment.rules.limits.max_inlined_reduction = 0;
  options.launch.sm_count = sm_count;
  options.launch.row_persistent = persistent;
  const Shape& shape = fusion.type(fusion.inputs()[0]).shape;
  const std::string context = fusion.name() + " " + shape_to_string(shape) + " " +
                              std::string(dtype_name(fusion.type(fusion.inputs()[0]).dtype)) + " sm_count " +
                              std::to_string(sm_count) + (persistent ? " persistent" : " streamed");
  auto exe = Executable::compile(fusion, options);
  if (fuses(shape[0], shape[1])) {
    ASSERT_EQ(exe->steps().size(), 1u) << context;
    const CompiledStep& step = exe->steps()[0];
    ASSERT_TRUE(step.kernel.rows.has_value()) << context;
    const kir::RowLaunch& rows = *step.kernel.rows;
    EXPECT_EQ(rows.outer.size(), outer_sums) << context;
    EXPECT_EQ(step.grid.blocks, rows.partial_blocks) << context;
    EXPECT_LE(rows.partial_blocks, (rows.rows + rows.rows_per_block - 1) / rows.rows_per_block) << context;
    EXPECT_EQ(step.workspace_bytes, kir::workspace_bytes(step.kernel)) << context;
    if (!persistent) EXPECT_EQ(rows.iterations, 0) << context;
  }
  const std::vector<HostTensor> inputs = random_inputs(fusion, 7);
  const std::vector<HostTensor> expected = interpret(fusion, inputs);
  // Twice: the first run leaves the counter zero for the next.
  for (int run = 0; run < 2; ++run) {
    const std::vector<HostTensor> actual = exe->run(inputs);
    ASSERT_EQ(actual.size(), expected.size());
    for (size_t o = 0; o < actual.size(); ++o) {
      const Comparison c = compare_tensors(actual[o], expected[o], tolerance(expected[o].dtype()));
      EXPECT_TRUE(c.ok) << context << " run " << run << " output " << o << ": " << c.message;
    }
  }
}

// Every row count with a short row, every row length with 17 rows, and a few large ones.
const std::vector<std::pair<int64_t, int64_t>> kShapes = {
    {1, 64},  {2, 64},   {3, 64},    {17, 64},   {1000, 64}, {4099, 64}, {17, 1},
    {17, 7},  {17, 4096}, {17, 5000}, {3, 5000},  {1000, 7},  {4099, 7},  {1000, 4096}};

TEST(OuterReduction, RmsNormBackward) {
  for (auto [m, n] : kShapes) {
    check(rmsnorm_backward(m, n, BFloat16), 1, 132, true);
    check(rmsnorm_backward(m, n, Float32), 1, 1, true);
  }
}

TEST(OuterReduction, LayerNormBackward) {
  for (auto [m, n] : kShapes) {
    check(layernorm_backward(m, n, BFloat16), 2, 132, true);
    check(layernorm_backward(m, n, Float32), 2, 3, true);
  }
}

TEST(OuterReduction, SumsOverBothAxes) {
  for (size_t i = 0; i < kShapes.size(); ++i) {
    const auto [m, n] = kShapes[i];
    check(both_axes(m, n, i % 2 ? Float32 : BFloat16), 1, i % 3 ? 132 : 2, true);
  }
}

// Streamed rows accumulate in the block's workspace row (a block holds one row).
TEST(OuterReduction, Streamed) {
  for (auto [m, n] : std::vector<std::pair<int64_t, int64_t>>{{3, 64}, {17, 5000}, {1000, 7}, {4099, 64}}) {
    check(rmsnorm_backward(m, n, BFloat16), 1, 132, false);
    check(layernorm_backward(m, n, Float32), 2, 1, false);
    check(both_axes(m, n, Float32), 1, 3, false);
  }
}

}  // namespace
}  // namespace seam
