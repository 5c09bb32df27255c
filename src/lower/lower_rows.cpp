#include "lower/lower_rows.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include "ir/builder.h"
#include "lower/expression_emitter.h"
#include "lower/index_space.h"
#include "lower/kernel_params.h"
#include "lower/lower_pointwise.h"
#include "lower/outer_reductions.h"
#include "lower/reduction_math.h"
#include "lower/row_cache.h"
#include "lower/row_divisors.h"
#include "lower/row_peel.h"
#include "support/error.h"

namespace seam {
namespace {

using kir::Index;

// Thrown when a value reads a reduction at an index that is not the current row: a row kernel holds only
// its own row's reduction values.
struct NotRowAligned {
  std::string reason;
};

int64_t product(const Shape& shape) {
  int64_t p = 1;
  for (int64_t e : shape) p *= e;
  return p;
}

class RowEmitter : public ExpressionEmitter {
 public:
  // `vector`, `persistent`: the layout's (RowLayout). Persistent loops all use one loop variable and
  // name their element indices after the axis, so that a load reads the same text in every pass over
  // the row (lower/row_cache.h matches them).
  // `peel`: RowLayout::peel (lower/row_peel.h). `outer`: the kernel's outer reductions
  // (lower/outer_reductions.h).
  RowEmitter(const Fusion& fusion, kir::Kernel& kernel, const std::vector<int>& input_param, int& counter,
             Shape shape, std::vector<int64_t> axes, int vector, bool persistent, bool peel,
             bool peel_columns, std::vector<Value> outer)
      : ExpressionEmitter(fusion, kernel, input_param, vector, counter),
        shape_(std::move(shape)),
        axes_(std::move(axes)),
        persistent_(persistent),
        outer_(std::move(outer)) {
    for (size_t d = 0; d < shape_.size(); ++d) (is_reduced(d) ? reduced_axes_ : outer_axes_).push_back(d);
    for (size_t d : outer_axes_) rows_ *= shape_[d];
    for (size_t d : reduced_axes_) reduced_ *= shape_[d];
    peeled_rows_ = peel;
    peel_columns_ = peel && peel_columns;
  }

  int64_t rows() const { return rows_; }
  // Outputs of other shapes that read no reduction: for chunk programs.
  const std::vector<int>& chunked() const { return chunked_; }

  // Names of outer reduction j's accumulator and total (kir::OuterReduction).
  static std::string accumulator_name(size_t j) { return "seam_outer" + std::to_string(j); }
  static std::string total_name(size_t j) { return "seam_outer_total" + std::to_string(j); }

  // `row_bound`: what `row` stays below (on the GPU the last block's spare slots run past the rows).
  // `finish`: receives what the last block computes per column after the outer reductions.
  void lower(kir::Block& body, kir::Block& finish, RowLowering& result, int64_t row_bound) {
    row_bound_ = std::max<int64_t>(row_bound, 1);
    blocks_.push_back(&body);
    memo_.emplace_back();
    // The row's index on each non-reduced axis of S.
    row_index_.assign(shape_.size(), nullptr);
    const std::vector<Index> row_coordinates = delinearize(row(), extents(outer_axes_), UnitAxes::FromIndex);
    for (size_t k = outer_axes_.size(); k-- > 0;)
      row_index_[outer_axes_[k]] = let("r" + std::to_string(counter_++), row_coordinates[k]);
    try {
      const std::vector<std::vector<Value>> levels = reduction_levels();
      for (size_t l = 0; l < levels.size(); ++l) {
        next_level_ = l + 1 < levels.size() ? &levels[l + 1] : nullptr;
        reduce_level(levels[l]);
      }
    } catch (const NotRowAligned&) {
      result.misaligned_reduction = true;
      return;
    }
    lower_outputs(result, finish);
  }

 private:
  bool is_outer(Value v) const { return std::find(outer_.begin(), outer_.end(), v) != outer_.end(); }
  Index row() const { return kir::variable("row", row_bound_); }

  bool is_reduced(size_t d) const {
    return std::binary_search(axes_.begin(), axes_.end(), static_cast<int64_t>(d));
  }
  Shape extents(const std::vector<size_t>& axes) const {
    Shape e;
    for (size_t d : axes) e.push_back(shape_[d]);
    return e;
  }

  // Indices of S inside a loop over the row's vectors (loop variable `vector_index`): lane 0 of the
  // vector, the lanes along the innermost reduced axis.
  AxisIndex element_index(const std::string& vector_index) {
    AxisIndex idx;
    idx.index = row_index_;
    const int64_t vectors = std::max<int64_t>(
        peeled_rows_ ? peeled_vectors(reduced_, lanes_, peel_columns_) : reduced_ / lanes_, 1);
    const Index element = peeled_rows_ ? peeled_element(vector_index, vectors, lanes_, peel_columns_)
                                       : kir::mul(kir::variable(vector_index, vectors), lanes_);
    const std::vector<Index> coordinates = delinearize(element, extents(reduced_axes_));
    for (size_t k = reduced_axes_.size(); k-- > 0;) {
      const size_t d = reduced_axes_[k];
      // The vector's axis stays an expression: a Let would hide that it is a multiple of the width.
      if (lanes_ > 1 && k + 1 == reduced_axes_.size())
        idx.index[d] = coordinates[k];
      else
        idx.index[d] =
            let(persistent_ ? "j" + std::to_string(d) : "j" + std::to_string(counter_++), coordinates[k]);
    }
    if (lanes_ > 1) idx.lane_axis = static_cast<int>(reduced_axes_.back());
    // Offsets in S laid out contiguously, folded as input loads fold theirs so that equal ones print equal.
    if (peeled_rows_)
      aligned_offsets_.insert(kir::to_string(strided_offset(idx.index, contiguous_strides(shape_))));
    return idx;
  }

  // Peeled: a vector is aligned where the tensor's offset is that of S laid out contiguously (the
  // vectors are aligned to that layout's row starts); elsewhere its vectors are unaligned
  // (kir::Expr::unaligned: narrower accesses at run time).
  // Peeled by columns: aligned where the offset is a multiple of the width (a weight along the row);
  // tensors laid out like S start each row at another alignment.
  bool vector_aligned(const Index& offset) const override {
    if (!peeled_rows_ || peel_columns_) return ExpressionEmitter::vector_aligned(offset);
    return aligned_offsets_.count(kir::to_string(offset)) > 0;
  }

  // Opens a loop over this thread's share of the row; the caller appends it to the enclosing block.
  kir::Stmt open_loop() {
    kir::Stmt loop{kir::Stmt::Kind::RowLoop};
    loop.name = persistent_ ? "k" : "k" + std::to_string(counter_++);
    return loop;
  }

  // The reductions grouped by level (a reduction's level: 1 + the highest level among the reductions
  // its operand reads, 0 when none), in id order within a level: those of one level share a loop over
  // the row, so a streamed row is read once per level, not once per reduction.
  std::vector<std::vector<Value>> reduction_levels() const {
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

  void check_row_reduction(Value v) const {
    const Node& node = fusion_.node(v);
    const Value operand = node.operands[0];
    SEAM_CHECK(fusion_.type(operand).shape == shape_ && node.attrs.get_ints("axes") == axes_, "kernel ",
               fusion_.name(), ": %", v.id, " reduces ", fusion_.type(operand).to_string(), " over ",
               shape_to_string(node.attrs.get_ints("axes")), ", another reduction ",
               Type::tensor(DType::Float32, shape_).to_string(), " over ", shape_to_string(axes_),
               "; a row kernel needs one shape and one set of axes");
  }

  kir::Var call(OpKind op, std::vector<kir::Var> args, DType dtype, bool approximate = false) {
    int lanes = 1;
    for (const kir::Var& a : args) lanes = std::max(lanes, a.lanes);
    kir::Expr e{kir::Expr::Kind::Call};
    e.op = op;
    e.args = std::move(args);
    e.approximate = approximate;
    return define(dtype, lanes, std::move(e));
  }
  kir::Var literal(DType dtype, Number value) {
    kir::Expr e{kir::Expr::Kind::Literal};
    e.literal = value;
    return define(dtype, 1, std::move(e));
  }
  // `where_minus_inf` where `m` is -inf, else `otherwise`: the online pair's guards for rows of -inf.
  kir::Var if_minus_inf(const kir::Var& m, const kir::Var& where_minus_inf, const kir::Var& otherwise) {
    const kir::Var minus_inf = literal(m.dtype, Number::of_float(-std::numeric_limits<double>::infinity()));
    kir::Expr e{kir::Expr::Kind::Select};
    e.args = {call(OpKind::Eq, {m, minus_inf}, DType::Bool), where_minus_inf, otherwise};
    return define(otherwise.dtype, otherwise.lanes, std::move(e));
  }

  // `m`, or 0 where `m` is -inf: the shift of an online sum, so that a row of -inf sums exp(-inf) = 0
  // instead of exp(-inf - -inf) = NaN.
  kir::Var finite_shift(const kir::Var& m) {
    return if_minus_inf(m, literal(m.dtype, Number::of_float(0.0)), m);
  }

  // The online sum of a row whose max is -inf: the fusion's sum of exp(-inf - -inf) is NaN, which the
  // shifted sum (finite_shift) would give as 0.
  kir::Var literal_online_sum(const kir::Var& sum, const kir::Var& row_max) {
    return if_minus_inf(row_max,
                        literal(sum.dtype, Number::of_float(std::numeric_limits<double>::quiet_NaN())), sum);
  }

  // A sum over the row of exp(y - m), m the row's max of y (softmax, log-sum-exp, cross-entropy): the
  // max reduction `max` and the sum `sum` (whose operand is that exp) of the online pair.
  struct OnlinePair {
    Value max, sum, exp;
  };
  // The sum of `later` that forms an online pair with the max reduction `max`, if any.
  std::optional<OnlinePair> online_pair(Value max, const std::vector<Value>& later) const {
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

  // One loop over the row accumulating every reduction of `level` (acc = combine over this thread's
  // elements, one accumulator per lane of the vector), then each combined over the row's threads
  // (RowReduce folds the lanes first). The sums that form online pairs with this level's maxima
  // (online_pair) are taken out of the next level: a streamed kernel accumulates them in the same loop
  // (max and sum updated together), a persistent one in a second loop over the registers from this
  // thread's max; f32 pairs then cross the row's threads in one exchange (RowReduceOnline), not two.
  void reduce_level(const std::vector<Value>& level) {
    if (std::all_of(level.begin(), level.end(), [&](Value v) { return taken_.count(v.id) > 0; })) return;
    std::vector<OnlinePair> pairs;
    if (next_level_ != nullptr)
      for (Value v : level)
        if (auto pair = online_pair(v, *next_level_)) {
          const bool f32 =
              reduction_accumulator(fusion_.type(fusion_.node(v).operands[0]).dtype) == DType::Float32;
          if (!persistent_ || f32) pairs.push_back(*pair);  // a persistent f64 row reads registers twice
        }
    std::vector<kir::Var> accs;
    std::vector<Number> identities;  // per accumulator
    std::vector<kir::Var> sums;      // per pair: the running sum (the pair's max is in accs)
    for (Value v : level) {
      if (taken_.count(v.id)) continue;
      check_row_reduction(v);
      const DType accumulator = reduction_accumulator(fusion_.type(fusion_.node(v).operands[0]).dtype);
      identities.push_back(reduction_identity(fusion_.node(v).op, accumulator));
      accs.push_back(declare(accumulator, lanes_, identities.back()));
    }
    for (const OnlinePair& p : pairs)
      sums.push_back(declare(reduction_accumulator(fusion_.type(p.max).dtype), lanes_, Number::of_int(0)));
    // A long streamed row's f32 sums: the loop accumulates a chunk into partials (same identities),
    // which are combined into the running accumulators after each chunk (chunk_vectors).
    const int64_t chunk = chunk_vectors(level, pairs);
    std::vector<kir::Var> part_accs, part_sums;
    if (chunk > 0) {
      for (size_t a = 0; a < accs.size(); ++a)
        part_accs.push_back(declare(accs[a].dtype, lanes_, identities[a]));
      for (const kir::Var& s : sums) part_sums.push_back(declare(s.dtype, s.lanes, Number::of_int(0)));
    }
    std::map<int32_t, size_t> acc_of;
    auto pair_of = [&](Value v) {
      return std::find_if(pairs.begin(), pairs.end(), [&](const OnlinePair& p) { return p.max == v; });
    };
    // A row element of `operand` as the accumulator's type; past a peeled row's edge: `identity`.
    auto element = [&](Value operand, const AxisIndex& idx, DType dtype, OpKind op) {
      kir::Var x = convert(emit(operand, idx), dtype);
      if (peeled_rows_) x = define(dtype, lanes_, row_edge(x, reduction_identity(op, dtype)));
      return x;
    };
    auto accumulate = [&](const AxisIndex& idx) {
      size_t a = 0;
      for (Value v : level) {
        if (taken_.count(v.id)) continue;
        const Node& node = fusion_.node(v);
        kir::Var& acc = chunk > 0 ? part_accs[a] : accs[a];
        acc_of[v.id] = a++;
        const kir::Var x = element(node.operands[0], idx, acc.dtype, node.op);
        auto pair = pair_of(v);
        if (pair != pairs.end() && !persistent_) {  // m' = max(m, x); s = s * exp(m - m') + exp(x - m')
          const size_t p = static_cast<size_t>(pair - pairs.begin());
          kir::Var& s = chunk > 0 ? part_sums[p] : sums[p];
          const bool approximate = approximable_[static_cast<size_t>(pair->exp.id)];
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
    };
    // After each chunk: the partials into the running accumulators (online pairs as pairs), then reset.
    auto combine_chunk = [&] {
      size_t a = 0;
      for (Value v : level) {
        if (taken_.count(v.id)) continue;
        const kir::Var &acc = accs[a], &part = part_accs[a];
        const Number reset = identities[a++];
        auto pair = pair_of(v);
        if (pair != pairs.end()) {  // m' = max(m, pm); s = s * exp(m - m') + ps * exp(pm - m')
          const size_t p = static_cast<size_t>(pair - pairs.begin());
          const bool approximate = approximable_[static_cast<size_t>(pair->exp.id)];
          const kir::Var m = call(OpKind::Maximum, {acc, part}, acc.dtype);
          const kir::Var shift = finite_shift(m);
          auto scaled = [&](const kir::Var& sum, const kir::Var& max) {
            return call(OpKind::Mul,
                        {sum, call(OpKind::Exp, {call(OpKind::Sub, {max, shift}, acc.dtype)}, acc.dtype,
                                   approximate)},
                        acc.dtype);
          };
          assign(sums[p], call(OpKind::Add, {scaled(sums[p], acc), scaled(part_sums[p], part)}, acc.dtype));
          assign(acc, m);
          assign(part_sums[p], literal(acc.dtype, Number::of_int(0)));
        } else {
          assign(acc, call(reduction_combine(fusion_.node(v).op), {acc, part}, acc.dtype));
        }
        assign(part, literal(part.dtype, reset));
      }
    };
    if (chunk > 0)
      in_chunked_row_loop(chunk, accumulate, combine_chunk);
    else
      in_row_loop(accumulate);
    if (persistent_ && !pairs.empty()) {  // s = sum of exp(x - m) over this thread's registers
      in_row_loop([&](const AxisIndex& idx) {
        for (size_t p = 0; p < pairs.size(); ++p) {
          const kir::Var& m = accs[acc_of.at(pairs[p].max.id)];
          const kir::Var x = element(fusion_.node(pairs[p].max).operands[0], idx, m.dtype, OpKind::Max);
          const bool approximate = approximable_[static_cast<size_t>(pairs[p].exp.id)];
          const kir::Var e =
              call(OpKind::Exp, {call(OpKind::Sub, {x, finite_shift(m)}, m.dtype)}, m.dtype, approximate);
          assign(sums[p], call(OpKind::Add, {sums[p], e}, m.dtype));
        }
      });
    }
    for (Value v : level) {
      if (taken_.count(v.id)) continue;
      auto pair = pair_of(v);
      if (pair != pairs.end() && accs[acc_of.at(v.id)].dtype == DType::Float32) {
        const size_t p = static_cast<size_t>(pair - pairs.begin());
        const auto [row_max, row_sum] = row_reduce_online(accs[acc_of.at(v.id)], sums[p],
                                                          approximable_[static_cast<size_t>(pair->exp.id)]);
        reduction_value_[v.id] = convert(row_max, fusion_.node(v).type.dtype);
        reduction_value_[pair->sum.id] =
            convert(literal_online_sum(row_sum, row_max), fusion_.type(pair->sum).dtype);
        continue;
      }
      const kir::Var combined = row_reduce(fusion_.node(v).op, accs[acc_of.at(v.id)]);
      reduction_value_[v.id] = convert(combined, fusion_.node(v).type.dtype);
    }
    for (size_t p = 0; p < pairs.size(); ++p) {
      if (reduction_value_.count(pairs[p].sum.id) == 0) {  // f64: s * exp(m - row max) over the row
        const kir::Var row_max = reduction_value_.at(pairs[p].max.id);
        const kir::Var& m = accs[acc_of.at(pairs[p].max.id)];
        const bool approximate = approximable_[static_cast<size_t>(pairs[p].exp.id)];
        const kir::Var shift = finite_shift(convert(row_max, m.dtype));
        const kir::Var scaled =
            call(OpKind::Mul,
                 {sums[p], call(OpKind::Exp, {call(OpKind::Sub, {m, shift}, m.dtype)}, m.dtype, approximate)},
                 m.dtype);
        const kir::Var row_sum = row_reduce(OpKind::Sum, scaled);
        reduction_value_[pairs[p].sum.id] =
            convert(literal_online_sum(row_sum, convert(row_max, m.dtype)), fusion_.type(pairs[p].sum).dtype);
      }
      taken_.insert(pairs[p].sum.id);
    }
  }

  // A loop over this thread's share of the row, its body written by `body` from the element index.
  template <typename F>
  void in_row_loop(F body) {
    kir::Stmt loop = open_loop();
    blocks_.push_back(&loop.then_block);
    memo_.emplace_back();
    body(element_index(loop.name));
    memo_.pop_back();
    blocks_.pop_back();
    block().push_back(std::move(loop));
  }

  // A loop over this thread's share of the row in chunks of `chunk` vectors: `body` as in in_row_loop,
  // `after_chunk` run after each chunk (kir::Stmt::RowLoop).
  template <typename F, typename G>
  void in_chunked_row_loop(int64_t chunk, F body, G after_chunk) {
    kir::Stmt loop = open_loop();
    loop.chunk = chunk;
    blocks_.push_back(&loop.then_block);
    memo_.emplace_back();
    body(element_index(loop.name));
    memo_.pop_back();
    blocks_.pop_back();
    blocks_.push_back(&loop.else_block);
    memo_.emplace_back();
    after_chunk();
    memo_.pop_back();
    blocks_.pop_back();
    block().push_back(std::move(loop));
  }

  // The vectors of a chunk when a streamed row's loop must be chunked, else 0. A thread's f32 sum adds
  // its terms one after another; past 2^24 equal terms it stops growing, and its error grows with their
  // number. On the host one thread takes the whole row (the GPU's threads a share of it): a row of more
  // than kUnchunkedVectors vectors is summed in chunks of about sqrt(vectors) (a power of two), so that
  // neither a chunk's partial sums nor the running sums they are added to take more than about
  // sqrt(vectors) <= 2^20 terms in sequence, as in pairwise summation's first levels. Max and min are
  // exact in any order; f64 sums keep one loop.
  int64_t chunk_vectors(const std::vector<Value>& level, const std::vector<OnlinePair>& pairs) const {
    if (persistent_) return 0;  // a thread's registers: a few dozen vectors
    const int64_t vectors = std::max<int64_t>(
        peeled_rows_ ? peeled_vectors(reduced_, lanes_, peel_columns_) : reduced_ / lanes_, 1);
    if (vectors <= kUnchunkedVectors) return 0;
    bool f32_sum = false;
    for (Value v : level)
      if (!taken_.count(v.id) && fusion_.node(v).op == OpKind::Sum &&
          reduction_accumulator(fusion_.type(fusion_.node(v).operands[0]).dtype) == DType::Float32)
        f32_sum = true;
    for (const OnlinePair& p : pairs)
      if (reduction_accumulator(fusion_.type(p.max).dtype) == DType::Float32) f32_sum = true;
    if (!f32_sum) return 0;
    int64_t chunk = kUnchunkedVectors;
    while (chunk * chunk < vectors) chunk *= 2;
    return chunk;
  }
  static constexpr int64_t kUnchunkedVectors = 4096;

  // The row's online pair (max, sum) from this thread's (RowReduceOnline).
  std::pair<kir::Var, kir::Var> row_reduce_online(const kir::Var& max, const kir::Var& sum,
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

  kir::Var row_reduce(OpKind op, const kir::Var& source) {
    kir::Stmt across{kir::Stmt::Kind::RowReduce};
    across.var = fresh(source.dtype, 1);
    across.source = source;
    across.expr.op = op;
    kir::Var combined = across.var;
    block().push_back(std::move(across));
    return combined;
  }

  // The row's value of a reduction, when `idx` is this row's index in the reduction's output.
  kir::Var emit_reduction(Value v, const Node& node, const AxisIndex& idx) override {
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
      // An axis of extent 1 is read at 0 through a broadcast; every row's index there is 0 too (the
      // row index is not folded to 0, so that one row and many print one text).
      const bool unit_axis = !is_reduced(d) && shape_[d] == 1 && kir::constant_value(idx.index[o]) == 0;
      if (!unit_axis && kir::to_string(idx.index[o]) != kir::to_string(expected))
        throw NotRowAligned{"reduction %" + std::to_string(v.id) + " is read at another row"};
      ++o;
    }
    return it->second;
  }

  // Indices of a tensor whose extent-1-free shape equals that of `axes` of S: its other axes at 0. The
  // lanes advance along the axis that S's `lane_axis` maps to (-1: none).
  static AxisIndex map_axes(const Shape& shape, const Shape& source_shape, const std::vector<size_t>& axes,
                            const std::vector<Index>& index, int lane_axis = -1) {
    AxisIndex idx;
    // A tensor of exactly those axes of S takes their indices, unit axes included: a single row's index
    // stays `row`, so that one row and many print one text.
    bool same_axes = shape.size() == axes.size();
    for (size_t d = 0; same_axes && d < shape.size(); ++d) same_axes = shape[d] == source_shape[axes[d]];
    if (same_axes) {
      for (size_t d = 0; d < shape.size(); ++d) {
        if (static_cast<int>(axes[d]) == lane_axis) idx.lane_axis = static_cast<int>(d);
        idx.index.push_back(index[axes[d]]);
      }
      return idx;
    }
    size_t next = 0;
    for (int64_t extent : shape) {
      while (next < axes.size() && source_shape[axes[next]] == 1) ++next;
      if (extent == 1) {
        idx.index.push_back(kir::constant(0));
        continue;
      }
      SEAM_ASSERT(next < axes.size() && source_shape[axes[next]] == extent);
      if (static_cast<int>(axes[next]) == lane_axis) idx.lane_axis = static_cast<int>(idx.index.size());
      idx.index.push_back(index[axes[next++]]);
    }
    return idx;
  }

  void lower_outputs(RowLowering& result, kir::Block& finish) {
    const RowShape rs{shape_, axes_, rows_, reduced_, false};
    std::vector<int> per_row, per_element, per_column;
    for (size_t o = 0; o < fusion_.outputs().size(); ++o) {
      switch (classify_row_output(fusion_, rs, o)) {
        case RowOutput::Empty: break;  // nothing to write
        case RowOutput::PerRow: per_row.push_back(static_cast<int>(o)); break;
        case RowOutput::PerElement: per_element.push_back(static_cast<int>(o)); break;
        case RowOutput::Outer: per_column.push_back(static_cast<int>(o)); break;
        case RowOutput::Deferred: result.deferred.push_back(static_cast<int>(o)); break;
        case RowOutput::Chunked: chunked_.push_back(static_cast<int>(o)); break;
      }
    }
    std::vector<size_t> all_axes(shape_.size());
    for (size_t d = 0; d < shape_.size(); ++d) all_axes[d] = d;
    if (!per_row.empty()) {
      kir::Stmt guard{kir::Stmt::Kind::If};
      guard.bounds = {kir::Bound{row(), std::nullopt, rows_}};
      blocks_.push_back(&guard.then_block);
      memo_.emplace_back();
      for (int o : per_row) {
        const Type& t = fusion_.type(fusion_.outputs()[static_cast<size_t>(o)].value);
        write(o, map_axes(t.shape, shape_, outer_axes_, row_index_), row(), result);
      }
      memo_.pop_back();
      blocks_.pop_back();
      if (!guard.then_block.empty()) block().push_back(std::move(guard));
    }
    if (!per_element.empty() || !outer_.empty()) {
      kir::Stmt loop = open_loop();
      blocks_.push_back(&loop.then_block);
      memo_.emplace_back();
      const AxisIndex element = element_index(loop.name);
      for (int o : per_element) {
        const Type& t = fusion_.type(fusion_.outputs()[static_cast<size_t>(o)].value);
        AxisIndex idx = map_axes(t.shape, shape_, all_axes, element.index, element.lane_axis);
        if (element.lane_axis >= 0 && idx.lane_axis < 0)
          throw NotVectorizable{"output " + std::to_string(o) + " has no axis along the vector"};
        write(o, idx, linearize(idx.index, t.shape), result);
      }
      accumulate_outer(element, loop.name);
      memo_.pop_back();
      blocks_.pop_back();
      bool stores = std::any_of(loop.then_block.begin(), loop.then_block.end(), [](const kir::Stmt& s) {
        return s.kind == kir::Stmt::Kind::Store || s.kind == kir::Stmt::Kind::OuterAccumulate;
      });
      if (stores) block().push_back(std::move(loop));
    }
    if (!per_column.empty()) lower_finish(finish, per_column, result);
    std::sort(result.deferred.begin(), result.deferred.end());
  }

  // In the loop over the row's elements: each outer reduction's operand there, added to its accumulator
  // (f32, a lane per element of the vector).
  void accumulate_outer(const AxisIndex& element, const std::string& loop) {
    for (size_t j = 0; j < outer_.size(); ++j) {
      kir::Var x = convert(emit(fusion_.node(outer_[j]).operands[0], element), DType::Float32);
      if (x.lanes < lanes_) x = widen(x, lanes_);
      kir::Stmt add{kir::Stmt::Kind::OuterAccumulate};
      add.name = loop;
      add.var = kir::Var{accumulator_name(j), DType::Float32, lanes_};
      add.source = x;
      add.expr.op = OpKind::Sum;
      block().push_back(std::move(add));
    }
  }

  // The outputs that read outer reductions, per column `seam_col` (a row's linear element index: the
  // outputs have the shape of S's reduced axes) in `finish`, which the last block runs with the totals.
  void lower_finish(kir::Block& finish, const std::vector<int>& outputs, RowLowering& result) {
    const std::vector<kir::Block*> blocks = blocks_;
    const std::vector<std::map<std::string, kir::Var>> memo = memo_;
    blocks_ = {&finish};
    memo_.assign(1, {});
    finishing_ = true;
    const Index column = kir::variable("seam_col", std::max<int64_t>(reduced_, 1));
    std::vector<Index> index(shape_.size(), kir::constant(0));
    const std::vector<Index> coordinates = delinearize(column, extents(reduced_axes_));
    for (size_t k = reduced_axes_.size(); k-- > 0;)
      index[reduced_axes_[k]] = let("c" + std::to_string(counter_++), coordinates[k]);
    for (int o : outputs) {
      const Type& t = fusion_.type(fusion_.outputs()[static_cast<size_t>(o)].value);
      write(o, map_axes(t.shape, shape_, reduced_axes_, index), column, result);
    }
    finishing_ = false;
    blocks_ = blocks;
    memo_ = memo;
  }

  // Stores output `o` at `offset`, or defers it (emitting nothing) when it reads a reduction at another row.
  void write(int o, const AxisIndex& idx, const Index& offset, RowLowering& result) {
    const FusionOutput& out = fusion_.outputs()[static_cast<size_t>(o)];
    const size_t mark = block().size(), depth = blocks_.size(), scopes = memo_.size();
    const auto memo = memo_.back();
    try {
      kir::Var value = convert(emit(out.value, idx), fusion_.type(out.value).dtype);
      if (idx.lane_axis >= 0) value = widen(value, lanes_);  // a value the same on every lane
      kir::Stmt store{kir::Stmt::Kind::Store};
      store.param = static_cast<int>(fusion_.inputs().size()) + o;
      store.index = offset;
      store.source = value;
      // Peeled: outputs are contiguous in S's shape, so aligned like S (by columns: as their rows'
      // addresses allow); the lanes outside the row stay.
      store.row_edge = peeled_rows_ && value.lanes > 1;
      store.unaligned = store.row_edge && peel_columns_ && !vector_aligned(offset);
      block().push_back(std::move(store));
    } catch (const NotRowAligned&) {
      blocks_.resize(depth);
      memo_.resize(scopes);
      memo_.back() = memo;
      block().erase(block().begin() + static_cast<std::ptrdiff_t>(mark), block().end());
      result.deferred.push_back(o);
    }
  }

  const Shape shape_;
  const std::vector<int64_t> axes_;
  const bool persistent_;
  const std::vector<Value> outer_;
  bool finishing_ = false;                          // emitting `finish`: outer reductions read their totals
  const std::vector<Value>* next_level_ = nullptr;  // while lowering a level: the next (online pairs)
  std::set<int32_t> taken_;                         // sums computed with their online pair's max
  std::vector<size_t> outer_axes_, reduced_axes_;
  int64_t rows_ = 1;
  int64_t reduced_ = 1;    // elements of a row: the bound of a row loop's variable
  int64_t row_bound_ = 1;  // see lower()
  std::vector<Index> row_index_;
  std::map<int32_t, kir::Var> reduction_value_;
  std::vector<int> chunked_;
  bool peel_columns_ = false;
  std::set<std::string> aligned_offsets_;  // peeled: S's contiguous offsets of the loops' vectors
};

void renumber_stores(kir::Block& block, const std::vector<int>& param) {
  for (kir::Stmt& s : block) {
    if (s.kind == kir::Stmt::Kind::Store) s.param = param.at(static_cast<size_t>(s.param));
    renumber_stores(s.then_block, param);
    renumber_stores(s.else_block, param);
  }
}

// Lowers outputs `chunked` of `fusion` as in a pointwise kernel and adds them to `kernel` as chunk programs.
void add_chunk_programs(const Fusion& fusion, const std::vector<int>& chunked,
                        const RowLoweringOptions& options, kir::Kernel& kernel) {
  std::vector<Value> values;
  for (int o : chunked) values.push_back(fusion.outputs()[static_cast<size_t>(o)].value);
  LoweringOptions lowering;
  static_cast<LaunchParams&>(lowering) = options;
  lowering.kernel_name = options.kernel_name;
  kir::Kernel part = lower_pointwise(fusion_with_outputs(fusion, values), lowering, options.chunk_schedules);
  // Parameters: the same inputs; output j of the part is output chunked[j] of the kernel.
  const int inputs = static_cast<int>(fusion.inputs().size());
  std::vector<int> param(part.params.size());
  for (size_t p = 0; p < param.size(); ++p)
    param[p] = static_cast<int>(p) < inputs ? static_cast<int>(p)
                                            : inputs + chunked[p - static_cast<size_t>(inputs)];
  for (kir::OutputProgram& program : part.outputs) {
    program.param = param.at(static_cast<size_t>(program.param));
    renumber_stores(program.body, param);
    kernel.outputs.push_back(std::move(program));
  }
  kernel.index64 = kernel.index64 || part.index64;
}

}  // namespace

RowLowering lower_rows(const Fusion& fusion, const RowLoweringOptions& options) {
  const RowShape rs = row_shape(fusion);
  const Shape& shape = rs.shape;
  const std::vector<int64_t>& axes = rs.axes;

  RowLowering result;
  kir::Kernel& kernel = result.kernel;
  kernel.name = options.kernel_name;
  const std::vector<int> input_param = declare_kernel_params(fusion, kernel, product(shape));

  int counter = 0;
  const RowLayout& layout = options.layout;
  SEAM_ASSERT(
      layout.vector >= 1 &&
          (layout.peel ? layout.vector > 1 && peelable_rows(rs)
                       : rs.reduced % layout.vector == 0 &&
                             (layout.vector == 1 || (rs.inner_reduced && shape.back() % layout.vector == 0))),
      "kernel ", options.kernel_name, ": vectors of ", layout.vector, " elements along rows of ", rs.reduced,
      layout.peel ? " (peeled)" : "");
  const bool persistent = layout.iterations > 0;
  const std::vector<Value> outer = outer_reductions(fusion, rs);
  SEAM_ASSERT(outer.empty() || ((!layout.peel || layout.peel_columns) && layout.cluster == 1), "kernel ",
              options.kernel_name, ": outer reductions in a row layout peeled by shifts or clustered");
  RowEmitter emitter(fusion, kernel, input_param, counter, shape, axes, layout.vector, persistent,
                     layout.peel, layout.peel_columns, outer);
  kir::RowLaunch launch;
  launch.rows = emitter.rows();
  launch.reduced = rs.reduced;
  launch.vector = layout.vector;
  launch.peel = layout.peel;
  launch.peel_columns = layout.peel && layout.peel_columns;
  launch.cluster = layout.cluster;
  SEAM_ASSERT(
      layout.cluster >= 1 && layout.cluster <= 16 && (layout.cluster == 1 || layout.rows_per_block == 1),
      "kernel ", options.kernel_name, ": a cluster of ", layout.cluster, " blocks for ",
      layout.rows_per_block, " rows per block");
  launch.iterations = layout.iterations;
  const int block = layout.rows_per_block * layout.threads_per_row;
  SEAM_ASSERT(block >= 32 && block <= 1024 && (block & (block - 1)) == 0, "kernel ", options.kernel_name,
              ": a row layout of ", layout.rows_per_block, " x ", layout.threads_per_row, " threads");
  launch.threads_per_row = layout.threads_per_row;
  launch.rows_per_block = layout.rows_per_block;
  launch.lanes_contiguous = layout.lanes_contiguous;
  // What `row` stays below, for the index algebra: the index width's range, not the rows (rounded up to
  // a whole block), so that no fold depends on the row count and every count of a class prints one text.
  const int64_t row_bound = kernel.index64 ? kir::kLargestKnownBound : int64_t{1} << 31;
  if (!outer.empty()) {
    // Each block's partials are one workspace row (its rows combined in order); streamed accumulators
    // live in that row, so a streamed block holds one row.
    SEAM_ASSERT(layout.partial_blocks >= 1 && (persistent || layout.rows_per_block == 1), "kernel ",
                options.kernel_name, ": outer reductions over ", layout.partial_blocks, " blocks of ",
                layout.rows_per_block, " rows");
    for (size_t j = 0; j < outer.size(); ++j)
      launch.outer.push_back({"seam_outer" + std::to_string(j), "seam_outer_total" + std::to_string(j)});
    launch.partial_blocks = layout.partial_blocks;
    launch.min_blocks_per_sm = layout.min_blocks_per_sm;
  }
  emitter.lower(launch.body, launch.finish, result, row_bound);
  if (persistent) {
    SEAM_ASSERT(
        static_cast<int64_t>(layout.iterations) * layout.threads_per_row * layout.cluster >= launch.vectors(),
        "kernel ", options.kernel_name, ": ", layout.iterations, " iterations of ", layout.threads_per_row,
        " threads x ", layout.cluster, " blocks do not cover ", launch.vectors(), " vectors");
    cache_row_loads(launch);
    // The plan's stages, where every fill can be staged and they fit the shared memory a block may have.
    launch.prefetch_stages = layout.prefetch_stages;
    if (launch.partial_blocks == 0 || !row_prefetchable(launch) ||
        kir::dynamic_shared_bytes(launch) + kir::row_scratch_bytes(block) > options.shared_bytes_per_block)
      launch.prefetch_stages = 0;
    launch.load_ahead = layout.load_ahead && launch.partial_blocks > 0 && launch.prefetch_stages == 0 &&
                        row_prefetchable(launch, false);
  }
  hoist_row_divisors(launch);
  if (!result.misaligned_reduction && !emitter.chunked().empty())
    add_chunk_programs(fusion, emitter.chunked(), options, kernel);
  kernel.rows = std::move(launch);
  return result;
}

}  // namespace seam
