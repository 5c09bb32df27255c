// Llama-style decoder layers, op by op as a tracer of litgpt emits them (RMSNorm, fused QKV linear, the
// thunder-contract RoPE of workloads/rope.h, causal softmax attention with opaque matmuls, SwiGLU MLP).
#include "workloads/transformer.h"

#include <cmath>
#include <limits>
#include <string>

#include "ir/builder.h"
#include "ir/limits.h"
#include "support/checked_math.h"
#include "support/error.h"
#include "workloads/rope.h"

namespace seam {
namespace {

Value scalar(Builder& b, double value) { return b.constant(Number::of_float(value), DType::Float64); }

// litgpt RMSNorm: in f32, x * rsqrt(mean(x*x) + eps) * weight, rounded back to x's dtype.
Value rms_norm(Builder& b, Value x, Value weight, double eps) {
  const Type t = b.type(x);  // a copy: adding nodes may move the builder's storage
  const Shape& shape = t.shape;
  const DType dt = t.dtype;
  Value xf = b.cast(x, DType::Float32);
  Value sum_squares = b.sum(b.mul(xf, xf), {-1}, true);
  Value mean = b.div(sum_squares, scalar(b, static_cast<double>(shape.back())));
  Value inv = b.unary(OpKind::Rsqrt, b.add(mean, scalar(b, eps)));
  Value normed = b.mul(xf, b.broadcast_to(inv, shape));
  Value scaled = b.mul(normed, b.broadcast_to(b.cast(weight, DType::Float32), shape));
  return b.cast(scaled, dt);
}

// Row-wise softmax over the last axis, in f32.
Value softmax_last(Builder& b, Value s) {
  const Shape shape = b.type(s).shape;
  Value shifted = b.sub(s, b.broadcast_to(b.reduce(OpKind::Max, s, {-1}, true), shape));
  Value e = b.exp(shifted);
  return b.div(e, b.broadcast_to(b.sum(e, {-1}, true), shape));
}

// [T,T] bool, true where key position j <= query position i.
Value causal_mask(Builder& b, int64_t T) {
  Value rows = b.expand(b.broadcast(b.iota(T, DType::Int64), {1}), {T, T});
  Value cols = b.expand(b.broadcast(b.iota(T, DType::Int64), {0}), {T, T});
  return b.binary(OpKind::Ge, rows, cols);
}

// q [B,nh,T,hs], k and v [B,nh,T,hs]: causal scaled dot-product attention, result [B,T,nh*hs].
Value attention(Builder& b, Value q, Value k, Value v, int64_t head_size) {
  const Shape qs = b.type(q).shape;
  const int64_t B = qs[0], nh = qs[1], T = qs[2];
  const DType dt = b.type(q).dtype;
  Value scores = b.matmul(q, b.permute(k, {0, 1, 3, 2}));  // [B,nh,T,T]
  Value scores_f = b.cast(scores, DType::Float32);
  Value scaled = b.mul(scores_f, scalar(b, 1.0 / std::sqrt(double(head_size))));
  Value mask = b.broadcast_to(causal_mask(b, T), {B, nh, T, T});
  Value masked = b.where(mask, scaled, scalar(b, -std::numeric_limits<double>::infinity()));
  Value probs = b.cast(softmax_last(b, masked), dt);
  Value y = b.matmul(probs, v);  // [B,nh,T,hs]
  return b.reshape(b.permute(y, {0, 2, 1, 3}), {B, T, nh * head_size});
}

// SwiGLU: down(silu(fc_1(x)) * fc_2(x)) with silu(a) = a * sigmoid(a), in f32.
Value swiglu(Builder& b, Value x, Value fc_1, Value fc_2, Value proj) {
  const DType dt = b.type(x).dtype;
  Value a = b.cast(b.linear(x, fc_1), DType::Float32);
  Value g = b.cast(b.linear(x, fc_2), DType::Float32);
  Value silu = b.mul(a, b.unary(OpKind::Sigmoid, a));
  return b.linear(b.cast(b.mul(silu, g), dt), proj);
}

constexpr int64_t kNodesBeforeLayers = 3;  // the inputs x, cos and sin

void validate_transformer(const TransformerConfig& c) {
  SEAM_CHECK(c.hidden > 0 && c.intermediate > 0 && c.seq_len > 0 && c.batch > 0,
             "transformer: hidden, intermediate, seq_len and batch must be positive");
  SEAM_CHECK(c.layers >= 1, "transformer: layers must be at least 1, got ", c.layers);
  SEAM_CHECK(c.dtype == DType::BFloat16 || c.dtype == DType::Float16 || c.dtype == DType::Float32,
             "transformer: dtype must be bf16, f16 or f32, got ", dtype_name(c.dtype));
  SEAM_CHECK(c.norm_eps > 0, "transformer: norm_eps must be positive, got ", c.norm_eps);
}

// After the first layer: fails at once, before building the rest, when all the layers would pass the
// fusion size limit (which Builder would otherwise only report after building 2^20 nodes).
void check_fusion_fits(int64_t nodes_after_one_layer, int64_t layers) {
  const int64_t per_layer = nodes_after_one_layer - kNodesBeforeLayers;
  const std::optional<int64_t> rest = checked_mul(per_layer, layers - 1);
  const std::optional<int64_t> total = rest ? checked_add(nodes_after_one_layer, *rest) : std::nullopt;
  SEAM_CHECK(total && *total + 1 <= SizeLimits::kMaxFusionSize, "transformer: ", layers, " layers of ",
             per_layer, " values each are over the fusion size limit of 2^20 values plus outputs (at most ",
             (SizeLimits::kMaxFusionSize - 1 - kNodesBeforeLayers) / per_layer, " layers)");
}

}  // namespace

Fusion build_transformer_stack(const TransformerConfig& c) {
  validate_transformer(c);
  const RopeConfig rope{
      "transformer", c.n_head, c.n_query_groups, c.head_size, c.rope_n_elem > 0 ? c.rope_n_elem : c.head_size,
      c.seq_len};
  validate(rope);
  const int64_t B = c.batch, T = c.seq_len, H = c.hidden, n = rope.rope_n_elem;
  const int64_t qkv_width = (c.n_head + 2 * c.n_query_groups) * c.head_size;
  const DType dt = c.dtype;

  Builder b(detail::concat("transformer_", c.layers, "_layers_b", B, "_t", T));
  Value x = b.input(Type::tensor(dt, {B, T, H}), "x");
  Value cos = b.input(Type::tensor(dt, {T, n}), "cos");
  Value sin = b.input(Type::tensor(dt, {T, n}), "sin");
  for (int64_t layer = 0; layer < c.layers; ++layer) {
    if (layer == 1) check_fusion_fits(b.num_nodes(), c.layers);
    const std::string p = "h" + std::to_string(layer) + ".";
    auto weight = [&](const std::string& name, Shape shape) {
      return b.input(Type::tensor(dt, std::move(shape)), p + name);
    };
    Value norm_1 = weight("norm_1.weight", {H});
    Value qkv_w = weight("attn.qkv.weight", {qkv_width, H});
    Value proj_w = weight("attn.proj.weight", {H, c.n_head * c.head_size});
    Value norm_2 = weight("norm_2.weight", {H});
    Value fc_1 = weight("mlp.fc_1.weight", {c.intermediate, H});
    Value fc_2 = weight("mlp.fc_2.weight", {c.intermediate, H});
    Value down = weight("mlp.proj.weight", {H, c.intermediate});

    Value qkv = b.linear(rms_norm(b, x, norm_1, c.norm_eps), qkv_w);
    RopeForwardValues r = emit_rope_forward(b, rope, RopeContract::Thunder, qkv, cos, sin);
    x = b.add(x, b.linear(attention(b, r.q, r.k, r.v, c.head_size), proj_w));
    x = b.add(x, swiglu(b, rms_norm(b, x, norm_2, c.norm_eps), fc_1, fc_2, down));
  }
  return b.finish(std::vector<FusionOutput>{{x, "y"}});
}

}  // namespace seam
