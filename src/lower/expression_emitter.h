// The expression walk shared by the pointwise and row (reduction) lowerings: emits the kernel IR that
// computes one value of a fusion at given axis indices, carrying one index expression per axis from
// the value back through movement ops to the loads of its inputs (docs/CODEGEN.md, "Lowering").
// Values already emitted for the same indices are reused within a block scope.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ir/fusion.h"
#include "lower/approximate_math.h"
#include "lower/kernel_ir.h"
#include "schedule/pointwise_scheduler.h"

namespace seam {

// Thrown while emitting an output at some vector width when a movement op or load breaks the proof
// that lanes stay contiguous and aligned; the output is then lowered at a narrower width.
struct NotVectorizable {
  std::string reason;
};

// The index of each axis of a tensor for lane 0 of a chunk, and which axis the lanes advance along
// (-1: every lane reads the same element).
struct AxisIndex {
  std::vector<kir::Index> index;
  int lane_axis = -1;
};

// Emits statements into the innermost open block (`blocks_`); subclasses open blocks and scopes and
// decide what a reduction means (a pointwise kernel cannot contain one).
class ExpressionEmitter {
 public:
  ExpressionEmitter(const Fusion& fusion, kir::Kernel& kernel, const std::vector<int>& input_param, int lanes,
                    int& counter)
      : fusion_(fusion),
        kernel_(kernel),
        input_param_(input_param),
        lanes_(lanes),
        counter_(counter),
        approximable_(approximable_values(fusion)) {}
  virtual ~ExpressionEmitter() = default;
  // Inlined reductions: 0 writes every term out; n >= 1 writes the first term, then a Loop over the others
  // that the compiler unrolls n times (LoweringOptions::reduction_loop_unroll).
  void set_reduction_loop_unroll(int n) { reduction_loop_unroll_ = n; }
  // The largest reduction inlined (ScheduleLimits::max_inlined_reduction, which the segmenter used).
  void set_max_inlined_reduction(int64_t n) { max_inlined_reduction_ = n; }
  void set_unaligned_loads(bool on) { unaligned_loads_ = on; }

 protected:
  kir::Block& block();
  kir::Index let(const std::string& name, kir::Index value);
  kir::Var fresh(DType dtype, int lanes);
  kir::Var define(DType dtype, int lanes, kir::Expr expr);
  kir::Var declare(DType dtype, int lanes, Number init);
  void assign(const kir::Var& target, const kir::Var& source);
  kir::Var convert(const kir::Var& v, DType dtype);
  static std::string key(Value v, const AxisIndex& idx);
  // The value `v` at the indices `idx` (lanes_ lanes along idx.lane_axis), memoized per scope.
  kir::Var emit(Value v, const AxisIndex& idx);
  // Emits `then` under the bounds, assigning into a variable initialized with `otherwise`.
  template <typename F>
  kir::Var conditional(DType dtype, int lanes, Number otherwise, std::vector<kir::Bound> bounds, F then);
  kir::Var emit_uncached(Value v, const AxisIndex& idx);
  kir::Var emit_leaf(Value v, const Node& node, const AxisIndex& idx);
  kir::Var emit_pointwise(Value v, const Node& node, const AxisIndex& idx);
  kir::Var emit_movement(const Node& node, const AxisIndex& idx);
  kir::Var emit_random(const Node& node, const AxisIndex& idx);
  kir::Var widen(kir::Var v, int lanes);
  kir::Var emit_cat(const Node& node, const AxisIndex& idx);
  kir::Var emit_reshape(Value x, const Shape& in, const Shape& out, const AxisIndex& idx);
  // An indexing op (ir/indexing.h): the index operand read like a pointwise operand, checked and wrapped
  // (kir::Expr::Kind::CheckedIndex), then the data operand read at that position along the axis. Lanes
  // may advance along any other axis (an embedding row); along the indexed axis the index must be uniform.
  kir::Var emit_indexing(Value v, const Node& node, const AxisIndex& idx);
  std::optional<kir::Index> iota_position(const Node& node, const AxisIndex& at_index) const;
  // A reduction read at `idx`. Here: inlined, unrolled over its reduced elements (small reductions only;
  // row kernels override this with their block-wide reductions).
  virtual kir::Var emit_reduction(Value v, const Node& node, const AxisIndex& idx);
  // Whether lanes_ lanes at `offset` (consecutive along the lane axis) start on a multiple of the width;
  // a peeled row kernel decides it from the row's shift instead (lower/row_peel.h).
  virtual bool vector_aligned(const kir::Index& offset) const { return kir::multiple_of(offset, lanes_); }
  // A peeled row kernel's loops (kir::RowLaunch::peel): an unaligned contiguous load is marked so
  // (kir::Expr::unaligned: read in narrower accesses) rather than narrowing the vector, and every vector
  // load masks the lanes outside the row.
  bool peeled_rows_ = false;
  // A pointwise kernel's chunks (LaunchParams::unaligned_loads): a contiguous load at an offset that is not
  // a multiple of the width is marked unaligned too, instead of narrowing every access of the output. An
  // odd row width (GPT-2's 50257 logits) keeps its 8-lane chunks: 8 loads in flight per thread where one
  // element per thread left three quarters of the memory bandwidth unused.
  bool unaligned_loads_ = false;
  // With unaligned_loads_, a pad whose boundary falls inside a vector (the padded rows of GPT-2's logits
  // gradient, 50257 -> 50304): the interior piece's vector loads read only the lanes this mask (a LaneMask
  // value) sets, and a per-lane select takes the pad value on the others. One such pad at a time.
  std::optional<kir::Var> lane_window_;
  // A pad: its interior guarded (branch-free: a piece and a select; else a branch), or masked (below).
  kir::Var emit_pad(const Node& node, const AxisIndex& idx);
  kir::Var pad_value(const Node& pad);  // the pad's fill, one lane
  // A pad's interior on the vector axis, boundary inside a vector: the piece under a mask (above).
  kir::Var emit_masked_pad(Value x, const Node& node, const AxisIndex& next, std::vector<kir::Bound> bounds,
                           size_t lane_bound);
  int reduction_loop_unroll_ = 0;
  int64_t max_inlined_reduction_ = ScheduleLimits{}.max_inlined_reduction;

  // Branch-free pieces: pad interiors and cat pieces are computed by every thread and combined with
  // selects, their loads guarded (kir::Guard) instead of placed in branches, so that a warp whose lanes
  // straddle a boundary neither diverges nor serializes its loads (docs/CODEGEN.md, "Lowering": branchy
  // partner loads cost RoPE 5-12 points of the byte floor). Off: pieces in if/else blocks.
  kir::Var emit_piece(Value v, const AxisIndex& idx, kir::Guard guard);
  kir::Var select(kir::Var cond, kir::Var a, kir::Var b, DType dtype);
  kir::Var in_bounds(std::vector<kir::Bound> bounds);
  bool branch_free_ = false;
  std::vector<kir::Guard> guards_;  // the regions the value being emitted sits in, outermost first

  const Fusion& fusion_;
  kir::Kernel& kernel_;
  const std::vector<int>& input_param_;
  const int lanes_;
  int& counter_;
  std::vector<kir::Block*> blocks_;
  std::vector<std::map<std::string, kir::Var>> memo_;
  const std::vector<bool> approximable_;  // lower/approximate_math.h
};

}  // namespace seam
