// Small random DAGs for the segmenter's oracle and property tests: a controllable number of ops, mixing
// pointwise, movement (cat and pad included), reductions and an opaque op, with a width knob (how far
// back operands are drawn from). Also a relabelling that emits the same DAG in another topological order.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "ir/builder.h"

namespace seam::testing {

struct RandomDagOptions {
  int ops = 8;         // non-input ops
  int width = 3;       // operands come from the last `width` values (plus the inputs)
  bool opaque = true;  // allow a matmul
  bool reductions = true;
};

inline Fusion random_dag(uint64_t seed, const RandomDagOptions& o) {
  std::mt19937_64 rng(seed);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  Builder b("dag" + std::to_string(seed));
  std::vector<Value> values;
  values.push_back(b.input(Type::tensor(DType::BFloat16, {2, 4}), "x"));
  if (pick(2)) values.push_back(b.input(Type::tensor(DType::Float32, {2, 4}), "y"));
  const int num_inputs = static_cast<int>(values.size());
  auto recent = [&]() {
    int n = static_cast<int>(values.size());
    if (pick(4) == 0) return values[pick(num_inputs)];
    return values[n - 1 - pick(std::min(n, o.width))];
  };
  auto same_shape = [&](Value v) {
    std::vector<Value> fits;
    for (Value w : values)
      if (b.type(w).shape == b.type(v).shape && b.type(w).dtype == b.type(v).dtype) fits.push_back(w);
    return fits[pick(static_cast<int>(fits.size()))];
  };
  int made = 0;
  bool used_opaque = false;
  while (made < o.ops) {
    Value x = recent();
    const Shape shape = b.type(x).shape;
    Value y;
    switch (pick(12)) {
      case 0: y = b.neg(x); break;
      case 1: y = b.exp(x); break;
      case 2: y = b.cast(x, b.type(x).dtype == DType::Float32 ? DType::BFloat16 : DType::Float32); break;
      case 3: y = b.mul(x, same_shape(x)); break;
      case 4: y = b.add(x, same_shape(x)); break;
      case 5:
        if (shape.size() != 2) continue;
        y = b.permute(x, {1, 0});
        break;
      case 6:
        if (shape.size() != 2 || shape[1] % 2) continue;
        y = b.slice_axis(x, 1, 0, shape[1] / 2);
        break;
      case 7:
        if (shape.size() != 2) continue;
        y = b.pad(x, {0, 1}, {0, 1}, Number::of_int(0));
        break;
      case 8:
        if (shape.empty()) continue;
        y = b.cat({x, same_shape(x)}, 0);
        break;
      case 9:
        if (shape.size() != 2 || !o.reductions) continue;
        y = b.sum(x, {1}, pick(2) == 0);
        break;
      case 10:
        // Broadcast a vector back to a matrix (the normalization pattern) or flatten a matrix.
        if (shape.size() == 1)
          y = b.expand(b.broadcast(x, {1}), {shape[0], 4});
        else if (shape.size() == 2)
          y = b.reshape(x, {shape[0] * shape[1]});
        else
          continue;
        break;
      case 11:
        if (!o.opaque || used_opaque || shape.size() != 2) continue;
        y = b.matmul(x, b.permute(x, {1, 0}));
        used_opaque = true;
        break;
    }
    values.push_back(y);
    ++made;
  }
  std::vector<Value> outputs;
  for (int id = 0; id < b.num_nodes(); ++id) {
    bool used = false;
    for (int c = id + 1; c < b.num_nodes() && !used; ++c)
      for (Value operand : b.node(Value{c}).operands) used = used || operand.id == id;
    if ((!used || pick(6) == 0) && b.node(Value{id}).op != OpKind::Input && !b.type(Value{id}).is_scalar)
      outputs.push_back(Value{id});
  }
  return b.finish(outputs);
}

// The same DAG emitted in a random other topological order (inputs first, in their order).
inline Fusion relabel(const Fusion& f, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const int n = f.num_nodes();
  std::vector<int> pending(n, 0), order;
  for (int id = 0; id < n; ++id) pending[id] = static_cast<int>(f.node(Value{id}).operands.size());
  // Operands may repeat (x * x): count distinct ones.
  for (int id = 0; id < n; ++id) {
    auto ops = f.node(Value{id}).operands;
    std::sort(ops.begin(), ops.end());
    pending[id] = static_cast<int>(std::unique(ops.begin(), ops.end()) - ops.begin());
  }
  std::vector<int> ready;
  for (Value in : f.inputs()) order.push_back(in.id);
  for (int id = 0; id < n; ++id)
    if (pending[id] == 0 && f.node(Value{id}).op != OpKind::Input) ready.push_back(id);
  for (Value in : f.inputs())
    for (Value c : f.consumers(in))
      if (--pending[c.id] == 0) ready.push_back(c.id);
  while (!ready.empty()) {
    size_t i = rng() % ready.size();
    int id = ready[i];
    ready.erase(ready.begin() + static_cast<std::ptrdiff_t>(i));
    order.push_back(id);
    for (Value c : f.consumers(Value{id}))
      if (--pending[c.id] == 0) ready.push_back(c.id);
  }
  Builder b(f.name());
  std::vector<Value> map(n);
  for (int id : order) {
    const Node& node = f.node(Value{id});
    std::vector<Value> operands;
    for (Value v : node.operands) operands.push_back(map[v.id]);
    bool leaf = node.category() == OpCategory::Leaf;
    map[id] = b.add(node.op, operands, node.attrs, leaf ? std::optional<Type>(node.type) : std::nullopt);
  }
  std::vector<FusionOutput> outputs;
  for (const FusionOutput& out : f.outputs()) outputs.push_back({map[out.value.id], out.name});
  return b.finish(outputs);
}

}  // namespace seam::testing
