// The emitter of a row kernel's body (lower/lower_rows.h), private to the row lowering. One class, as its
// parts share the open blocks, the value memo and the row's indices, defined by concept in four files:
// - row_index_space.cpp: the rows and each row's elements as indices of S, the loops over a row;
// - row_reductions.cpp: the row reductions, level by level, with online softmax pairs and chunked sums;
// - row_outputs.cpp: the outputs written per row, per element and per column after outer reductions;
// - lower_rows.cpp: the driver (RowEmitter::lower) and the kernel's launch.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ir/fusion.h"
#include "lower/expression_emitter.h"
#include "lower/kernel_ir.h"

namespace seam {

// Thrown when a value reads a reduction at an index that is not the current row: a row kernel holds only
// its own row's reduction values.
struct NotRowAligned {
  std::string reason;
};

class RowEmitter : public ExpressionEmitter {
 public:
  // `vector`, `persistent`: the layout's (RowLayout). Persistent loops all use one loop variable and
  // name their element indices after the axis, so that a load reads the same text in every pass over
  // the row (lower/row_cache.h matches them).
  // `peel`: RowLayout::peel (lower/row_peel.h). `outer`: the kernel's outer reductions
  // (lower/outer_reductions.h).
  RowEmitter(const Fusion& fusion, kir::Kernel& kernel, const std::vector<int>& input_param, int& counter,
             Shape shape, std::vector<int64_t> axes, int vector, bool persistent, bool peel,
             bool peel_columns, std::vector<Value> outer);

  int64_t rows() const { return rows_; }
  // Outputs of other shapes that read no reduction: for chunk programs.
  const std::vector<int>& chunked() const { return chunked_; }

  // Names of outer reduction j's accumulator and total (kir::OuterReduction).
  static std::string accumulator_name(size_t j) { return "seam_outer" + std::to_string(j); }
  static std::string total_name(size_t j) { return "seam_outer_total" + std::to_string(j); }

  // Emits the body into `body` (lower_rows.cpp). `row_bound`: what `row` stays below (on the GPU the last
  // block's spare slots run past the rows). `finish`: receives what the last block computes per column
  // after the outer reductions.
  void lower(kir::Block& body, kir::Block& finish, int64_t row_bound);
  // After lower(): the outputs it does not write, in order, and whether a reduction reads another at
  // another row (RowLowering::deferred, RowLowering::misaligned_reduction).
  const std::vector<int>& deferred() const { return deferred_; }
  bool misaligned_reduction() const { return misaligned_reduction_; }

 private:
  // The index space (row_index_space.cpp).
  bool is_outer(Value v) const { return std::find(outer_.begin(), outer_.end(), v) != outer_.end(); }
  kir::Index row() const { return kir::variable("row", row_bound_); }
  bool is_reduced(size_t d) const;
  Shape extents(const std::vector<size_t>& axes) const;  // S's extents of `axes`
  // Lets the row's index on each non-reduced axis of S (row_index_).
  void index_rows();
  // Indices of S inside a loop over the row's vectors (loop variable `vector_index`): lane 0 of the
  // vector, the lanes along the innermost reduced axis.
  AxisIndex element_index(const std::string& vector_index);
  bool vector_aligned(const kir::Index& offset) const override;
  // Opens a loop over this thread's share of the row; the caller appends it to the enclosing block.
  kir::Stmt open_loop();
  // A loop over this thread's share of the row, its body written by `body` from the element index.
  void in_row_loop(const std::function<void(const AxisIndex&)>& body);
  // A loop over this thread's share of the row in chunks of `chunk` vectors: `body` as in in_row_loop,
  // `after_chunk` run after each chunk (kir::Stmt::RowLoop).
  void in_chunked_row_loop(int64_t chunk, const std::function<void(const AxisIndex&)>& body,
                           const std::function<void()>& after_chunk);
  // The vectors of a row loop.
  int64_t row_vectors() const;
  // Indices of a tensor whose extent-1-free shape equals that of `axes` of S: its other axes at 0. The
  // lanes advance along the axis that S's `lane_axis` maps to (-1: none).
  static AxisIndex map_axes(const Shape& shape, const Shape& source_shape, const std::vector<size_t>& axes,
                            const std::vector<kir::Index>& index, int lane_axis = -1);

  // The reductions (row_reductions.cpp).
  // A sum over the row of exp(y - m), m the row's max of y (softmax, log-sum-exp, cross-entropy): the
  // max reduction `max` and the sum `sum` (whose operand is that exp) of the online pair.
  struct OnlinePair {
    Value max, sum, exp;
  };
  // The accumulators of one level (reduce_level): one per reduction not computed yet, a running sum per
  // online pair (the pair's max is among the accumulators), and with chunks their partials.
  struct LevelAccumulators {
    std::vector<Value> reductions;  // the level's reductions not computed with an earlier level
    std::vector<OnlinePair> pairs;
    std::vector<kir::Var> accs, sums;
    std::vector<Number> identities;  // per accumulator
    int64_t chunk = 0;               // chunk_vectors
    std::vector<kir::Var> part_accs, part_sums;
    size_t acc_of(Value v) const;  // the accumulator of reduction `v`
    // The pair whose max is `v`, or nullptr.
    const OnlinePair* pair_of(Value v) const;
    size_t pair_index(const OnlinePair* pair) const { return static_cast<size_t>(pair - pairs.data()); }
  };
  std::vector<std::vector<Value>> reduction_levels() const;
  void check_row_reduction(Value v) const;
  std::optional<OnlinePair> online_pair(Value max, const std::vector<Value>& later) const;
  void reduce_level(const std::vector<Value>& level);
  LevelAccumulators declare_accumulators(const std::vector<Value>& level);
  kir::Var row_element(Value operand, const AxisIndex& idx, DType dtype, OpKind op);
  void accumulate(LevelAccumulators& level, const AxisIndex& idx);
  void combine_chunk(LevelAccumulators& level);
  void sum_pairs_in_registers(const LevelAccumulators& level);
  void combine_across_threads(const LevelAccumulators& level);
  int64_t chunk_vectors(const std::vector<Value>& level, const std::vector<OnlinePair>& pairs) const;
  static constexpr int64_t kUnchunkedVectors = 4096;
  std::pair<kir::Var, kir::Var> row_reduce_online(const kir::Var& max, const kir::Var& sum, bool approximate);
  kir::Var row_reduce(OpKind op, const kir::Var& source);
  kir::Var emit_reduction(Value v, const Node& node, const AxisIndex& idx) override;
  // Statements of the online pairs' arithmetic.
  kir::Var call(OpKind op, std::vector<kir::Var> args, DType dtype, bool approximate = false);
  kir::Var literal(DType dtype, Number value);
  kir::Var if_minus_inf(const kir::Var& m, const kir::Var& where_minus_inf, const kir::Var& otherwise);
  kir::Var finite_shift(const kir::Var& m);
  kir::Var literal_online_sum(const kir::Var& sum, const kir::Var& row_max);
  bool approximate_exp(const OnlinePair& pair) const {
    return approximable_[static_cast<size_t>(pair.exp.id)];
  }

  // The outputs (row_outputs.cpp).
  void lower_outputs(kir::Block& finish);
  void accumulate_outer(const AxisIndex& element, const std::string& loop);
  // The outputs that read outer reductions, per column `seam_col` (a row's linear element index: the
  // outputs have the shape of S's reduced axes) in `finish`, which the last block runs with the totals.
  void lower_finish(kir::Block& finish, const std::vector<int>& outputs);
  // Stores output `o` at `offset`, or defers it (emitting nothing) when it reads a reduction at another row.
  void write(int o, const AxisIndex& idx, const kir::Index& offset);

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
  std::vector<kir::Index> row_index_;
  std::map<int32_t, kir::Var> reduction_value_;
  std::vector<int> chunked_;
  std::vector<int> deferred_;
  bool misaligned_reduction_ = false;
  bool peel_columns_ = false;
  std::set<std::string> aligned_offsets_;  // peeled: S's contiguous offsets of the loops' vectors
};

}  // namespace seam
