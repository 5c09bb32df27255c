#include "testing/norm_backward.h"

#include "ir/builder.h"

namespace seam {

using enum DType;

namespace {

Value f32_constant(Builder& b, double v) { return b.constant(Number::of_float(v), Float32); }

}  // namespace

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
  Value inner =
      b.sub(b.sub(g, b.expand(mean_g, {m, n})), b.binary(OpKind::Mul, xhat, b.expand(mean_g_xhat, {m, n})));
  Value dx = b.binary(OpKind::Mul, rstd, inner);
  return b.finish({b.cast(dx, dtype), b.cast(dw, dtype), b.cast(db, dtype)});
}

// Only the two sums of one tensor: no per-element output, the loop over the row accumulates only.
Fusion both_axes(int64_t m, int64_t n, DType dtype) {
  Builder b("both_axes");
  Value x = b.cast(b.input(Type::tensor(dtype, {m, n}), "x"), Float32);
  return b.finish({b.sum(x, {0}), b.sum(x, {1})});
}

Fusion weight_gradient_alone(const Shape& shape, int64_t axes, DType dtype, OpKind reduction,
                             DType accumulator) {
  Builder b("weight_gradient");
  const Value dy = b.input(Type::tensor(dtype, shape), "dy");
  const Value x = b.input(Type::tensor(dtype, shape), "x");
  Shape per_row = shape;
  std::vector<int64_t> reduced;
  for (int64_t d = 0; d < axes; ++d) {
    per_row[static_cast<size_t>(d)] = 1;
    reduced.push_back(d);
  }
  const Value r = b.input(Type::tensor(accumulator, per_row), "r");
  const Value product = b.mul(b.mul(b.cast(dy, accumulator), b.cast(x, accumulator)), b.expand(r, shape));
  return b.finish({b.cast(b.reduce(reduction, product, reduced, false), dtype)});
}

}  // namespace seam
