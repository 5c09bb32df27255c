#include "testing/cross_entropy.h"

#include <limits>
#include <random>

#include "interp/interpreter.h"
#include "ir/builder.h"

namespace seam {

using enum DType;

namespace {

struct Parts {
  Value targets, dloss, x, max, e, sum, valid;
};

Parts parts(Builder& b, int64_t m, int64_t n) {
  Parts p;
  p.x = b.cast(b.input(Type::tensor(BFloat16, {m, n}), "logits"), Float32);
  p.targets = b.input(Type::tensor(Int64, {m}), "targets");
  p.dloss = b.input(Type::tensor(Float32, {m}), "dloss");
  p.max = b.reduce(OpKind::Max, p.x, {1}, true);
  p.e = b.exp(b.sub(p.x, b.expand(p.max, {m, n})));
  p.sum = b.sum(p.e, {1}, true);
  p.valid = b.binary(OpKind::Ne, p.targets, b.constant(Number::of_int(kIgnoreIndex), Int64));
  return p;
}

Value gradient(Builder& b, const Parts& p, int64_t m, int64_t n) {
  Value softmax = b.div(p.e, b.expand(p.sum, {m, n}));
  Value hit = b.binary(OpKind::Eq, b.expand(b.broadcast(b.iota(n, Int64), {0}), {m, n}),
                       b.expand(b.broadcast(p.targets, {1}), {m, n}));
  Value scale = b.where(p.valid, p.dloss, b.constant(Number::of_float(0.0), Float32));
  Value grad = b.mul(b.sub(softmax, b.cast(hit, Float32)), b.expand(b.broadcast(scale, {1}), {m, n}));
  return b.cast(grad, BFloat16);
}

}  // namespace

Fusion cross_entropy_backward(int64_t m, int64_t n) {
  Builder b("cross_entropy_bwd");
  const Parts p = parts(b, m, n);
  return b.finish({FusionOutput{gradient(b, p, m, n), "dlogits"}});
}

Fusion cross_entropy_forward_backward(int64_t m, int64_t n) {
  Builder b("cross_entropy_fwd_bwd");
  const Parts p = parts(b, m, n);
  Value lse = b.add(b.unary(OpKind::Log, b.squeeze(p.sum, {1})), b.squeeze(p.max, {1}));
  Value safe = b.where(p.valid, p.targets, b.constant(Number::of_int(0), Int64));
  Value picked = b.squeeze(b.take_along_axis(p.x, b.broadcast(safe, {1}), 1), {1});
  Value loss = b.where(p.valid, b.sub(lse, picked), b.constant(Number::of_float(0.0), Float32));
  return b.finish({FusionOutput{loss, "loss"}, FusionOutput{gradient(b, p, m, n), "dlogits"}});
}

std::vector<HostTensor> cross_entropy_inputs(const Fusion& fusion, uint64_t seed) {
  std::vector<HostTensor> inputs = random_inputs(fusion, seed);
  HostTensor& logits = inputs[0];
  HostTensor& targets = inputs[1];
  const int64_t m = logits.shape()[0], n = logits.shape()[1];
  std::mt19937_64 rng(seed);
  for (int64_t r = 0; r < m; ++r) {
    const int64_t target = std::uniform_int_distribution<int64_t>(0, n - 1)(rng);
    targets.set_int(r, r % 3 == 1 ? kIgnoreIndex : target);
    // A masked class in most rows of more than one class (not the target, so the loss stays finite).
    const int64_t masked = (target + 1 + r) % n;
    if (n > 1 && r % 4 != 3 && masked != target)
      logits.set_double(r * n + masked, -std::numeric_limits<double>::infinity());
  }
  return inputs;
}

}  // namespace seam
