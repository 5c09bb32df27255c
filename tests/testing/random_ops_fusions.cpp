#include "testing/random_ops_fusions.h"

#include "ir/builder.h"

namespace seam {
namespace {

Value f64(Builder& b, double v) { return b.constant(Number::of_float(v), DType::Float64); }
Value i64(Builder& b, int64_t v) { return b.constant(Number::of_int(v), DType::Int64); }

// x * (uniform(0, 1) >= p) / (1 - p), with the seed and offset passed at run time.
Fusion dropout() {
  Builder b("dropout");
  Value x = b.input(Type::tensor(DType::BFloat16, {33, 130}), "x");
  Value seed = b.input(Type::scalar(DType::Int64), "seed");
  Value offset = b.input(Type::scalar(DType::Int64), "offset");
  Value u = b.uniform(f64(b, 0.0), f64(b, 1.0), seed, offset, {33, 130}, DType::Float32);
  Value keep = b.add(OpKind::Ge, {u, b.constant(Number::of_float(0.25), DType::Float32)});
  Value kept = b.mul(b.cast(x, DType::Float32), b.cast(keep, DType::Float32));
  Value y = b.cast(b.div(kept, b.constant(Number::of_float(0.75), DType::Float32)), DType::BFloat16);
  return b.finish(std::vector<FusionOutput>{{y, "y"}, {keep, "mask"}});
}

Fusion every_dtype() {
  Builder b("random_every_dtype");
  std::vector<Value> outs;
  for (DType d : {DType::Float16, DType::BFloat16, DType::Float32, DType::Float64}) {
    outs.push_back(b.uniform(f64(b, -2.0), f64(b, 5.0), i64(b, 7), i64(b, 1), {5, 67}, d));
    outs.push_back(b.normal(f64(b, 1.0), f64(b, 3.0), i64(b, 7), i64(b, 2), {5, 67}, d));
  }
  return b.finish(outs);
}

// One random op read at many index patterns, in several kernels.
Fusion through_movement() {
  Builder b("random_through_movement");
  Value u = b.uniform(f64(b, 0.0), f64(b, 1.0), i64(b, 99), i64(b, 0), {8, 16}, DType::Float32);
  Value n = b.normal(f64(b, 0.0), f64(b, 1.0), i64(b, 99), i64(b, 0), {1, 16}, DType::Float32);
  Value t = b.permute(u, {1, 0});
  Value s = b.slice(u, {1, 3}, {8, 16}, {2, 3});
  Value e = b.add(u, b.expand(n, {8, 16}));
  Value r = b.reshape(u, {4, 32});
  Value c = b.cat({u, b.slice(u, {0, 0}, {8, 5}, {1, 1})}, 1);
  return b.finish({t, s, e, r, c, u});
}

// Random values inside row kernels and also stored directly. Max and min, not sums: their results are
// exact, so the comparison can be bit for bit (a sum's rounding depends on its order).
Fusion reduced() {
  Builder b("random_reduced");
  Value x = b.input(Type::tensor(DType::Float32, {16, 300}), "x");
  Value u = b.uniform(f64(b, -1.0), f64(b, 1.0), i64(b, 3), i64(b, 4), {16, 300}, DType::Float32);
  Value rows = b.reduce(OpKind::Max, b.mul(x, u), {1}, true);
  Value z = b.normal(f64(b, 0.0), f64(b, 1.0), i64(b, 3), i64(b, 5), {16, 300}, DType::Float64);
  Value zmax = b.reduce(OpKind::Min, z, {0});
  return b.finish({rows, u, zmax, b.sub(x, b.expand(rows, {16, 300}))});
}

// Wide rows stored in vectors, and a random op read transposed (lanes step by a row).
Fusion vector_rows() {
  Builder b("random_vector_rows");
  Value u = b.uniform(f64(b, 0.0), f64(b, 1.0), i64(b, 1), i64(b, 0), {64, 1024}, DType::BFloat16);
  Value w = b.normal(f64(b, 0.0), f64(b, 1.0), i64(b, 1), i64(b, 0), {256, 64}, DType::Float32);
  return b.finish({u, b.permute(w, {1, 0})});
}

// Seeds and offsets across the 64-bit range, narrow and wide, constant and run-time; lo/hi from inputs.
Fusion edge_seeds() {
  Builder b("random_edge_seeds");
  Value seed32 = b.input(Type::scalar(DType::Int32), "seed32");
  Value lo = b.input(Type::scalar(DType::Float32), "lo");
  Value a = b.uniform(lo, f64(b, 8.0), seed32, i64(b, -1), {7, 9}, DType::Float32);
  Value c = b.uniform(f64(b, 0.0), f64(b, 1.0), i64(b, INT64_MIN), i64(b, INT64_MAX), {7, 9}, DType::Float64);
  Value d = b.normal(lo, lo, b.constant(Number::of_int(-7), DType::Int32), seed32, {63}, DType::BFloat16);
  Value e = b.uniform(f64(b, 0.0), f64(b, 1.0), i64(b, 5), i64(b, 6), {}, DType::Float16);
  return b.finish({a, c, d, e});
}

}  // namespace

std::vector<Fusion> random_ops_fusions() {
  std::vector<Fusion> fusions;
  fusions.push_back(dropout());
  fusions.push_back(every_dtype());
  fusions.push_back(through_movement());
  fusions.push_back(reduced());
  fusions.push_back(vector_rows());
  fusions.push_back(edge_seeds());
  return fusions;
}

}  // namespace seam
