// RoPE forward and backward, op by op as a tracer of litgpt 0.5.0 emits them. With B batch, T positions,
// nh query heads, ng groups, qpk = nh/ng, hs head size, n rotated elements, dt the I/O dtype (bf16) and
// ct the compute dtype (f32):
//
// Forward (emit_rope_forward):
//   x  = reshape(qkv, [B,T,ng,qpk+2,hs]); x = permute(x, [0,2,3,1,4])        [B,ng,qpk+2,T,hs]
//   q5 = slice(x, axis 2, 0:qpk); k5 = slice(.., qpk:qpk+1); v5 = slice(.., qpk+1:qpk+2)
//   thunder with ng != nh: k5, v5 = expand(.., [B,ng,qpk,T,hs])
//   q, k, v = reshape(q5|k5|v5, [B,-1,T,hs])
//   for y in q, k (rope_heads):
//     yr = slice(y, ..., :n) (only when n < hs); y1 = slice(yr, :n/2); y2 = slice(yr, n/2:n)
//     yf, y1f, y2f = cast(yr|y1|y2, ct); rot = cat(neg(y2f), y1f, -1)
//     c, s = cast(broadcast_to(cos|sin, [B,H,T,n]), ct)       broadcast (new axes 0, 1), then expand
//     r = cast(add(mul(yf, c), mul(rot, s)), dt)
//     n < hs: r = cat(r, slice(y, ..., n:), -1)
//
// Backward (emit_rope_backward), per RoPE'd head gradient g (rope_heads_backward):
//   gf = cast(slice(g, ..., :n) or g, ct); c, s as above; z = mul(gf, s)
//   gx = add(add(mul(gf, c), pad(slice(z, n/2:n), high n/2)), pad(neg(slice(z, :n/2)), low n/2))
//   the two pads are the transposes of the forward's slices y1, y2: together R^T(z) = cat(z2, -z1)
//   no sum over copies: gx = cast(gx, dt); n < hs: gx = cat(gx, slice(g, ..., n:), -1)
//   thunder GQA (k): n < hs: gx = cat(gx, cast(slice(g, n:), ct)); then summed below, in ct
// Assembly:
//   dq5 = reshape(dq, [B,ng,qpk,T,hs])
//   thunder GQA: dk5 = cast(sum(reshape(dk_ct, [B,ng,qpk,T,hs]), [2], keepdim), dt)
//                dv5 = cast(sum(reshape(cast(grad_v, ct), [B,ng,qpk,T,hs]), [2], keepdim), dt)
//   otherwise:   dk5 = reshape(dk, [B,ng,1,T,hs]); dv5 = reshape(grad_v, [B,ng,1,T,hs])
//   dqkv = reshape(permute(cat(dq5, dk5, dv5, axis 2), [0,3,1,2,4]), [B,T,(nh+2ng)*hs])
#include "workloads/rope.h"

#include <cctype>

#include "support/error.h"

namespace seam {
namespace {

// The dtype the math runs in: at least f32, as Thunder upcasts bf16 and f16 for arithmetic.
DType compute_dtype(DType io) { return promote_types(io, DType::Float32); }

Value cast_to(Builder& b, Value x, DType dtype) { return b.type(x).dtype == dtype ? x : b.cast(x, dtype); }

// cos or sin [T,n] broadcast over batch and heads to `shape` [B,H,T,n], in the compute dtype.
Value table_for(Builder& b, Value table, const Shape& shape, DType ct) {
  return cast_to(b, b.broadcast_to(table, shape), ct);
}

Shape shape_with_last(Shape shape, int64_t last) {
  shape.back() = last;
  return shape;
}

// y [B,H,T,hs] in dt: RoPE on the first n elements of each head, the tail copied.
Value rope_heads(Builder& b, Value y, Value cos, Value sin, int64_t n) {
  // Copies: adding nodes may move the builder's storage.
  const Shape shape = b.type(y).shape;
  const DType dt = b.type(y).dtype, ct = compute_dtype(dt);
  const int64_t hs = shape.back();
  Value yr = n < hs ? b.slice_axis(y, -1, 0, n) : y;
  Value y1 = b.slice_axis(yr, -1, 0, n / 2);
  Value y2 = b.slice_axis(yr, -1, n / 2, n);
  // One statement per op: C++ leaves the order of argument evaluation open, node order must not be.
  Value yf = cast_to(b, yr, ct);
  Value minus_y2 = b.neg(cast_to(b, y2, ct));
  Value rotated = b.cat({minus_y2, cast_to(b, y1, ct)}, -1);
  const Shape table_shape = shape_with_last(shape, n);
  Value c = table_for(b, cos, table_shape, ct);
  Value s = table_for(b, sin, table_shape, ct);
  Value y_cos = b.mul(yf, c);
  Value rotated_sin = b.mul(rotated, s);
  Value roped = cast_to(b, b.add(y_cos, rotated_sin), dt);
  return n < hs ? b.cat({roped, b.slice_axis(y, -1, n, hs)}, -1) : roped;
}

// g [B,H,T,hs] in dt: the gradient of rope_heads' input. In dt, or in the compute dtype when
// `keep_compute_dtype` (the caller still sums copies and rounds once afterwards).
Value rope_heads_backward(Builder& b, Value g, Value cos, Value sin, int64_t n, bool keep_compute_dtype) {
  const Shape shape = b.type(g).shape;
  const DType dt = b.type(g).dtype, ct = compute_dtype(dt);
  const int64_t hs = shape.back();
  const int rank = b.type(g).rank();
  Value gf = cast_to(b, n < hs ? b.slice_axis(g, -1, 0, n) : g, ct);
  const Shape table_shape = shape_with_last(shape, n);
  Value c = table_for(b, cos, table_shape, ct);
  Value s = table_for(b, sin, table_shape, ct);
  Value z = b.mul(gf, s);
  std::vector<int64_t> none(rank, 0), half(rank, 0);
  half.back() = n / 2;
  const Number zero = Number::of_float(0.0);
  // Transpose of y1 = y[:n/2] (fed by rot's second half) and y2 = y[n/2:n] (fed by -rot's first half).
  Value from_y1 = b.pad(b.slice_axis(z, -1, n / 2, n), none, half, zero);
  Value from_y2 = b.pad(b.neg(b.slice_axis(z, -1, 0, n / 2)), half, none, zero);
  Value gx = b.add(b.add(b.mul(gf, c), from_y1), from_y2);
  if (keep_compute_dtype) {
    return n < hs ? b.cat({gx, cast_to(b, b.slice_axis(g, -1, n, hs), ct)}, -1) : gx;
  }
  gx = cast_to(b, gx, dt);
  return n < hs ? b.cat({gx, b.slice_axis(g, -1, n, hs)}, -1) : gx;
}

void check_table(const Builder& b, Value table, const char* what, DType dtype, int64_t T, int64_t n) {
  SEAM_CHECK(b.type(table) == Type::tensor(dtype, {T, n}), "RoPE: ", what, " must be ",
             Type::tensor(dtype, {T, n}).to_string(), ", got ", b.type(table).to_string());
}

void check_heads(const Builder& b, Value x, const char* what, const Shape& shape, DType dtype) {
  SEAM_CHECK(b.type(x) == Type::tensor(dtype, shape), "RoPE backward: ", what, " must be ",
             Type::tensor(dtype, shape).to_string(), ", got ", b.type(x).to_string());
}

std::string fusion_name(const RopeConfig& config, const RopeOptions& options, int64_t T) {
  std::string name = "rope_";
  for (char ch : config.name) name += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  name += options.contract == RopeContract::Thunder ? "_thunder" : "_rope_only";
  name += options.direction == Direction::Forward ? "_fwd" : "_bwd";
  return detail::concat(name, "_b", options.batch, "_t", T);
}

}  // namespace

RopeForwardValues emit_rope_forward(Builder& b, const RopeConfig& config, RopeContract contract, Value qkv,
                                    Value cos, Value sin) {
  validate(config);
  const int64_t nh = config.n_head, ng = config.n_query_groups, qpk = config.queries_per_group();
  const int64_t hs = config.head_size, n = config.rope_n_elem;
  const Type qkv_type = b.type(qkv);
  SEAM_CHECK(!qkv_type.is_scalar && qkv_type.rank() == 3 && qkv_type.shape[2] == (nh + 2 * ng) * hs &&
                 is_floating(qkv_type.dtype),
             "RoPE forward: qkv must be a floating [B,T,", (nh + 2 * ng) * hs, "] tensor for '", config.name,
             "', got ", qkv_type.to_string());
  const int64_t B = qkv_type.shape[0], T = qkv_type.shape[1];
  check_table(b, cos, "cos", qkv_type.dtype, T, n);
  check_table(b, sin, "sin", qkv_type.dtype, T, n);

  Value x = b.permute(b.reshape(qkv, {B, T, ng, qpk + 2, hs}), {0, 2, 3, 1, 4});
  Value q = b.slice_axis(x, 2, 0, qpk);
  Value k = b.slice_axis(x, 2, qpk, qpk + 1);
  Value v = b.slice_axis(x, 2, qpk + 1, qpk + 2);
  if (expands_kv(config, contract)) {
    k = b.expand(k, {B, ng, qpk, T, hs});
    v = b.expand(v, {B, ng, qpk, T, hs});
  }
  q = b.reshape(q, {B, -1, T, hs});
  k = b.reshape(k, {B, -1, T, hs});
  v = b.reshape(v, {B, -1, T, hs});
  return {rope_heads(b, q, cos, sin, n), rope_heads(b, k, cos, sin, n), v};
}

Value emit_rope_backward(Builder& b, const RopeConfig& config, RopeContract contract, Value grad_q,
                         Value grad_k, Value grad_v, Value cos, Value sin) {
  validate(config);
  const int64_t nh = config.n_head, ng = config.n_query_groups, qpk = config.queries_per_group();
  const int64_t hs = config.head_size, n = config.rope_n_elem;
  const Type gq_type = b.type(grad_q);
  SEAM_CHECK(!gq_type.is_scalar && gq_type.rank() == 4 && gq_type.shape[1] == nh && gq_type.shape[3] == hs &&
                 is_floating(gq_type.dtype),
             "RoPE backward: grad_q must be a floating [B,", nh, ",T,", hs, "] tensor for '", config.name,
             "', got ", gq_type.to_string());
  const DType dt = gq_type.dtype, ct = compute_dtype(dt);
  const int64_t B = gq_type.shape[0], T = gq_type.shape[2];
  const int64_t kvh = kv_heads(config, contract);
  check_heads(b, grad_k, "grad_k", {B, kvh, T, hs}, dt);
  check_heads(b, grad_v, "grad_v", {B, kvh, T, hs}, dt);
  check_table(b, cos, "cos", dt, T, n);
  check_table(b, sin, "sin", dt, T, n);

  Value dq = b.reshape(rope_heads_backward(b, grad_q, cos, sin, n, false), {B, ng, qpk, T, hs});
  Value dk, dv;
  if (expands_kv(config, contract)) {
    // The transpose of expand: sum the qpk copies of each group, in the compute dtype, rounding once.
    Value dk_copies = rope_heads_backward(b, grad_k, cos, sin, n, true);
    dk = cast_to(b, b.sum(b.reshape(dk_copies, {B, ng, qpk, T, hs}), {2}, true), dt);
    dv = cast_to(b, b.sum(b.reshape(cast_to(b, grad_v, ct), {B, ng, qpk, T, hs}), {2}, true), dt);
  } else {
    dk = b.reshape(rope_heads_backward(b, grad_k, cos, sin, n, false), {B, ng, 1, T, hs});
    dv = b.reshape(grad_v, {B, ng, 1, T, hs});
  }
  Value d = b.permute(b.cat({dq, dk, dv}, 2), {0, 3, 1, 2, 4});  // [B,T,ng,qpk+2,hs]
  return b.reshape(d, {B, T, (nh + 2 * ng) * hs});
}

Fusion build_rope(const RopeConfig& config, const RopeOptions& options) {
  validate(config);
  SEAM_CHECK(options.batch > 0, "RoPE: batch must be positive, got ", options.batch);
  SEAM_CHECK(options.seq_len >= 0, "RoPE: seq_len must be positive (or 0 for block_size), got ",
             options.seq_len);
  SEAM_CHECK(is_floating(options.dtype), "RoPE: dtype must be floating, got ", dtype_name(options.dtype));
  const int64_t B = options.batch, T = options.seq_len > 0 ? options.seq_len : config.block_size;
  const int64_t nh = config.n_head, ng = config.n_query_groups, hs = config.head_size;
  const DType dt = options.dtype;
  Builder b(fusion_name(config, options, T));
  if (options.direction == Direction::Forward) {
    Value qkv = b.input(Type::tensor(dt, {B, T, (nh + 2 * ng) * hs}), "qkv");
    Value cos = b.input(Type::tensor(dt, {T, config.rope_n_elem}), "cos");
    Value sin = b.input(Type::tensor(dt, {T, config.rope_n_elem}), "sin");
    RopeForwardValues out = emit_rope_forward(b, config, options.contract, qkv, cos, sin);
    return b.finish(std::vector<FusionOutput>{{out.q, "q"}, {out.k, "k"}, {out.v, "v"}});
  }
  const int64_t kvh = kv_heads(config, options.contract);
  Value grad_q = b.input(Type::tensor(dt, {B, nh, T, hs}), "grad_q");
  Value grad_k = b.input(Type::tensor(dt, {B, kvh, T, hs}), "grad_k");
  Value grad_v = b.input(Type::tensor(dt, {B, kvh, T, hs}), "grad_v");
  Value cos = b.input(Type::tensor(dt, {T, config.rope_n_elem}), "cos");
  Value sin = b.input(Type::tensor(dt, {T, config.rope_n_elem}), "sin");
  Value dqkv = emit_rope_backward(b, config, options.contract, grad_q, grad_k, grad_v, cos, sin);
  return b.finish(std::vector<FusionOutput>{{dqkv, "dqkv"}});
}

}  // namespace seam
