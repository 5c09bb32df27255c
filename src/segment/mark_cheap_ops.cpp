// The rule: a node is cheap when
//   1. its op is a cast, broadcast, expand, squeeze, slice, reshape, permute, const, full or iota,
//   2. every operand is a fusion input or a cheap node, and
//   3. no consumer is an opaque op, a scan or a scatter (a vendor library call, a scan or scatter kernel
//      reads its operands from memory, it does not recompute them; a scatter kernel prints a `const`
//      source as a literal, so a const may feed one).
// Such nodes depend on fusion inputs only, so copying one into every kernel that reads it adds no
// dependency between kernels and never reads more than the one materialized copy would have written
// and read back: a cast of a bf16 input makes the bf16 input, not the f32 result, cross the boundary.
//
// Also cheap, under 3: a widening cast (of anything but a reduction's result), or a broadcast, an expand,
// a reshape or a squeeze of a value free of reductions, where the value is computed by a kernel (the
// chain's "root") or is itself such an op: a chain that only makes a value wider or larger. Each consuming
// kernel then reads the root (written once by the kernel that owns it, or computed in the same kernel)
// instead of the wider result: bf16 rather than f32 crosses, a [T, d] table rather than its [b, h, T, d]
// expansion. SegmentGraph routes dependencies through the chain to the root, so the quotient graph
// stays what the kernels read, and shows a row or reduction kernel's predicate the chain ops whose root
// the group holds (SegmentGraph::accepts): the kernel computes them between the root and its readers.
// Narrowing casts, slices and permutes of computed values stay nodes: recomputing them would make more
// bytes cross, or change how a kernel walks memory.
//
// Also cheap, under 3 and with the chains: an expanding pointwise op, one whose result has at least twice
// the elements of everything it reads through cheap ops (its roots: computed values and fusion inputs),
// free of reductions: a compare of a class index with each row's target, [rows, classes] bool from a [rows]
// target and an iota. Each reader recomputes it from the roots, which cost it less than the result would.
//
// Also cheap, despite 3: a chain of view ops (permute, reshape, slice, ...) of a computed value that only
// matrix products read, where each product can read the chain's layout over its root, stored
// contiguously, in place (schedule/gemm_layout.h: a transpose flag, a leading dimension, batch strides).
// The kernel that owns the root writes it once; without this, it would also write the transposed or
// reshaped copy the library then reads (a weight gradient's transposed activations, for example).
#include "segment/mark_cheap_ops.h"

#include <algorithm>
#include <optional>

#include "schedule/gemm_layout.h"

namespace seam {
namespace {

bool is_duplicable_op(OpKind op) {
  switch (op) {
    case OpKind::Cast:
    case OpKind::Broadcast:
    case OpKind::Expand:
    case OpKind::Squeeze:
    case OpKind::Slice:
    case OpKind::Reshape:
    case OpKind::Permute:
    case OpKind::Const:
    case OpKind::Full:
    case OpKind::Iota: return true;
    default: return false;
  }
}

// Whether n extends a chain from a computed value: a widening cast of anything but a reduction's
// result, or a broadcast, expand, reshape or squeeze (views and broadcasts of a kernel's dense output)
// of a value that depends on no reduction. Row and reduction kernels place a reduction's dependants by
// the ops between them, which their predicates must see; a value free of reductions moves like an input.
bool extends_chain(const Fusion& fusion, const Node& n, const std::vector<bool>& reduction_free) {
  if (n.operands.size() != 1) return false;
  const Value operand = n.operands[0];
  const Node& producer = fusion.node(operand);
  if (producer.op == OpKind::Input) return false;
  switch (n.op) {
    case OpKind::Cast:
      return n.type.bytes() >= fusion.type(operand).bytes() && producer.category() != OpCategory::Reduction;
    case OpKind::Broadcast:
    case OpKind::Expand:
    case OpKind::Reshape:
    case OpKind::Squeeze: return reduction_free[operand.id];
    default: return false;
  }
}

// Elements of the distinct values n reads through cheap ops: the first non-cheap value (or input) on
// each path.
int64_t root_elements(const Fusion& fusion, const std::vector<bool>& cheap, const Node& n) {
  std::vector<Value> stack(n.operands.begin(), n.operands.end());
  std::vector<int32_t> seen;
  int64_t elements = 0;
  while (!stack.empty()) {
    const Value v = stack.back();
    stack.pop_back();
    if (std::find(seen.begin(), seen.end(), v.id) != seen.end()) continue;
    seen.push_back(v.id);
    if (fusion.node(v).op != OpKind::Input && cheap[v.id]) {
      for (Value w : fusion.node(v).operands) stack.push_back(w);
      continue;
    }
    elements += fusion.type(v).numel();
  }
  return elements;
}

bool is_pointwise_math(OpCategory category) {
  return category == OpCategory::Unary || category == OpCategory::Binary || category == OpCategory::Ternary ||
         category == OpCategory::Cast;
}

// The expanding pointwise op rule: every operand an input or cheap, no reduction, the result at least
// twice the elements of its roots (a broadcast, not a widening: widening casts are the chains' rule).
bool expands(const Fusion& fusion, const std::vector<bool>& cheap, const Node& n, bool reduction_free) {
  if (!is_pointwise_math(n.category()) || !reduction_free || n.operands.empty()) return false;
  for (Value operand : n.operands)
    if (fusion.node(operand).op != OpKind::Input && !cheap[operand.id]) return false;
  return 2 * root_elements(fusion, cheap, n) <= n.type.numel();
}

bool is_product(OpKind op) { return op == OpKind::Matmul || op == OpKind::Linear; }

// The value a view's layout is taken over: the chain's root, or, when no strides express the view over
// the root, the nearest view op down the chain that no strides express either (a reshape of permuted
// axes), with the view's layout over it. A kernel writes that one out contiguously, and the views of it
// are read there: attention's gradient, [b, h, T, d] permuted and flattened to [b*T, h*d], is written
// once, and its transpose for the weight gradient is a transpose flag, not a second, transposed copy.
struct LayoutOverBase {
  Value base;
  std::optional<StridedLayout> layout;  // nullopt: no strides express the view even over the base
};

LayoutOverBase layout_over_base(const Fusion& fusion, Value v, Value root) {
  if (std::optional<StridedLayout> layout = view_of_contiguous(fusion, v, root)) return {root, layout};
  for (Value a = fusion.node(v).operands[0]; a != root; a = fusion.node(a).operands[0])
    if (!view_of_contiguous(fusion, a, root)) return {a, view_of_contiguous(fusion, v, a)};
  return {root, std::nullopt};
}

// Per node, whether it is a view op of a computed value read only by matrix products (directly or
// through such views) that can each read it in place. Walks consumers before producers; a view that
// others are read over (layout_base) stays materialized.
std::vector<bool> views_read_by_products(const Fusion& fusion, const std::vector<bool>& cheap) {
  const int32_t n = fusion.num_nodes();
  std::vector<bool> read_in_place(static_cast<size_t>(n), false);
  std::vector<int32_t> read_over(static_cast<size_t>(n), -1);  // the base of a view read in place
  for (int32_t id = n - 1; id >= 0; --id) {
    const Value v{id};
    const Node& node = fusion.node(v);
    if (!is_view_op(node.op) || fusion.is_output(v)) continue;
    const Value root = view_root(fusion, v);
    if (fusion.node(root).op == OpKind::Input || cheap[root.id]) continue;  // no kernel writes the root
    const auto [base, layout] = layout_over_base(fusion, v, root);
    if (cheap[base.id]) continue;  // recomputed by its readers: no kernel writes it either
    const std::vector<Value>& consumers = fusion.consumers(v);
    bool ok = !consumers.empty();
    for (Value c : consumers) {
      const Node& consumer = fusion.node(c);
      if (read_in_place[c.id] && read_over[c.id] != id) continue;
      ok = is_product(consumer.op) && layout.has_value();
      for (size_t i = 0; i < consumer.operands.size() && ok; ++i)
        if (consumer.operands[i] == v) ok = has_gemm_form(consumer, i, *layout);
      if (!ok) break;
    }
    read_in_place[static_cast<size_t>(id)] = ok;
    if (ok) read_over[static_cast<size_t>(id)] = base.id;
  }
  return read_in_place;
}

}  // namespace

std::vector<bool> mark_cheap_ops(const Fusion& fusion, bool widening_chains) {
  const size_t n_nodes = static_cast<size_t>(fusion.num_nodes());
  std::vector<bool> cheap(n_nodes, false);
  std::vector<bool> from_inputs(n_nodes, false);  // rule 2, not a chain
  // No reduction among the node and what it reads within a kernel.
  std::vector<bool> reduction_free(n_nodes, false);
  for (int32_t id = 0; id < fusion.num_nodes(); ++id) {
    const Node& n = fusion.node(Value{id});
    // An opaque op, a scan or a scatter is a kernel of its own: no reduction before it shares a kernel
    // with its result.
    bool free = n.category() != OpCategory::Reduction;
    if (n.category() == OpCategory::Opaque || n.category() == OpCategory::Scan ||
        n.category() == OpCategory::Scatter)
      free = true;
    else
      for (Value operand : n.operands) free = free && reduction_free[operand.id];
    reduction_free[id] = free;
    bool feeds_opaque = false;
    for (Value consumer : fusion.consumers(Value{id}))
      feeds_opaque = feeds_opaque || fusion.node(consumer).category() == OpCategory::Opaque ||
                     fusion.node(consumer).category() == OpCategory::Scan ||
                     (fusion.node(consumer).category() == OpCategory::Scatter && n.op != OpKind::Const);
    if (feeds_opaque) continue;
    bool operands_free = true;
    for (Value operand : n.operands)
      operands_free = operands_free && (fusion.node(operand).op == OpKind::Input || from_inputs[operand.id]);
    if (widening_chains && expands(fusion, cheap, n, free)) {
      cheap[id] = true;
      from_inputs[id] = operands_free;
      continue;
    }
    if (!is_duplicable_op(n.op)) continue;
    from_inputs[id] = operands_free;
    cheap[id] = operands_free || (widening_chains && extends_chain(fusion, n, reduction_free));
  }
  const std::vector<bool> product_views = views_read_by_products(fusion, cheap);
  for (size_t id = 0; id < n_nodes; ++id) cheap[id] = cheap[id] || product_views[id];
  return cheap;
}

}  // namespace seam
