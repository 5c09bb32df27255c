#include "lower/expression_emitter.h"

#include <algorithm>

#include "ir/indexing.h"
#include "ir/infer.h"
#include "lower/index_space.h"
#include "lower/reduction_math.h"
#include "schedule/pointwise_scheduler.h"
#include "support/error.h"

namespace seam {

using kir::Index;

kir::Block& ExpressionEmitter::block() { return *blocks_.back(); }

Index ExpressionEmitter::let(const std::string& name, Index value) {
  if (kir::constant_value(value) || value->op == kir::IndexNode::Op::Var) return value;
  kir::Stmt s{kir::Stmt::Kind::Let};
  s.name = name;
  s.index = value;
  const std::optional<int64_t> bound = value->bound;
  block().push_back(std::move(s));
  return kir::variable(name, bound);  // the value's range, for the bounds of what is built from it
}

kir::Var ExpressionEmitter::fresh(DType dtype, int lanes) {
  return kir::Var{"v" + std::to_string(counter_++), dtype, lanes};
}

kir::Var ExpressionEmitter::define(DType dtype, int lanes, kir::Expr expr) {
  kir::Stmt s{kir::Stmt::Kind::Define};
  s.var = fresh(dtype, lanes);
  s.expr = std::move(expr);
  kir::Var v = s.var;
  block().push_back(std::move(s));
  return v;
}

kir::Var ExpressionEmitter::declare(DType dtype, int lanes, Number init) {
  kir::Stmt s{kir::Stmt::Kind::Declare};
  s.var = fresh(dtype, lanes);
  s.literal = init;
  kir::Var v = s.var;
  block().push_back(std::move(s));
  return v;
}

void ExpressionEmitter::assign(const kir::Var& target, const kir::Var& source) {
  kir::Stmt s{kir::Stmt::Kind::Assign};
  s.var = target;
  s.source = source;
  block().push_back(std::move(s));
}

kir::Var ExpressionEmitter::convert(const kir::Var& v, DType dtype) {
  if (v.dtype == dtype) return v;
  kir::Expr e{kir::Expr::Kind::Convert};
  e.args = {v};
  return define(dtype, v.lanes, std::move(e));
}

std::string ExpressionEmitter::key(Value v, const AxisIndex& idx) {
  std::string k = std::to_string(v.id) + "|" + std::to_string(idx.lane_axis);
  for (const Index& i : idx.index) k += "|" + kir::to_string(i);
  return k;
}

kir::Var ExpressionEmitter::emit(Value v, const AxisIndex& idx) {
  std::string k = key(v, idx);
  for (auto scope = memo_.rbegin(); scope != memo_.rend(); ++scope) {
    auto it = scope->find(k);
    if (it != scope->end()) return it->second;
  }
  kir::Var result = emit_uncached(v, idx);
  memo_.back().emplace(k, result);
  return result;
}

template <typename F>
kir::Var ExpressionEmitter::conditional(DType dtype, int lanes, Number otherwise,
                                        std::vector<kir::Bound> bounds, F then) {
  kir::Var result = declare(dtype, lanes, otherwise);
  kir::Stmt s{kir::Stmt::Kind::If};
  s.bounds = std::move(bounds);
  blocks_.push_back(&s.then_block);
  memo_.emplace_back();
  assign(result, then());
  memo_.pop_back();
  blocks_.pop_back();
  block().push_back(std::move(s));
  return result;
}

kir::Var ExpressionEmitter::emit_uncached(Value v, const AxisIndex& idx) {
  const Node& node = fusion_.node(v);
  const Type& type = node.type;
  switch (node.category()) {
    case OpCategory::Leaf: return emit_leaf(v, node, idx);
    case OpCategory::Unary:
    case OpCategory::Binary:
    case OpCategory::Ternary: return emit_pointwise(v, node, idx);
    case OpCategory::Cast: return convert(emit(node.operands[0], idx), type.dtype);
    case OpCategory::Movement: return emit_movement(node, idx);
    case OpCategory::Reduction: return emit_reduction(v, node, idx);
    case OpCategory::Random: return emit_random(node, idx);
    case OpCategory::Indexing: return emit_indexing(v, node, idx);
    case OpCategory::Opaque:
    case OpCategory::Scan:
    case OpCategory::Scatter:
      throw Error(
          detail::concat("a pointwise kernel cannot contain '", node.info().keyword, "' (%", v.id, ")"));
  }
  SEAM_ASSERT(false);
}

kir::Var ExpressionEmitter::emit_leaf(Value v, const Node& node, const AxisIndex& idx) {
  const Type& type = node.type;
  switch (node.op) {
    case OpKind::Input: {
      int param = input_param_[static_cast<size_t>(v.id)];
      SEAM_ASSERT(param >= 0);
      if (type.is_scalar) {
        kir::Expr e{kir::Expr::Kind::Scalar};
        e.param = param;
        return define(type.dtype, 1, std::move(e));
      }
      Shape strides = fusion_.input_strides(v);
      const Index offset = strided_offset(idx.index, strides);
      int lanes = 1;
      if (idx.lane_axis >= 0 && strides[static_cast<size_t>(idx.lane_axis)] != 0) {
        if (strides[static_cast<size_t>(idx.lane_axis)] != 1)
          throw NotVectorizable{"input %" + std::to_string(v.id) + " is strided along the vector axis"};
        const bool aligned = vector_aligned(offset);
        if (!aligned && !peeled_rows_ && !unaligned_loads_)
          throw NotVectorizable{"input %" + std::to_string(v.id) + " is read at an unaligned offset"};
        lanes = lanes_;
      }
      kir::Expr e{kir::Expr::Kind::Load};
      e.param = param;
      e.offset = offset;
      e.guards = guards_;
      if (lanes > 1 && peeled_rows_) {  // the lanes outside the row read nothing
        e.row_edge = true;
        e.unaligned = !vector_aligned(offset);
      } else if (lanes > 1 && unaligned_loads_) {
        e.unaligned = !vector_aligned(offset);
        if (lane_window_) {  // the lanes outside a pad's interior read nothing
          e.row_edge = true;
          e.args = {*lane_window_};
        }
      }
      return define(type.dtype, lanes, std::move(e));
    }
    case OpKind::Const:
    case OpKind::Full: {
      kir::Expr e{kir::Expr::Kind::Literal};
      e.literal = node.attrs.get_number("value");
      return define(type.dtype, 1, std::move(e));
    }
    case OpKind::Iota: {
      kir::Expr e{kir::Expr::Kind::Iota};
      e.literal = node.attrs.get_number("start");
      e.step = node.attrs.get_number("step");
      e.offset = idx.index[0];
      return define(type.dtype, idx.lane_axis == 0 ? lanes_ : 1, std::move(e));
    }
    default: SEAM_ASSERT(false, "unknown leaf");
  }
}

kir::Var ExpressionEmitter::emit_pointwise(Value v, const Node& node, const AxisIndex& idx) {
  std::vector<Type> operand_types;
  for (Value operand : node.operands) operand_types.push_back(fusion_.type(operand));
  DType compute = pointwise_compute_dtype(node.op, operand_types);
  auto is_half = [](DType d) { return d == DType::BFloat16 || d == DType::Float16; };
  // Half types compute in f32: a tensor operand (and either branch of a where) converts to the half
  // type first, a scalar straight to f32 (docs/IR.md, "Compute dtype").
  const bool half_compute = is_half(compute);
  const DType common = compute;
  if (half_compute) compute = DType::Float32;
  int lanes = 1;
  std::vector<kir::Var> args;
  for (size_t i = 0; i < node.operands.size(); ++i) {
    kir::Var a = emit(node.operands[i], idx);
    lanes = std::max(lanes, a.lanes);
    DType target = compute;
    if (node.op == OpKind::Where) target = i == 0 ? DType::Bool : node.type.dtype;
    if (is_half(target)) {
      a = convert(a, target);
      target = DType::Float32;
    } else if (half_compute && node.op != OpKind::Where && !operand_types[i].is_scalar) {
      a = convert(a, common);
    }
    args.push_back(convert(a, target));
  }
  if (node.op == OpKind::Where) {
    kir::Expr e{kir::Expr::Kind::Select};
    e.args = std::move(args);
    DType math = e.args[1].dtype;
    return convert(define(math, lanes, std::move(e)), node.type.dtype);
  }
  const DTypeRule rule = node.info().dtype_rule;
  DType math_result = (rule == DTypeRule::Compare || rule == DTypeRule::Logical ||
                       rule == DTypeRule::ToBool || rule == DTypeRule::Predicate)
                          ? DType::Bool
                          : compute;
  kir::Expr e{kir::Expr::Kind::Call};
  e.op = node.op;
  e.args = std::move(args);
  e.approximate = math_result == DType::Float32 && has_approximate_form(node.op) &&
                  approximable_[static_cast<size_t>(v.id)];
  return convert(define(math_result, lanes, std::move(e)), node.type.dtype);
}

// A random op at `idx`: its element is its own row-major linear index, whatever the kernel, chunk or
// movement that reads it (docs/RANDOM.md), so segmentation and vector width never change a value.
kir::Var ExpressionEmitter::emit_random(const Node& node, const AxisIndex& idx) {
  const Shape& shape = node.type.shape;
  const Index linear = linearize(idx.index, shape);
  const int64_t lane_stride =
      idx.lane_axis >= 0 ? row_major_stride(shape, static_cast<size_t>(idx.lane_axis)) : 0;
  const bool uniform = node.op == OpKind::Uniform;
  // Bounds in the result dtype (uniform), mean and std in f64 (normal); seed and offset as i64.
  const DType bounds = uniform ? node.type.dtype : DType::Float64;
  kir::Expr e{kir::Expr::Kind::Random};
  e.op = node.op;
  e.args = {convert(emit(node.operands[2], idx), DType::Int64),
            convert(emit(node.operands[3], idx), DType::Int64), convert(emit(node.operands[0], idx), bounds),
            convert(emit(node.operands[1], idx), bounds)};
  e.offset = linear;
  e.step = Number::of_int(lane_stride);
  return define(node.type.dtype, idx.lane_axis >= 0 ? lanes_ : 1, std::move(e));
}

kir::Var ExpressionEmitter::emit_movement(const Node& node, const AxisIndex& idx) {
  const Value x = node.operands[0];
  const Shape& in = fusion_.type(x).shape;
  const Shape& out = node.type.shape;
  const int lane = idx.lane_axis;
  AxisIndex next;
  switch (node.op) {
    case OpKind::Broadcast: {
      const auto& axes = node.attrs.get_ints("axes");
      for (size_t d = 0; d < out.size(); ++d) {
        if (std::binary_search(axes.begin(), axes.end(), static_cast<int64_t>(d))) continue;
        if (static_cast<int>(d) == lane) next.lane_axis = static_cast<int>(next.index.size());
        next.index.push_back(idx.index[d]);
      }
      return emit(x, next);
    }
    case OpKind::Expand: {
      next.lane_axis = lane;
      for (size_t d = 0; d < out.size(); ++d) {
        bool expanded = in[d] == 1 && out[d] != 1;
        next.index.push_back(expanded ? kir::constant(0) : idx.index[d]);
        if (expanded && static_cast<int>(d) == lane) next.lane_axis = -1;
      }
      return emit(x, next);
    }
    case OpKind::Squeeze: {
      const auto& axes = node.attrs.get_ints("axes");
      size_t o = 0;
      for (size_t d = 0; d < in.size(); ++d) {
        if (std::binary_search(axes.begin(), axes.end(), static_cast<int64_t>(d))) {
          next.index.push_back(kir::constant(0));
          continue;
        }
        if (static_cast<int>(o) == lane) next.lane_axis = static_cast<int>(d);
        next.index.push_back(idx.index[o++]);
      }
      return emit(x, next);
    }
    case OpKind::Permute: {
      const auto& perm = node.attrs.get_ints("perm");
      next.index.resize(in.size());
      for (size_t d = 0; d < out.size(); ++d) {
        next.index[static_cast<size_t>(perm[d])] = idx.index[d];
        if (static_cast<int>(d) == lane) next.lane_axis = static_cast<int>(perm[d]);
      }
      return emit(x, next);
    }
    case OpKind::Slice: {
      const auto &starts = node.attrs.get_ints("starts"), &steps = node.attrs.get_ints("steps");
      next.lane_axis = lane;
      for (size_t d = 0; d < out.size(); ++d) {
        if (static_cast<int>(d) == lane && steps[d] != 1)
          throw NotVectorizable{"strided slice on the vector axis"};
        next.index.push_back(kir::add(kir::mul(idx.index[d], steps[d]), starts[d]));
      }
      return emit(x, next);
    }
    case OpKind::Reshape: return emit_reshape(x, in, out, idx);
    case OpKind::Pad: return emit_pad(node, idx);
    case OpKind::Cat: return emit_cat(node, idx);
    default: SEAM_UNREACHABLE("unknown movement op");
  }
}

kir::Var ExpressionEmitter::emit_pad(const Node& node, const AxisIndex& idx) {
  const Value x = node.operands[0];
  const Shape& in = fusion_.type(x).shape;
  const Shape& out = node.type.shape;
  const int lane = idx.lane_axis;
  AxisIndex next;
  const auto &low = node.attrs.get_ints("low"), &high = node.attrs.get_ints("high");
  std::vector<kir::Bound> bounds;
  bool within_rows = false;          // a boundary on the innermost axis: lanes of a warp straddle it
  std::optional<size_t> lane_bound;  // the vector axis's bound, when a boundary falls inside a vector
  next.lane_axis = lane;
  for (size_t d = 0; d < out.size(); ++d) {
    Index i = kir::add(idx.index[d], -low[d]);
    next.index.push_back(i);
    bool check_low = low[d] > 0, check_high = high[d] > 0;
    if (!check_low && !check_high) continue;
    within_rows = within_rows || d + 1 == out.size() || static_cast<int>(d) == lane;
    kir::Bound b{i, std::nullopt, std::nullopt};
    if (check_low) b.lo = 0;
    if (check_high) b.hi = in[d];
    if (static_cast<int>(d) == lane) {
      // A boundary inside a vector takes a masked piece, which runs where any lane is inside: an empty
      // interior has none, and the piece's uniform loads would read at coordinates outside it.
      const bool inside_a_vector = low[d] % lanes_ != 0 || in[d] % lanes_ != 0;
      const bool maskable = unaligned_loads_ && branch_free_ && !lane_window_ && in[d] > 0;
      if (!kir::multiple_of(idx.index[d], lanes_) || (inside_a_vector && !maskable))
        throw NotVectorizable{"pad boundary inside a vector"};
      if (inside_a_vector) lane_bound = bounds.size();
    }
    bounds.push_back(b);
  }
  if (bounds.empty()) return emit(x, next);
  if (lane_bound) return emit_masked_pad(x, node, next, std::move(bounds), *lane_bound);
  if (branch_free_ && within_rows) {
    kir::Var inside = emit_piece(x, next, kir::Guard{-1, 0, 1, bounds});
    return select(in_bounds(std::move(bounds)), inside, pad_value(node), node.type.dtype);
  }
  int lanes = lane >= 0 ? lanes_ : 1;
  return conditional(node.type.dtype, lanes, node.attrs.get_number("value"), std::move(bounds),
                     [&] { return widen(emit(x, next), lanes); });
}

kir::Var ExpressionEmitter::pad_value(const Node& pad) {
  kir::Expr fill{kir::Expr::Kind::Literal};
  fill.literal = pad.attrs.get_number("value");
  return define(pad.type.dtype, 1, std::move(fill));
}

kir::Var ExpressionEmitter::emit_masked_pad(Value x, const Node& node, const AxisIndex& next,
                                            std::vector<kir::Bound> bounds, size_t lane_bound) {
  kir::Bound exact = bounds[lane_bound];
  exact.per_lane = true;
  kir::Expr mask{kir::Expr::Kind::LaneMask};
  mask.bounds = {exact};
  mask.extent = lanes_;
  lane_window_ = define(DType::Int32, 1, std::move(mask));
  // The piece runs where any lane is inside: lane 0 at most lanes - 1 before the interior's start.
  std::vector<kir::Bound> any_lane = bounds;
  if (any_lane[lane_bound].lo) *any_lane[lane_bound].lo -= lanes_ - 1;
  kir::Var inside = emit_piece(x, next, kir::Guard{-1, 0, 1, std::move(any_lane)});
  lane_window_.reset();
  kir::Var outside = pad_value(node);
  bounds[lane_bound] = exact;
  kir::Expr test{kir::Expr::Kind::InBounds};
  test.bounds = std::move(bounds);
  kir::Var in_interior = define(DType::Bool, lanes_, std::move(test));
  return select(in_interior, widen(inside, lanes_), outside, node.type.dtype);
}

// A value at `lanes` lanes (a uniform value repeated).
kir::Var ExpressionEmitter::widen(kir::Var v, int lanes) {
  if (v.lanes == lanes) return v;
  kir::Var wide = declare(v.dtype, lanes, Number::of_int(0));
  assign(wide, v);
  return wide;
}

kir::Var ExpressionEmitter::emit_cat(const Node& node, const AxisIndex& idx) {
  const size_t axis = static_cast<size_t>(node.attrs.get_int("axis"));
  const bool on_lane_axis = static_cast<int>(axis) == idx.lane_axis;
  const int lanes = idx.lane_axis >= 0 ? lanes_ : 1;
  if (on_lane_axis && !kir::multiple_of(idx.index[axis], lanes_))
    throw NotVectorizable{"cat of an unaligned vector"};
  std::vector<int64_t> ends;
  int64_t offset = 0;
  for (Value operand : node.operands) {
    if (on_lane_axis && offset % lanes_ != 0) throw NotVectorizable{"cat boundary inside a vector"};
    offset += fusion_.type(operand).shape[axis];
    ends.push_back(offset);
  }
  // Branch-free only when boundaries fall within rows (the innermost or vector axis), where the lanes of
  // a warp straddle them; pieces of a cat on an outer axis are long runs of chunks, so a branch is
  // uniform across most warps and skips the other pieces' work (RoPE's backward: q, k and v parts of
  // dqkv, measured 20-46% of the floor branch-free for GQA against ... branchy).
  const bool within_rows = axis + 1 == node.type.shape.size() || on_lane_axis;
  if (branch_free_ && within_rows) {
    // Every piece, each at its own guard, then (i < end0 ? piece0 : i < end1 ? piece1 : ... last piece).
    const int region = counter_++;
    const int pieces = static_cast<int>(node.operands.size());
    std::vector<kir::Var> values;
    for (int k = 0; k < pieces; ++k) {
      AxisIndex piece = idx;
      int64_t begin = k == 0 ? 0 : ends[static_cast<size_t>(k) - 1];
      piece.index[axis] = kir::add(idx.index[axis], -begin);
      kir::Bound bound{idx.index[axis], std::nullopt, std::nullopt};
      if (k > 0) bound.lo = begin;
      if (k + 1 < pieces) bound.hi = ends[static_cast<size_t>(k)];
      kir::Guard guard{region, k, pieces, {}};
      if (bound.lo || bound.hi) guard.bounds.push_back(bound);
      values.push_back(emit_piece(node.operands[static_cast<size_t>(k)], piece, std::move(guard)));
    }
    kir::Var result = values.back();
    for (size_t k = values.size() - 1; k-- > 0;) {
      kir::Var below = in_bounds({kir::Bound{idx.index[axis], std::nullopt, ends[k]}});
      result = select(below, values[k], result, node.type.dtype);
    }
    return result;
  }
  // if (i < end0) piece0 else if (i < end1) piece1 ... else last piece; built from the last piece back.
  kir::Var result = declare(node.type.dtype, lanes, Number::of_int(0));
  kir::Block chain;
  for (size_t k = node.operands.size(); k-- > 0;) {
    AxisIndex piece = idx;
    int64_t begin = k == 0 ? 0 : ends[k - 1];
    piece.index[axis] = kir::add(idx.index[axis], -begin);
    kir::Block piece_block;
    blocks_.push_back(&piece_block);
    memo_.emplace_back();
    assign(result, widen(emit(node.operands[k], piece), lanes));
    memo_.pop_back();
    blocks_.pop_back();
    if (k + 1 == node.operands.size()) {
      chain = std::move(piece_block);
      continue;
    }
    kir::Stmt s{kir::Stmt::Kind::If};
    s.bounds = {kir::Bound{idx.index[axis], std::nullopt, ends[k]}};
    s.then_block = std::move(piece_block);
    s.else_block = std::move(chain);
    chain.clear();
    chain.push_back(std::move(s));
  }
  for (kir::Stmt& s : chain) block().push_back(std::move(s));
  return result;
}

kir::Var ExpressionEmitter::emit_piece(Value v, const AxisIndex& idx, kir::Guard guard) {
  guards_.push_back(std::move(guard));
  memo_.emplace_back();  // values of a piece are valid only where its guard holds
  kir::Var value = emit(v, idx);
  memo_.pop_back();
  guards_.pop_back();
  return value;
}

kir::Var ExpressionEmitter::select(kir::Var cond, kir::Var a, kir::Var b, DType dtype) {
  kir::Expr e{kir::Expr::Kind::Select};
  e.args = {std::move(cond), std::move(a), std::move(b)};
  const int lanes = std::max(e.args[1].lanes, e.args[2].lanes);
  return define(dtype, lanes, std::move(e));
}

kir::Var ExpressionEmitter::in_bounds(std::vector<kir::Bound> bounds) {
  kir::Expr e{kir::Expr::Kind::InBounds};
  e.bounds = std::move(bounds);
  return define(DType::Bool, 1, std::move(e));
}

// An index_select whose index is an iota with every value inside [0, n) (a flip's n-1, n-2, ..., 0) reads
// position start + k * step at output coordinate k: no value can be out of range, so there is nothing to
// check or record, and a fusion of such reads needs no wait for an index error (docs/CODEGEN.md,
// "Indexing").
std::optional<kir::Index> ExpressionEmitter::iota_position(const Node& node,
                                                           const AxisIndex& at_index) const {
  if (node.op != OpKind::IndexSelect) return std::nullopt;
  const Node& iota = fusion_.node(node.operands[1]);
  if (iota.op != OpKind::Iota) return std::nullopt;
  const Number start = iota.attrs.get_number("start"), step = iota.attrs.get_number("step");
  if (start.kind() != Number::Kind::Int || step.kind() != Number::Kind::Int) return std::nullopt;
  const int64_t length = iota.type.shape.at(0);
  const int64_t extent =
      fusion_.type(node.operands[0]).shape.at(static_cast<size_t>(node.attrs.get_int("axis")));
  const __int128 first = start.as_int(), last = first + static_cast<__int128>(length - 1) * step.as_int();
  if (length == 0 || std::min(first, last) < 0 || std::max(first, last) >= extent) return std::nullopt;
  return kir::add(kir::mul(at_index.index.at(0), step.as_int()), start.as_int());
}

kir::Var ExpressionEmitter::emit_indexing(Value v, const Node& node, const AxisIndex& idx) {
  const Value data = node.operands[0], index = node.operands[1];
  const Shape &data_shape = fusion_.type(data).shape, &index_shape = fusion_.type(index).shape;
  const Shape& out = node.type.shape;
  const int64_t axis = node.attrs.get_int("axis");
  AxisIndex at_index, at_data;
  indexing_coordinates<Index>(node.op, axis, data_shape, index_shape, out, idx.index, kir::constant(0),
                              at_index.index, at_data.index);
  // The lane axis as each operand sees it: gone where the operand reads a fixed coordinate.
  const int lane = idx.lane_axis;
  if (lane >= 0) {
    switch (node.op) {
      case OpKind::IndexSelect:
        if (lane == axis)
          at_index.lane_axis = 0;
        else
          at_data.lane_axis = lane;
        break;
      case OpKind::Select: at_data.lane_axis = lane < axis ? lane : lane + 1; break;
      default: {
        const size_t l = static_cast<size_t>(lane);
        const bool broadcast_index = index_shape[l] == 1 && out[l] != 1;
        const bool broadcast_data = data_shape[l] == 1 && out[l] != 1;
        if (!broadcast_index) at_index.lane_axis = lane;
        if (lane != axis && !broadcast_data) at_data.lane_axis = lane;
      }
    }
  }
  if (std::optional<kir::Index> read = iota_position(node, at_index)) {
    if (lane >= 0 && lane == axis) {
      // The lanes read consecutive positions only when the iota steps by 1.
      if (fusion_.node(index).attrs.get_number("step").as_int() != 1)
        throw NotVectorizable{std::string(node.info().keyword) + " %" + std::to_string(v.id) +
                              ": the positions read vary along the vector axis"};
      at_data.lane_axis = lane;
    }
    at_data.index[static_cast<size_t>(axis)] = *read;
    return emit(data, at_data);
  }
  const kir::Var position = emit(index, at_index);
  if (position.lanes > 1)
    throw NotVectorizable{std::string(node.info().keyword) + " %" + std::to_string(v.id) +
                          ": the index varies along the vector axis"};
  kir::Expr e{kir::Expr::Kind::CheckedIndex};
  e.args = {position};
  e.op = node.op;
  e.extent = data_shape[static_cast<size_t>(axis)];
  e.axis = static_cast<int>(axis);
  e.guards = guards_;  // lanes of an unselected cat piece or pad border report nothing
  const kir::Var checked = define(DType::Int64, 1, std::move(e));
  at_data.index[static_cast<size_t>(axis)] =
      kir::variable(checked.name, data_shape[static_cast<size_t>(axis)]);
  return emit(data, at_data);
}

// Reshape keeps the row-major order: split both shapes into groups of axes with equal products and map
// each group through its linear index, so untouched axes cost no division.
kir::Var ExpressionEmitter::emit_reshape(Value x, const Shape& in, const Shape& out, const AxisIndex& idx) {
  AxisIndex next;
  next.index.assign(in.size(), kir::constant(0));
  size_t i = 0, o = 0;
  if (Type::tensor(DType::Bool, out).numel() == 0) return emit(x, next);  // never evaluated
  // Only unit axes inserted or removed: the other axes pair up in order and keep their indices, with no
  // divisions, so that a row kernel sees a reduction read at its own row (docs/CODEGEN.md, "Reductions").
  if (without_unit_axes(in) == without_unit_axes(out) &&
      (idx.lane_axis < 0 || out[static_cast<size_t>(idx.lane_axis)] != 1)) {
    size_t o = 0;
    for (size_t d = 0; d < in.size(); ++d) {
      if (in[d] == 1) continue;
      while (out[o] == 1) ++o;
      if (static_cast<int>(o) == idx.lane_axis) {
        if (in[d] % lanes_ != 0 || !kir::multiple_of(idx.index[o], lanes_))
          throw NotVectorizable{"reshape splits a vector across rows"};
        next.lane_axis = static_cast<int>(d);
      }
      next.index[d] = idx.index[o++];
    }
    return emit(x, next);
  }
  while (i < in.size() || o < out.size()) {
    // The smallest group of axes on each side with equal element counts, plus trailing size-1 axes.
    size_t i_end = i, o_end = o;
    int64_t pi = 1, po = 1;
    if (i_end < in.size()) pi *= in[i_end++];
    if (o_end < out.size()) po *= out[o_end++];
    while (pi != po) {
      if (pi < po) {
        SEAM_ASSERT(i_end < in.size());
        pi *= in[i_end++];
      } else {
        SEAM_ASSERT(o_end < out.size());
        po *= out[o_end++];
      }
    }
    while (i_end < in.size() && in[i_end] == 1) ++i_end;
    while (o_end < out.size() && out[o_end] == 1) ++o_end;
    // The group's linear index from the output side.
    const auto group = [](const auto& v, size_t begin, size_t end) {
      return std::vector(v.begin() + static_cast<std::ptrdiff_t>(begin),
                         v.begin() + static_cast<std::ptrdiff_t>(end));
    };
    const Index linear = linearize(group(idx.index, o, o_end), group(out, o, o_end));
    const int lane_in_group =
        idx.lane_axis >= static_cast<int>(o) && idx.lane_axis < static_cast<int>(o_end) ? idx.lane_axis : -1;
    if (lane_in_group >= 0) {
      // Lanes must advance the group's linear index by one and stay inside its innermost input axis.
      for (size_t d = static_cast<size_t>(lane_in_group) + 1; d < o_end; ++d)
        if (out[d] != 1) throw NotVectorizable{"reshape moves the vector axis"};
      size_t last_in = i_end;
      while (last_in > i && in[last_in - 1] == 1) --last_in;
      // The run must start on a multiple of `lanes` of the group's linear index, or it could cross
      // from one row of the innermost input axis into the next (e.g. after an unaligned slice).
      if (last_in == i || in[last_in - 1] % lanes_ != 0 || !kir::multiple_of(linear, lanes_))
        throw NotVectorizable{"reshape splits a vector across rows"};
      next.lane_axis = static_cast<int>(last_in - 1);
    }
    const std::vector<Index> components = delinearize(linear, group(in, i, i_end));
    std::copy(components.begin(), components.end(), next.index.begin() + static_cast<std::ptrdiff_t>(i));
    i = i_end;
    o = o_end;
  }
  return emit(x, next);
}

// A small reduction computed where it is read (schedule/pointwise_scheduler.h): the operand at every
// reduced coordinate, combined in row-major order of the reduced axes, in f32 for half types.
kir::Var ExpressionEmitter::emit_reduction(Value v, const Node& node, const AxisIndex& idx) {
  const Shape& in = fusion_.type(node.operands[0]).shape;
  const auto& axes = node.attrs.get_ints("axes");
  const bool keepdim = node.attrs.get_bool("keepdim");
  auto reduced = [&](size_t d) {
    return std::find(axes.begin(), axes.end(), static_cast<int64_t>(d)) != axes.end();
  };
  std::vector<size_t> reduced_axes;  // in order
  Shape reduced_extents;
  for (size_t d = 0; d < in.size(); ++d) {
    if (!reduced(d)) continue;
    reduced_axes.push_back(d);
    reduced_extents.push_back(in[d]);
  }
  int64_t count = 1;
  for (int64_t e : reduced_extents) count *= e;
  SEAM_CHECK(is_inlinable_reduction(node, fusion_, max_inlined_reduction_), "reduction %", v.id, " over ",
             count, " elements is too large to compute inside a pointwise kernel (at most ",
             max_inlined_reduction_, ": ScheduleLimits::max_inlined_reduction)");
  const DType compute = inlined_reduction_accumulator(node.type.dtype);
  const OpKind combine = reduction_combine(node.op);
  // The operand at reduced element r (row-major over the reduced axes; a constant or the loop variable):
  // the output's indices on kept axes, r's coordinates on reduced ones.
  auto term = [&](const Index& r) {
    AxisIndex at;
    at.index.assign(in.size(), kir::constant(0));
    const std::vector<Index> coordinates = delinearize(r, reduced_extents);
    for (size_t k = reduced_axes.size(); k-- > 0;) {
      const Index& coordinate = coordinates[k];
      at.index[reduced_axes[k]] =
          kir::constant_value(coordinate) ? coordinate : let("i" + std::to_string(counter_++), coordinate);
    }
    size_t o = 0;
    for (size_t d = 0; d < in.size(); ++d) {
      if (reduced(d)) {
        o += keepdim ? 1 : 0;
        continue;
      }
      if (static_cast<int>(o) == idx.lane_axis) at.lane_axis = static_cast<int>(d);
      at.index[d] = idx.index[o++];
    }
    return convert(emit(node.operands[0], at), compute);
  };
  auto combined = [&](const kir::Var& acc, const kir::Var& x) {
    kir::Expr e{kir::Expr::Kind::Call};
    e.op = combine;
    e.args = {acc, x};
    return define(compute, std::max(acc.lanes, x.lanes), std::move(e));
  };
  kir::Var acc = term(kir::constant(0));
  if (reduction_loop_unroll_ <= 0 || count <= 2) {
    for (int64_t r = 1; r < count; ++r) acc = combined(acc, term(kir::constant(r)));
    return convert(acc, node.type.dtype);
  }
  // The other terms in a loop (same order, so the same rounding): its body is emitted in a scope of its
  // own, then the accumulator, which needs the body's lane count, is declared before it.
  kir::Stmt loop{kir::Stmt::Kind::Loop};
  loop.name = "r" + std::to_string(counter_++);
  loop.begin = 1;
  loop.extent = count;
  loop.unroll = reduction_loop_unroll_;
  blocks_.push_back(&loop.then_block);
  memo_.emplace_back();
  const kir::Var x = term(kir::variable(loop.name, loop.extent));
  memo_.pop_back();
  blocks_.pop_back();
  const kir::Var sum = declare(compute, std::max(acc.lanes, x.lanes), Number::of_int(0));
  assign(sum, acc);
  blocks_.push_back(&loop.then_block);
  memo_.emplace_back();
  assign(sum, combined(sum, x));
  memo_.pop_back();
  blocks_.pop_back();
  block().push_back(std::move(loop));
  return convert(sum, node.type.dtype);
}

}  // namespace seam
