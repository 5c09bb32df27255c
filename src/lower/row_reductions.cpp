// A row kernel's reductions (lower/row_emitter.h): per row, every reduction in dependency order, each
// level's in one loop over the row, then combined over the row's threads; what a reduction accumulates
// in and starts from is lower/reduction_math.h's.
#include <algorithm>
#include <limits>

#include "lower/reduction_math.h"
#include "lower/row_emitter.h"
#include "lower/row_peel.h"
#include "support/error.h"

namespace seam {

using kir::Index;

// The reductions grouped by level (a reduction's level: 1 + the highest level among the reductions its
// operand reads, 0 when none), in id order within a level: those of one level share a loop over the row,
// so a streamed row is read once per level, not once per reduction.
std::vector<std::vector<Value>> RowEmitter::reduction_levels() const {
  const size_t n = static_cast<size_t>(fusion_.num_nodes());
  std::vector<int> below(n, -1), level(n, -1);
  std::vector<std::vector<Value>> levels;
  for (size_t id = 0; id < n; ++id) {
    const Node& node = fusion_.node(Value{static_cast<int32_t>(id)});
    for (Value operand : node.operands) {
      const size_t o = static_cast<size_t>(operand.id);
      below[id] = std::max(below[id], level[o] >= 0 ? level[o] : below[o]);
    }
    if (node.category() != OpCategory::Reduction || is_outer(Value{static_cast<int32_t>(id)})) continue;
    level[id] = below[id] + 1;
    if (levels.size() <= static_cast<size_t>(level[id])) levels.resize(static_cast<size_t>(level[id]) + 1);
    levels[static_cast<size_t>(level[id])].push_back(Value{static_cast<int32_t>(id)});
  }
  return levels;
}

void RowEmitter::check_row_reduction(Value v) const {
  const Node& node = fusion_.node(v);
  const Value operand = node.operands[0];
  SEAM_CHECK(fusion_.type(operand).shape == shape_ && node.attrs.get_ints("axes") == axes_, "kernel ",
             fusion_.name(), ": %", v.id, " reduces ", fusion_.type(operand).to_string(), " over ",
             shape_to_string(node.attrs.get_ints("axes")), ", another reduction ",
             Type::tensor(DType::Float32, shape_).to_string(), " over ", shape_to_string(axes_),
             "; a row kernel needs one shape and one set of axes");
}

kir::Var RowEmitter::call(OpKind op, std::vector<kir::Var> args, DType dtype, bool approximate) {
  int lanes = 1;
  for (const kir::Var& a : args) lanes = std::max(lanes, a.lanes);
  kir::Expr e{kir::Expr::Kind::Call};
  e.op = op;
  e.args = std::move(args);
  e.approximate = approximate;
  return define(dtype, lanes, std::move(e));
}

kir::Var RowEmitter::literal(DType dtype, Number value) {
  kir::Expr e{kir::Expr::Kind::Literal};
  e.literal = value;
  return define(dtype, 1, std::move(e));
}

// `where_minus_inf` where `m` is -inf, else `otherwise`: the online pair's guards for rows of -inf.
kir::Var RowEmitter::if_minus_inf(const kir::Var& m, const kir::Var& where_minus_inf,
                                  const kir::Var& otherwise) {
  const kir::Var minus_inf = literal(m.dtype, Number::of_float(-std::numeric_limits<double>::infinity()));
  kir::Expr e{kir::Expr::Kind::Select};
  e.args = {call(OpKind::Eq, {m, minus_inf}, DType::Bool), where_minus_inf, otherwise};
  return define(otherwise.dtype, otherwise.lanes, std::move(e));
}

// `m`, or 0 where `m` is -inf: the shift of an online sum, so that a row of -inf sums exp(-inf) = 0
// instead of exp(-inf - -inf) = NaN.
kir::Var RowEmitter::finite_shift(const kir::Var& m) {
  return if_minus_inf(m, literal(m.dtype, Number::of_float(0.0)), m);
}

// The online sum of a row whose max is -inf: the fusion's sum of exp(-inf - -inf) is NaN, which the
// shifted sum (finite_shift) would give as 0.
kir::Var RowEmitter::literal_online_sum(const kir::Var& sum, const kir::Var& row_max) {
  return if_minus_inf(row_max, literal(sum.dtype, Number::of_float(std::numeric_limits<double>::quiet_NaN())),
                      sum);
}

// The sum of `later` that forms an online pair with the max reduction `max`, if any.
std::optional<RowEmitter::OnlinePair> RowEmitter::online_pair(Value max,
                                                              const std::vector<Value>& later) const {
  if (fusion_.node(max).op != OpKind::Max || !is_floating(fusion_.type(max).dtype)) return std::nullopt;
  const Value y = fusion_.node(max).operands[0];
  for (Value sum : later) {
    if (fusion_.node(sum).op != OpKind::Sum) continue;
    const Value e = fusion_.node(sum).operands[0];
    if (fusion_.node(e).op != OpKind::Exp) continue;
    const Value d = fusion_.node(e).operands[0];
    const Node& sub = fusion_.node(d);
    if (sub.op != OpKind::Sub || sub.operands[0] != y || fusion_.type(d).dtype != fusion_.type(y).dtype)
      continue;
    Value m = sub.operands[1];  // the max brought back to y's shape by expand, broadcast, reshape
    while (m != max && (fusion_.node(m).op == OpKind::Expand || fusion_.node(m).op == OpKind::Broadcast ||
                        fusion_.node(m).op == OpKind::Reshape))
      m = fusion_.node(m).operands[0];
    if (m == max) return OnlinePair{max, sum, e};
  }
  return std::nullopt;
}

size_t RowEmitter::LevelAccumulators::acc_of(Value v) const {
  const auto it = std::find(reductions.begin(), reductions.end(), v);
  SEAM_ASSERT(it != reductions.end(), "reduction %", v.id, " has no accumulator");
  return static_cast<size_t>(it - reductions.begin());
}

const RowEmitter::OnlinePair* RowEmitter::LevelAccumulators::pair_of(Value v) const {
  for (const OnlinePair& p : pairs)
    if (p.max == v) return &p;
  return nullptr;
}

// One loop over the row accumulating every reduction of `level` (acc = combine over this thread's
// elements, one accumulator per lane of the vector), then each combined over the row's threads (RowReduce
// folds the lanes first). The sums that form online pairs with this level's maxima (online_pair) are
// taken out of the next level: a streamed kernel accumulates them in the same loop (max and sum updated
// together), a persistent one in a second loop over the registers from this thread's max; f32 pairs then
// cross the row's threads in one exchange (RowReduceOnline), not two.
void RowEmitter::reduce_level(const std::vector<Value>& level) {
  if (std::all_of(level.begin(), level.end(), [&](Value v) { return taken_.count(v.id) > 0; })) return;
  LevelAccumulators accumulators = declare_accumulators(level);
  if (accumulators.chunk > 0)
    in_chunked_row_loop(
        accumulators.chunk, [&](const AxisIndex& idx) { accumulate(accumulators, idx); },
        [&] { combine_chunk(accumulators); });
  else
    in_row_loop([&](const AxisIndex& idx) { accumulate(accumulators, idx); });
  if (persistent_ && !accumulators.pairs.empty()) sum_pairs_in_registers(accumulators);
  combine_across_threads(accumulators);
}

// The level's online pairs and accumulators, declared with their identities. A long streamed row's f32
// sums: the loop accumulates a chunk into partials (same identities), which are combined into the running
// accumulators after each chunk (chunk_vectors).
RowEmitter::LevelAccumulators RowEmitter::declare_accumulators(const std::vector<Value>& level) {
  LevelAccumulators l;
  for (Value v : level)
    if (!taken_.count(v.id)) l.reductions.push_back(v);
  if (next_level_ != nullptr)
    for (Value v : level)
      if (auto pair = online_pair(v, *next_level_)) {
        const bool f32 =
            reduction_accumulator(fusion_.type(fusion_.node(v).operands[0]).dtype) == DType::Float32;
        if (!persistent_ || f32) l.pairs.push_back(*pair);  // a persistent f64 row reads registers twice
      }
  for (Value v : l.reductions) {
    check_row_reduction(v);
    const DType accumulator = reduction_accumulator(fusion_.type(fusion_.node(v).operands[0]).dtype);
    l.identities.push_back(reduction_identity(fusion_.node(v).op, accumulator));
    l.accs.push_back(declare(accumulator, lanes_, l.identities.back()));
  }
  for (const OnlinePair& p : l.pairs)
    l.sums.push_back(declare(reduction_accumulator(fusion_.type(p.max).dtype), lanes_, Number::of_int(0)));
  l.chunk = chunk_vectors(l.reductions, l.pairs);
  if (l.chunk > 0) {
    for (size_t a = 0; a < l.accs.size(); ++a)
      l.part_accs.push_back(declare(l.accs[a].dtype, lanes_, l.identities[a]));
    for (const kir::Var& s : l.sums) l.part_sums.push_back(declare(s.dtype, s.lanes, Number::of_int(0)));
  }
  return l;
}

// A row element of `operand` as the accumulator's type; past a peeled row's edge: the identity of `op`.
kir::Var RowEmitter::row_element(Value operand, const AxisIndex& idx, DType dtype, OpKind op) {
  kir::Var x = convert(emit(operand, idx), dtype);
  if (peeled_rows_) x = define(dtype, lanes_, row_edge(x, reduction_identity(op, dtype)));
  return x;
}

// In the loop over the row: each reduction's element combined into its accumulator (chunked: its partial).
void RowEmitter::accumulate(LevelAccumulators& l, const AxisIndex& idx) {
  for (size_t a = 0; a < l.reductions.size(); ++a) {
    const Value v = l.reductions[a];
    const Node& node = fusion_.node(v);
    const kir::Var& acc = l.chunk > 0 ? l.part_accs[a] : l.accs[a];
    const kir::Var x = row_element(node.operands[0], idx, acc.dtype, node.op);
    const OnlinePair* pair = l.pair_of(v);
    if (pair != nullptr && !persistent_) {  // m' = max(m, x); s = s * exp(m - m') + exp(x - m')
      const size_t p = l.pair_index(pair);
      const kir::Var& s = l.chunk > 0 ? l.part_sums[p] : l.sums[p];
      const bool approximate = approximate_exp(*pair);
      const kir::Var m = call(OpKind::Maximum, {acc, x}, acc.dtype);
      const kir::Var shift = finite_shift(m);
      const kir::Var scale =
          call(OpKind::Exp, {call(OpKind::Sub, {acc, shift}, acc.dtype)}, acc.dtype, approximate);
      const kir::Var e =
          call(OpKind::Exp, {call(OpKind::Sub, {x, shift}, acc.dtype)}, acc.dtype, approximate);
      assign(s, call(OpKind::Add, {call(OpKind::Mul, {s, scale}, s.dtype), e}, s.dtype));
      assign(acc, m);
      continue;
    }
    assign(acc, call(reduction_combine(node.op), {acc, x}, acc.dtype));
  }
}

// After each chunk: the partials into the running accumulators (online pairs as pairs), then reset.
void RowEmitter::combine_chunk(LevelAccumulators& l) {
  for (size_t a = 0; a < l.reductions.size(); ++a) {
    const Value v = l.reductions[a];
    const kir::Var &acc = l.accs[a], &part = l.part_accs[a];
    const OnlinePair* pair = l.pair_of(v);
    if (pair != nullptr) {  // m' = max(m, pm); s = s * exp(m - m') + ps * exp(pm - m')
      const size_t p = l.pair_index(pair);
      const bool approximate = approximate_exp(*pair);
      const kir::Var m = call(OpKind::Maximum, {acc, part}, acc.dtype);
      const kir::Var shift = finite_shift(m);
      auto scaled = [&](const kir::Var& sum, const kir::Var& max) {
        return call(
            OpKind::Mul,
            {sum, call(OpKind::Exp, {call(OpKind::Sub, {max, shift}, acc.dtype)}, acc.dtype, approximate)},
            acc.dtype);
      };
      assign(l.sums[p], call(OpKind::Add, {scaled(l.sums[p], acc), scaled(l.part_sums[p], part)}, acc.dtype));
      assign(acc, m);
      assign(l.part_sums[p], literal(acc.dtype, Number::of_int(0)));
    } else {
      assign(acc, call(reduction_combine(fusion_.node(v).op), {acc, part}, acc.dtype));
    }
    assign(part, literal(part.dtype, l.identities[a]));
  }
}

// Persistent: s = sum of exp(x - m) over this thread's registers, m its max.
void RowEmitter::sum_pairs_in_registers(const LevelAccumulators& l) {
  in_row_loop([&](const AxisIndex& idx) {
    for (size_t p = 0; p < l.pairs.size(); ++p) {
      const kir::Var& m = l.accs[l.acc_of(l.pairs[p].max)];
      const kir::Var x = row_element(fusion_.node(l.pairs[p].max).operands[0], idx, m.dtype, OpKind::Max);
      const kir::Var e = call(OpKind::Exp, {call(OpKind::Sub, {x, finite_shift(m)}, m.dtype)}, m.dtype,
                              approximate_exp(l.pairs[p]));
      assign(l.sums[p], call(OpKind::Add, {l.sums[p], e}, m.dtype));
    }
  });
}

// Each accumulator combined over the row's threads (f32 online pairs in one exchange), giving the row's
// value of each reduction; the pairs' sums are then taken out of the next level.
void RowEmitter::combine_across_threads(const LevelAccumulators& l) {
  for (size_t a = 0; a < l.reductions.size(); ++a) {
    const Value v = l.reductions[a];
    const OnlinePair* pair = l.pair_of(v);
    if (pair != nullptr && l.accs[a].dtype == DType::Float32) {
      const size_t p = l.pair_index(pair);
      const auto [row_max, row_sum] = row_reduce_online(l.accs[a], l.sums[p], approximate_exp(*pair));
      reduction_value_[v.id] = convert(row_max, fusion_.node(v).type.dtype);
      reduction_value_[pair->sum.id] =
          convert(literal_online_sum(row_sum, row_max), fusion_.type(pair->sum).dtype);
      continue;
    }
    const kir::Var combined = row_reduce(fusion_.node(v).op, l.accs[a]);
    reduction_value_[v.id] = convert(combined, fusion_.node(v).type.dtype);
  }
  for (size_t p = 0; p < l.pairs.size(); ++p) {
    const OnlinePair& pair = l.pairs[p];
    if (reduction_value_.count(pair.sum.id) == 0) {  // f64: s * exp(m - row max) over the row
      const kir::Var row_max = reduction_value_.at(pair.max.id);
      const kir::Var& m = l.accs[l.acc_of(pair.max)];
      const kir::Var shift = finite_shift(convert(row_max, m.dtype));
      const kir::Var scaled = call(OpKind::Mul,
                                   {l.sums[p], call(OpKind::Exp, {call(OpKind::Sub, {m, shift}, m.dtype)},
                                                    m.dtype, approximate_exp(pair))},
                                   m.dtype);
      const kir::Var row_sum = row_reduce(OpKind::Sum, scaled);
      reduction_value_[pair.sum.id] =
          convert(literal_online_sum(row_sum, convert(row_max, m.dtype)), fusion_.type(pair.sum).dtype);
    }
    taken_.insert(pair.sum.id);
  }
}

// The vectors of a chunk when a streamed row's loop must be chunked, else 0. A thread's f32 sum adds its
// terms one after another; past 2^24 equal terms it stops growing, and its error grows with their number.
// On the host one thread takes the whole row (the GPU's threads a share of it): a row of more than
// kUnchunkedVectors vectors is summed in chunks of about sqrt(vectors) (a power of two), so that neither a
// chunk's partial sums nor the running sums they are added to take more than about sqrt(vectors) <= 2^20
// terms in sequence, as in pairwise summation's first levels. Max and min are exact in any order; f64
// sums keep one loop.
int64_t RowEmitter::chunk_vectors(const std::vector<Value>& reductions,
                                  const std::vector<OnlinePair>& pairs) const {
  if (persistent_) return 0;  // a thread's registers: a few dozen vectors
  const int64_t vectors = row_vectors();
  if (vectors <= kUnchunkedVectors) return 0;
  bool f32_sum = false;
  for (Value v : reductions)
    if (fusion_.node(v).op == OpKind::Sum &&
        reduction_accumulator(fusion_.type(fusion_.node(v).operands[0]).dtype) == DType::Float32)
      f32_sum = true;
  for (const OnlinePair& p : pairs)
    if (reduction_accumulator(fusion_.type(p.max).dtype) == DType::Float32) f32_sum = true;
  if (!f32_sum) return 0;
  int64_t chunk = kUnchunkedVectors;
  while (chunk * chunk < vectors) chunk *= 2;
  return chunk;
}

// The row's online pair (max, sum) from this thread's (RowReduceOnline).
std::pair<kir::Var, kir::Var> RowEmitter::row_reduce_online(const kir::Var& max, const kir::Var& sum,
                                                            bool approximate) {
  kir::Stmt across{kir::Stmt::Kind::RowReduceOnline};
  across.var = fresh(max.dtype, 1);
  across.source = max;
  across.expr.args = {sum, fresh(sum.dtype, 1)};
  across.expr.approximate = approximate;
  std::pair<kir::Var, kir::Var> combined{across.var, across.expr.args[1]};
  block().push_back(std::move(across));
  return combined;
}

kir::Var RowEmitter::row_reduce(OpKind op, const kir::Var& source) {
  kir::Stmt across{kir::Stmt::Kind::RowReduce};
  across.var = fresh(source.dtype, 1);
  across.source = source;
  across.expr.op = op;
  kir::Var combined = across.var;
  block().push_back(std::move(across));
  return combined;
}

// The row's value of a reduction, when `idx` is this row's index in the reduction's output.
kir::Var RowEmitter::emit_reduction(Value v, const Node& node, const AxisIndex& idx) {
  if (is_outer(v)) {  // known only to the last block, after every row (the predicate keeps rows off it)
    if (!finishing_) throw NotRowAligned{"outer reduction %" + std::to_string(v.id) + " is read in a row"};
    const size_t j = static_cast<size_t>(std::find(outer_.begin(), outer_.end(), v) - outer_.begin());
    return convert(kir::Var{total_name(j), DType::Float32, 1}, node.type.dtype);
  }
  if (finishing_) throw NotRowAligned{"reduction %" + std::to_string(v.id) + " is read per column"};
  auto it = reduction_value_.find(v.id);
  SEAM_ASSERT(it != reduction_value_.end(), "reduction %", v.id, " read before it is computed");
  const bool keepdim = node.attrs.get_bool("keepdim");
  size_t o = 0;
  for (size_t d = 0; d < shape_.size(); ++d) {
    if (is_reduced(d) && !keepdim) continue;
    Index expected = is_reduced(d) ? kir::constant(0) : row_index_[d];
    // An axis of extent 1 is read at 0 through a broadcast; every row's index there is 0 too (the row
    // index is not folded to 0, so that one row and many print one text).
    const bool unit_axis = !is_reduced(d) && shape_[d] == 1 && kir::constant_value(idx.index[o]) == 0;
    if (!unit_axis && kir::to_string(idx.index[o]) != kir::to_string(expected))
      throw NotRowAligned{"reduction %" + std::to_string(v.id) + " is read at another row"};
    ++o;
  }
  return it->second;
}

}  // namespace seam
