#include "testing/random_fusion.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <optional>
#include <random>
#include <string>

#include "ir/builder.h"
#include "support/checked_math.h"
#include "support/error.h"

namespace seam {
namespace {

class Generator {
 public:
  Generator(uint64_t seed, const RandomFusionOptions& options)
      : options_(options), rng_(seed), builder_("random_" + std::to_string(seed)) {
    SEAM_CHECK(options.max_rank >= 0 && options.max_extent >= 1 && options.num_ops >= 0,
               "random_fusion: need max_rank >= 0, max_extent >= 1 and num_ops >= 0");
    for (int k = 0; k < kNumOpKinds; ++k) {
      OpKind op = static_cast<OpKind>(k);
      if (op == OpKind::Input || allowed(op_info(op).category)) choices_.push_back(op);
    }
  }

  Fusion generate() {
    int64_t inputs = uniform(int64_t{1}, int64_t{3});
    for (int64_t i = 0; i < inputs; ++i) try_remember([&] { return new_input(); });
    if (values_.empty()) {  // every input broke a size limit: one small input
      options_.huge_extent_probability = 0;
      remember(new_input());
    }
    for (int i = 0; i < options_.num_ops; ++i)
      try_remember([&] { return make(choices_[index(choices_.size())]); });
    return builder_.finish(choose_outputs());
  }

 private:
  bool allowed(OpCategory category) const {
    switch (category) {
      case OpCategory::Leaf: return options_.leaves;
      case OpCategory::Unary:
      case OpCategory::Binary:
      case OpCategory::Ternary:
      case OpCategory::Cast: return options_.pointwise;
      case OpCategory::Movement: return options_.movement;
      case OpCategory::Reduction: return options_.reductions;
      case OpCategory::Random: return options_.random;
      case OpCategory::Indexing: return options_.indexing;
      case OpCategory::Opaque: return options_.opaque;
      case OpCategory::Scan: return options_.scans;
      case OpCategory::Scatter: return options_.scatters;
    }
    return false;
  }

  // Random numbers.
  int64_t uniform(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng_); }
  size_t index(size_t count) { return std::uniform_int_distribution<size_t>(0, count - 1)(rng_); }
  bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  DType random_dtype() { return kAllDTypes[index(std::size(kAllDTypes))]; }
  DType random_float_dtype() {
    constexpr DType floats[] = {DType::Float16, DType::BFloat16, DType::Float32, DType::Float64};
    return floats[index(std::size(floats))];
  }
  DType random_non_bool_dtype() {
    DType d = random_dtype();
    return d == DType::Bool ? DType::Int32 : d;
  }
  int64_t random_extent() {
    // Around 2^31 (32-bit index arithmetic), 2^32 and the 2^40 limit of elements and bytes.
    constexpr int64_t huge[] = {(int64_t{1} << 31) - 1, int64_t{1} << 31,      (int64_t{1} << 32) + 1,
                                int64_t{3} << 30,       int64_t{1} << 37,      int64_t{1} << 40,
                                (int64_t{1} << 40) + 1, (int64_t{1} << 40) / 3};
    if (options_.huge_extent_probability > 0 && chance(options_.huge_extent_probability))
      return huge[index(std::size(huge))];
    return chance(options_.zero_extent_probability) ? 0 : uniform(int64_t{1}, options_.max_extent);
  }
  Shape random_shape(int rank) {
    Shape shape(static_cast<size_t>(rank));
    for (int64_t& e : shape) e = random_extent();
    return shape;
  }
  int random_rank(int lo = 0) {
    return static_cast<int>(uniform(int64_t{lo}, std::max(lo, options_.max_rank)));
  }

  // A literal that fits `dtype` (its category is not higher).
  Number random_literal(DType dtype, bool allow_special = true) {
    if (dtype == DType::Bool) return Number::of_bool(chance(0.5));
    if (is_integer(dtype) || chance(0.25)) return Number::of_int(uniform(int64_t{-4}, int64_t{4}));
    if (allow_special && options_.special_values && chance(0.1)) {
      constexpr double specials[] = {std::numeric_limits<double>::infinity(),
                                     -std::numeric_limits<double>::infinity(),
                                     std::numeric_limits<double>::quiet_NaN(),
                                     -0.0,
                                     1e-5,
                                     1e30};
      return Number::of_float(specials[index(std::size(specials))]);
    }
    return Number::of_float(static_cast<double>(uniform(int64_t{-16}, int64_t{16})) / 4.0);
  }

  const Type& type(Value v) const { return builder_.type(v); }
  void remember(Value v) { values_.push_back(v); }
  // With huge extents an op (or an operand fitted for it) may break a size limit: Builder rejects it
  // with seam::Error and the op is skipped. Without them every op must succeed.
  template <typename Make>
  void try_remember(Make make) {
    if (options_.huge_extent_probability == 0) return remember(make());
    try {
      remember(make());
    } catch (const Error&) {
    }
  }

  Value new_input() {
    std::string name = chance(0.8) ? "x" + std::to_string(next_input_name_++) : "";
    if (options_.scalar_inputs && chance(0.15)) return builder_.input(Type::scalar(random_dtype()), name);
    Shape shape = random_shape(random_rank());
    Shape strides;
    if (options_.strided_inputs && !shape.empty() && chance(0.3)) strides = random_strides(shape);
    return builder_.input(Type::tensor(random_dtype(), shape), name, strides);
  }

  // A layout over axes in a random order, sometimes with gaps between rows or stride-0 unit axes.
  Shape random_strides(const Shape& shape) {
    std::vector<size_t> order(shape.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::shuffle(order.begin(), order.end(), rng_);
    Shape strides(shape.size());
    int64_t stride = chance(0.2) ? 2 : 1;
    for (size_t axis : order) {
      strides[axis] = shape[axis] == 1 && chance(0.3) ? 0 : stride;
      // Saturates with huge extents: Builder then rejects the strides as past the size limits.
      const int64_t step = std::max<int64_t>(shape[axis], 1) + (chance(0.3) ? 1 : 0);
      stride = checked_mul(stride, step).value_or(std::numeric_limits<int64_t>::max());
    }
    return strides;
  }

  Value new_full(const Shape& shape, DType dtype) {
    return builder_.full(shape, dtype, random_literal(dtype));
  }

  // A value already built, most often a recent one, kept small.
  Value pick() {
    size_t n = values_.size();
    Value v = chance(0.5) ? values_[n - 1 - index(std::min<size_t>(n, 4))] : values_[index(n)];
    return type(v).is_scalar ? v : tame(v);
  }
  Value pick_tensor() {
    for (int attempt = 0; attempt < 8; ++attempt) {
      Value v = pick();
      if (!type(v).is_scalar) return v;
    }
    return new_full(random_shape(random_rank()), random_dtype());
  }

  // Brings a tensor that has grown (by cat, pad, broadcast) back to a small shape.
  Value tame(Value v) {
    const Type& t = type(v);
    bool too_big = t.rank() > options_.max_rank + 1;
    for (int64_t e : t.shape) too_big = too_big || e > 2 * options_.max_extent;
    return too_big ? fit_shape(v, random_shape(random_rank())) : v;
  }

  Value fit_dtype(Value v, DType dtype) { return type(v).dtype == dtype ? v : builder_.cast(v, dtype); }

  // Makes tensor v have exactly `target`: reshape when the sizes agree, otherwise change the rank by a
  // reshape, then slice the axes that are too long and pad (or expand) the ones that are too short.
  Value fit_shape(Value v, Shape target) {  // by value: adding nodes moves the types
    if (type(v).shape == target) return v;
    if (type(v).numel() == Type::tensor(DType::Bool, target).numel() && chance(0.6))
      return builder_.reshape(v, target);
    const int rank = static_cast<int>(target.size());
    if (type(v).rank() != rank) {
      if (rank == 0) {
        v = fit_shape(v, Shape(static_cast<size_t>(type(v).rank()), 1));
        return builder_.reshape(v, {});
      }
      if (type(v).rank() == 0 && chance(0.5)) {
        std::vector<int64_t> axes(static_cast<size_t>(rank));
        std::iota(axes.begin(), axes.end(), int64_t{0});
        v = builder_.broadcast(v, axes);
      } else {
        Shape flat(static_cast<size_t>(rank), 1);
        flat[0] = type(v).numel();
        v = builder_.reshape(v, flat);
      }
    }
    Shape in = type(v).shape;
    bool any_long = false, any_short = false, short_all_unit = true;
    std::vector<int64_t> starts(rank, 0), stops(in.begin(), in.end()), steps(rank, 1);
    for (int i = 0; i < rank; ++i) {
      if (in[i] > target[i]) {
        any_long = true;
        if (target[i] == 0) {
          starts[i] = stops[i] = uniform(int64_t{0}, in[i]);
          continue;
        }
        int64_t step = target[i] > 1 && (target[i] - 1) * 2 + 1 <= in[i] && chance(0.3) ? 2 : 1;
        int64_t span = (target[i] - 1) * step + 1;
        starts[i] = uniform(int64_t{0}, in[i] - span);
        stops[i] = starts[i] + span;
        steps[i] = step;
      } else if (in[i] < target[i]) {
        any_short = true;
        short_all_unit = short_all_unit && in[i] == 1;
      }
    }
    if (any_long) v = builder_.slice(v, starts, stops, steps);
    if (!any_short) return v;
    if (short_all_unit && chance(0.6)) return builder_.expand(v, target);
    in = type(v).shape;
    std::vector<int64_t> low(rank, 0), high(rank, 0);
    for (int i = 0; i < rank; ++i) {
      int64_t grow = target[i] - in[i];
      if (grow <= 0) continue;
      low[i] = uniform(int64_t{0}, grow);
      high[i] = grow - low[i];
      if (in[i] > 0 && chance(0.2)) {  // crop one side, grow the other more
        low[i] -= 1;
        high[i] += 1;
      }
    }
    return builder_.pad(v, low, high, random_literal(type(v).dtype));
  }

  Value make_bool(Value v) {
    if (type(v).dtype == DType::Bool) return v;
    if (chance(0.5)) return builder_.cast(v, DType::Bool);
    DType d = type(v).dtype;
    return builder_.add(OpKind::Gt, {v, builder_.constant(random_literal(d, false), d)});
  }

  Value at_least_rank_one(Value v) { return type(v).rank() == 0 ? builder_.broadcast(v, {0}) : v; }

  // A tensor with at least one extent-1 axis.
  Value with_unit_axis(Value v) {
    const Shape& s = type(v).shape;
    if (std::find(s.begin(), s.end(), 1) != s.end()) return v;
    return builder_.broadcast(v, {static_cast<int64_t>(index(s.size() + 1))});
  }

  std::vector<int64_t> random_subset(const std::vector<int64_t>& items, bool non_empty) {
    std::vector<int64_t> chosen;
    for (int64_t item : items)
      if (chance(0.5)) chosen.push_back(item);
    if (chosen.empty() && non_empty && !items.empty()) chosen.push_back(items[index(items.size())]);
    return chosen;
  }

  Shape random_shape_of_numel(int64_t numel) {
    if (numel == 0) {
      Shape s = random_shape(random_rank(1));
      s[index(s.size())] = 0;
      return s;
    }
    int rank = random_rank(numel > 1 ? 1 : 0);
    Shape s(static_cast<size_t>(rank), 1);
    int64_t rest = numel;
    for (int64_t f = 2; rest > 1 && f <= 1024; ++f) {  // small factors; a large remaining one goes whole
      while (rest % f == 0) {
        s[index(s.size())] *= f;
        rest /= f;
      }
    }
    if (rest > 1) s[index(s.size())] *= rest;
    return s;
  }

  Value make(OpKind op) {
    const OpInfo& info = op_info(op);
    switch (info.category) {
      case OpCategory::Leaf: return make_leaf(op);
      case OpCategory::Unary: {
        Value x = pick();
        if (info.dtype_rule == DTypeRule::Same && type(x).dtype == DType::Bool)
          x = builder_.cast(x, random_non_bool_dtype());
        if (info.dtype_rule == DTypeRule::FloatingOnly && !is_floating(type(x).dtype))
          x = builder_.cast(x, random_float_dtype());
        if (info.dtype_rule == DTypeRule::IntegerOnly && !is_integer(type(x).dtype))
          x = builder_.cast(x, chance(0.5) ? DType::Int32 : DType::Int64);
        // The sign bit of a computed NaN is the hardware's in kernels, one quiet NaN's in the
        // interpreter: random operands keep signbit to integers (tests/interp covers floats).
        if (info.dtype_rule == DTypeRule::Predicate && is_floating(type(x).dtype))
          x = builder_.cast(x, DType::Int64);
        return builder_.add(op, {x});
      }
      case OpCategory::Binary: {
        Value a = pick(), b = pick();
        if (!type(a).is_scalar && !type(b).is_scalar) b = fit_shape(b, type(a).shape);
        if (info.dtype_rule == DTypeRule::Promote && type(a).dtype == DType::Bool &&
            type(b).dtype == DType::Bool)
          a = builder_.cast(a, random_non_bool_dtype());
        if (info.dtype_rule == DTypeRule::IntegerOnly) {
          for (Value* v : {&a, &b})
            if (!is_integer(type(*v).dtype))
              *v = builder_.cast(*v, chance(0.5) ? DType::Int32 : DType::Int64);
        }
        if (info.dtype_rule == DTypeRule::FloatingOnly && !is_floating(type(a).dtype) &&
            !is_floating(type(b).dtype))
          a = builder_.cast(a, random_float_dtype());
        return builder_.add(op, {a, b});
      }
      case OpCategory::Ternary: {
        std::vector<Value> operands = {make_bool(pick()), pick(), pick()};
        std::optional<Shape> shape;
        for (Value& v : operands) {
          if (type(v).is_scalar) continue;
          if (!shape)
            shape = type(v).shape;
          else
            v = fit_shape(v, *shape);
        }
        return builder_.add(op, operands);
      }
      case OpCategory::Cast: return builder_.cast(pick(), random_dtype());
      case OpCategory::Movement: return make_movement(op);
      case OpCategory::Reduction: return make_reduction(op);
      case OpCategory::Random: return make_random(op);
      case OpCategory::Indexing: return make_indexing(op);
      case OpCategory::Opaque: return make_opaque(op);
      case OpCategory::Scan: {
        const Value x = pick_tensor();
        const int64_t rank = std::max(type(x).rank(), 1);
        return builder_.scan(op, x, uniform(-rank, rank - 1));
      }
      case OpCategory::Scatter: return make_scatter();
    }
    SEAM_ASSERT(false, "unknown op category");
    return {};
  }

  Value make_leaf(OpKind op) {
    switch (op) {
      case OpKind::Input: return new_input();
      case OpKind::Const: {
        DType d = random_dtype();
        return builder_.constant(random_literal(d), d);
      }
      case OpKind::Full: return new_full(random_shape(random_rank()), random_dtype());
      case OpKind::Iota: {
        DType d = random_non_bool_dtype();
        Number start = random_literal(d, false), step = random_literal(d, false);
        if (step.as_double() == 0.0) step = Number::of_int(1);
        return builder_.iota(random_extent(), d, start, step);
      }
      default: SEAM_ASSERT(false, "not a leaf");
    }
    return {};
  }

  // uniform/normal with constant or run-time scalar operands (a scalar value already built where the
  // dtype fits), seeds and offsets of either integer dtype, any floating result dtype.
  Value make_random(OpKind op) {
    auto scalar = [&](bool integer) {
      for (int attempt = 0; attempt < 4; ++attempt) {
        Value v = values_[index(values_.size())];
        const DType d = type(v).dtype;
        if (type(v).is_scalar && (integer ? is_integer(d) : d != DType::Bool)) return v;
      }
      const DType d = integer ? (chance(0.5) ? DType::Int32 : DType::Int64) : random_non_bool_dtype();
      return builder_.constant(
          integer ? Number::of_int(uniform(int64_t{-3}, int64_t{1} << 40)) : random_literal(d, false), d);
    };
    Value a = scalar(false), b = scalar(false), seed = scalar(true), offset = scalar(true);
    Shape shape = random_shape(random_rank());
    return op == OpKind::Uniform ? builder_.uniform(a, b, seed, offset, shape, random_float_dtype())
                                 : builder_.normal(a, b, seed, offset, shape, random_float_dtype());
  }

  Value make_movement(OpKind op) {
    Value x = pick_tensor();
    const int rank = type(x).rank();
    std::vector<int64_t> all_axes(static_cast<size_t>(rank));
    std::iota(all_axes.begin(), all_axes.end(), int64_t{0});
    switch (op) {
      case OpKind::Broadcast: {
        int added = static_cast<int>(uniform(int64_t{1}, int64_t{2}));
        std::vector<int64_t> positions(static_cast<size_t>(rank + added));
        std::iota(positions.begin(), positions.end(), int64_t{0});
        std::shuffle(positions.begin(), positions.end(), rng_);
        positions.resize(static_cast<size_t>(added));
        return builder_.broadcast(x, positions);
      }
      case OpKind::Expand: {
        x = with_unit_axis(x);
        Shape shape = type(x).shape;
        for (int64_t& e : shape)
          if (e == 1) e = random_extent();
        return builder_.expand(x, shape);
      }
      case OpKind::Squeeze: {
        x = with_unit_axis(x);
        std::vector<int64_t> unit_axes;
        for (int i = 0; i < type(x).rank(); ++i)
          if (type(x).shape[i] == 1) unit_axes.push_back(i);
        return builder_.squeeze(x, random_subset(unit_axes, true));
      }
      case OpKind::Reshape: return builder_.reshape(x, random_shape_of_numel(type(x).numel()));
      case OpKind::Permute: {
        std::shuffle(all_axes.begin(), all_axes.end(), rng_);
        return builder_.permute(x, all_axes);
      }
      case OpKind::Slice: {
        std::vector<int64_t> starts(rank), stops(rank), steps(rank);
        for (int i = 0; i < rank; ++i) {
          int64_t e = type(x).shape[i];
          starts[i] = uniform(int64_t{0}, e);
          stops[i] = uniform(starts[i], e);
          steps[i] = uniform(int64_t{1}, int64_t{3});
        }
        return builder_.slice(x, starts, stops, steps);
      }
      case OpKind::Pad: {
        std::vector<int64_t> low(rank), high(rank);
        for (int i = 0; i < rank; ++i) {
          low[i] = uniform(int64_t{-1}, int64_t{2});
          high[i] = uniform(int64_t{-1}, int64_t{2});
          if (type(x).shape[i] + low[i] + high[i] < 0) low[i] = high[i] = 0;
        }
        return builder_.pad(x, low, high, random_literal(type(x).dtype));
      }
      case OpKind::Cat: {
        x = at_least_rank_one(x);
        int64_t axis = static_cast<int64_t>(index(static_cast<size_t>(type(x).rank())));
        std::vector<Value> parts = {x};
        for (int64_t extra = uniform(int64_t{0}, int64_t{2}); extra > 0; --extra) {
          Shape shape = type(x).shape;
          shape[static_cast<size_t>(axis)] = random_extent();
          parts.push_back(fit_dtype(fit_shape(pick_tensor(), shape), type(x).dtype));
        }
        std::shuffle(parts.begin(), parts.end(), rng_);
        return builder_.cat(parts, axis);
      }
      default: SEAM_ASSERT(false, "not a movement op");
    }
    return {};
  }

  // `length` indices in [-extent, extent) (random inputs would be out of range): an iota, negative
  // positions included, sometimes stepping down or repeating (a full), as i32 or i64.
  Value in_range_indices(int64_t length, int64_t extent) {
    const DType dtype = chance(0.5) ? DType::Int32 : DType::Int64;
    const int64_t start = uniform(-extent, extent - 1);
    int64_t step = uniform(int64_t{-1}, int64_t{1});
    const int64_t last = start + (std::max<int64_t>(length, 1) - 1) * step;
    if (step == 0 || last < -extent || last >= extent)
      return builder_.full({length}, dtype, Number::of_int(start));
    return builder_.iota(length, dtype, Number::of_int(start), Number::of_int(step));
  }

  // An index of `shape` whose values vary along `axis` only: in_range_indices broadcast and expanded.
  Value index_along(const Shape& shape, int64_t axis, int64_t extent) {
    Value positions = in_range_indices(shape[static_cast<size_t>(axis)], extent);
    std::vector<int64_t> others;
    for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d)
      if (d != axis) others.push_back(d);
    if (!others.empty()) positions = builder_.broadcast(positions, others);
    return type(positions).shape == shape ? positions : builder_.expand(positions, shape);
  }

  Value make_indexing(OpKind op) {
    Value x = at_least_rank_one(pick_tensor());
    const int64_t axis = static_cast<int64_t>(index(static_cast<size_t>(type(x).rank())));
    Shape shape = type(x).shape;
    if (shape[static_cast<size_t>(axis)] == 0) {  // an empty axis admits no index
      shape[static_cast<size_t>(axis)] = uniform(int64_t{1}, options_.max_extent);
      x = fit_shape(x, shape);
    }
    const int64_t extent = shape[static_cast<size_t>(axis)];
    switch (op) {
      case OpKind::IndexSelect:
        return builder_.index_select(x, axis, in_range_indices(random_extent(), extent));
      case OpKind::Select: {
        const Number position = Number::of_int(uniform(-extent, extent - 1));
        if (chance(0.5)) return builder_.select(x, axis, builder_.constant(position, DType::Int64));
        return builder_.select(x, axis, builder_.reshape(in_range_indices(1, extent), {}));
      }
      case OpKind::Gather: {
        Shape index_shape = shape;
        for (size_t d = 0; d < index_shape.size(); ++d)
          index_shape[d] = static_cast<int64_t>(d) == axis ? random_extent() : uniform(int64_t{0}, shape[d]);
        return builder_.gather(x, axis, index_along(index_shape, axis, extent));
      }
      case OpKind::TakeAlongAxis: {
        Shape index_shape = shape;
        for (size_t d = 0; d < index_shape.size(); ++d) {
          if (static_cast<int64_t>(d) == axis)
            index_shape[d] = random_extent();
          else if (shape[d] == 1)
            index_shape[d] = random_extent();  // the data broadcasts
          else if (chance(0.4))
            index_shape[d] = 1;  // the index broadcasts
        }
        return builder_.take_along_axis(x, index_along(index_shape, axis, extent), axis);
      }
      default: SEAM_ASSERT(false, "not an indexing op");
    }
    return {};
  }

  // scatter: an index no larger than the data off the axis, of any length along it, in range as
  // make_indexing's; a source of the data's dtype at least the index's extents, or a scalar of any dtype
  // but the storage-only ones.
  Value make_scatter() {
    Value x = at_least_rank_one(pick_tensor());
    const int64_t rank = type(x).rank();
    const size_t axis = index(static_cast<size_t>(rank));
    Shape shape = type(x).shape;
    if (shape[axis] == 0) {  // an empty axis admits no index
      shape[axis] = uniform(int64_t{1}, options_.max_extent);
      x = fit_shape(x, shape);
    }
    Shape index_shape = shape;
    for (size_t d = 0; d < index_shape.size(); ++d)
      index_shape[d] = d == axis ? random_extent() : uniform(int64_t{0}, shape[d]);
    const Value positions = index_along(index_shape, static_cast<int64_t>(axis), shape[axis]);
    const DType dtype = type(x).dtype;
    Value src;
    if (chance(0.3)) {
      DType scalar = random_dtype();
      if (is_float8(scalar)) scalar = DType::Float32;
      src = chance(0.5) ? builder_.constant(random_literal(scalar), scalar)
                        : builder_.input(Type::scalar(scalar));
    } else {
      Shape src_shape = index_shape;
      for (int64_t& e : src_shape)
        if (chance(0.3)) e += uniform(int64_t{1}, int64_t{2});
      src = fit(pick_tensor(), src_shape, dtype);
    }
    return builder_.scatter(x, static_cast<int64_t>(axis) - (chance(0.3) ? rank : 0), positions, src);
  }

  Value make_reduction(OpKind op) {
    Value x = at_least_rank_one(pick_tensor());
    std::vector<int64_t> all_axes(static_cast<size_t>(type(x).rank()));
    std::iota(all_axes.begin(), all_axes.end(), int64_t{0});
    std::vector<int64_t> axes = random_subset(all_axes, true);
    if (op == OpKind::Max || op == OpKind::Min) {  // they need every reduced axis non-empty
      Shape shape = type(x).shape;
      for (int64_t a : axes)
        shape[static_cast<size_t>(a)] = std::max<int64_t>(shape[static_cast<size_t>(a)], 1);
      x = fit_shape(x, shape);
    }
    return builder_.reduce(op, x, axes, chance(0.4));
  }

  Value fit(Value v, Shape shape, DType dtype) { return fit_dtype(fit_shape(v, shape), dtype); }

  Value make_opaque(OpKind op) {
    DType dtype = random_float_dtype();
    int64_t m = random_extent(), k = random_extent(), n = random_extent();
    if (op == OpKind::Matmul) {
      Shape a{m, k}, b{k, n};
      int64_t batch = random_extent();
      switch (uniform(int64_t{0}, int64_t{3})) {
        case 0: break;
        case 1: a.insert(a.begin(), batch); break;
        case 2:
          a.insert(a.begin(), batch);
          b.insert(b.begin(), batch);
          break;
        default: a.insert(a.begin(), 1); b.insert(b.begin(), batch);
      }
      return builder_.matmul(fit(pick_tensor(), a, dtype), fit(pick_tensor(), b, dtype));
    }
    Shape x_shape = random_shape(random_rank(1));
    x_shape.back() = k;
    Value x = fit(pick_tensor(), x_shape, dtype);
    Value weight = fit(pick_tensor(), {n, k}, dtype);
    std::optional<Value> bias;
    if (chance(0.5)) bias = fit(pick_tensor(), {n}, dtype);
    return builder_.linear(x, weight, bias);
  }

  std::vector<FusionOutput> choose_outputs() {
    std::vector<bool> used(static_cast<size_t>(builder_.num_nodes()), false);
    for (int32_t id = 0; id < builder_.num_nodes(); ++id)
      for (Value operand : builder_.node(Value{id}).operands) used[static_cast<size_t>(operand.id)] = true;
    std::vector<FusionOutput> outputs;
    for (int32_t id = 0; id < builder_.num_nodes(); ++id)
      if (!used[static_cast<size_t>(id)] || chance(0.1)) outputs.push_back({Value{id}, ""});
    std::shuffle(outputs.begin(), outputs.end(), rng_);
    for (size_t i = 0; i < outputs.size(); ++i)
      if (chance(0.4)) outputs[i].name = "out" + std::to_string(i);
    return outputs;
  }

  RandomFusionOptions options_;
  std::mt19937_64 rng_;
  Builder builder_;
  std::vector<OpKind> choices_;
  std::vector<Value> values_;
  int next_input_name_ = 0;
};

}  // namespace

Fusion random_fusion(uint64_t seed, const RandomFusionOptions& options) {
  return Generator(seed, options).generate();
}

}  // namespace seam
