#include "testing/row_fusions.h"

#include "ir/builder.h"

namespace seam {

Fusion rms_norm_fusion(int64_t m, int64_t n, DType dtype, int64_t row_stride, bool row_bias) {
  Builder b("rms_norm");
  Shape strides;
  if (row_stride > 0) strides = {row_stride, 1};
  Value x = b.cast(b.input(Type::tensor(dtype, {m, n}), "x", strides), DType::Float32);
  if (row_bias)
    x = b.binary(OpKind::Add, x,
                 b.expand(b.cast(b.input(Type::tensor(dtype, {m, 1}), "b"), DType::Float32), {m, n}));
  Value w = b.cast(b.input(Type::tensor(dtype, {n}), "w"), DType::Float32);
  Value mean = b.binary(OpKind::Div, b.sum(b.binary(OpKind::Mul, x, x), {1}, true),
                        b.constant(Number::of_float(static_cast<double>(n)), DType::Float32));
  Value rstd =
      b.unary(OpKind::Rsqrt, b.binary(OpKind::Add, mean, b.constant(Number::of_float(1e-6), DType::Float32)));
  Value y = b.binary(OpKind::Mul, b.binary(OpKind::Mul, x, b.expand(rstd, {m, n})),
                     b.expand(b.broadcast(w, {0}), {m, n}));
  return b.finish({b.cast(y, dtype)});
}

Fusion softmax_fusion(int64_t m, int64_t n, DType dtype, bool log) {
  Builder b(log ? "log_softmax" : "softmax");
  Value x = b.cast(b.input(Type::tensor(dtype, {m, n}), "x"), DType::Float32);
  Value max = b.expand(b.reduce(OpKind::Max, x, {1}, true), {m, n});
  Value shifted = b.sub(x, max);
  Value e = b.exp(shifted);
  Value sum = b.expand(b.sum(e, {1}, true), {m, n});
  Value y = log ? b.sub(shifted, b.unary(OpKind::Log, sum)) : b.binary(OpKind::Div, e, sum);
  return b.finish({b.cast(y, dtype)});
}

Fusion integer_row_reductions(int64_t m, int64_t n) {
  Builder b("integer_row_reductions");
  Value x = b.input(Type::tensor(DType::Int32, {m, n}), "x");
  return b.finish({b.sum(x, {1}), b.reduce(OpKind::Max, x, {1}), b.reduce(OpKind::Min, x, {1})});
}

}  // namespace seam
