#include "ir/infer.h"

#include <algorithm>
#include <numeric>

#include "ir/limits.h"
#include "support/checked_math.h"
#include "support/error.h"

namespace seam {
namespace {

// Every type built passes the size limits (ir/limits.h), so that no later product overflows.
Type checked(Type type) {
  check_type_limits(type);
  return type;
}

PromotionTier tier_of(const Type& t) {
  if (t.is_scalar) return PromotionTier::Scalar;
  return t.rank() == 0 ? PromotionTier::ZeroDimTensor : PromotionTier::Tensor;
}

DType promoted(const std::vector<Type>& operands, size_t first = 0) {
  std::vector<PromotionOperand> ops;
  for (size_t i = first; i < operands.size(); ++i) ops.push_back({operands[i].dtype, tier_of(operands[i])});
  return result_type(ops.data(), static_cast<int>(ops.size()));
}

// A literal fits a dtype when its category is not higher (2.5 cannot initialize an i32).
void check_literal_fits(const Number& value, DType dtype, std::string_view what) {
  DTypeCategory literal = value.kind() == Number::Kind::Bool  ? DTypeCategory::Bool
                          : value.kind() == Number::Kind::Int ? DTypeCategory::Integer
                                                              : DTypeCategory::Floating;
  SEAM_CHECK(literal <= dtype_category(dtype), what, " ", value.to_string(), " does not fit dtype ",
             dtype_name(dtype));
}

void check_extents(const Shape& shape, std::string_view what) {
  for (int64_t e : shape) SEAM_CHECK(e >= 0, what, " has a negative extent in ", shape_to_string(shape));
}

const Type& tensor_operand(const std::vector<Type>& operands, size_t i, std::string_view op) {
  SEAM_CHECK(!operands[i].is_scalar, "op '", op, "' needs a tensor operand, got scalar ",
             operands[i].to_string());
  return operands[i];
}

// Axes must be strictly increasing and inside [0, rank).
void check_axes(const std::vector<int64_t>& axes, int rank, std::string_view op) {
  for (size_t i = 0; i < axes.size(); ++i) {
    SEAM_CHECK(axes[i] >= 0 && axes[i] < rank, "op '", op, "': axis ", axes[i], " out of range for rank ",
               rank);
    SEAM_CHECK(i == 0 || axes[i] > axes[i - 1], "op '", op, "': axes must be strictly increasing, got ",
               shape_to_string(axes));
  }
}

void check_per_axis(const std::vector<int64_t>& list, int rank, std::string_view op, std::string_view key) {
  SEAM_CHECK(static_cast<int>(list.size()) == rank, "op '", op, "': '", key, "' has ", list.size(),
             " entries for rank ", rank);
}

Type infer_leaf(OpKind op, const Attrs& attrs, const std::optional<Type>& declared) {
  std::string_view name = op_name(op);
  SEAM_CHECK(declared.has_value(), "op '", name, "' needs a declared result type");
  const Type& t = *declared;
  check_extents(t.shape, "declared type");
  switch (op) {
    case OpKind::Input:
      if (const AttrValue* strides = attrs.find("strides")) {
        SEAM_CHECK(!t.is_scalar, "a scalar input has no strides");
        const auto& s = std::get<std::vector<int64_t>>(*strides);
        check_per_axis(s, t.rank(), name, "strides");
        for (int64_t v : s)
          SEAM_CHECK(v >= 0, "input strides must be non-negative, got ", shape_to_string(s));
        check_type_limits(t);  // before the strides, whose reach is a product of the extents
        check_strides_limits(t, s);
      }
      break;
    case OpKind::Const:
      SEAM_CHECK(t.is_scalar, "const must have a scalar type, got ", t.to_string());
      check_literal_fits(attrs.get_number("value"), t.dtype, "value");
      break;
    case OpKind::Full:
      SEAM_CHECK(!t.is_scalar, "full must have a tensor type, got ", t.to_string());
      check_literal_fits(attrs.get_number("value"), t.dtype, "value");
      break;
    case OpKind::Iota:
      SEAM_CHECK(!t.is_scalar && t.rank() == 1, "iota must have a rank-1 tensor type, got ", t.to_string());
      SEAM_CHECK(t.dtype != DType::Bool, "iota cannot have dtype bool");
      SEAM_CHECK(!is_float8(t.dtype), "iota cannot have the storage dtype ", dtype_name(t.dtype));
      check_literal_fits(attrs.get_number("start"), t.dtype, "start");
      check_literal_fits(attrs.get_number("step"), t.dtype, "step");
      SEAM_CHECK(attrs.get_number("step").as_double() != 0.0, "iota step must not be zero");
      break;
    default: SEAM_ASSERT(false, "not a leaf");
  }
  return t;
}

Type infer_pointwise(OpKind op, const std::vector<Type>& operands) {
  std::string_view name = op_name(op);
  const Type* shaped = nullptr;
  for (const Type& t : operands) {
    if (t.is_scalar) continue;
    if (!shaped) shaped = &t;
    SEAM_CHECK(t.shape == shaped->shape, "op '", name, "': operand shapes differ (", shaped->to_string(),
               " vs ", t.to_string(), "); broadcast and expand operands to one shape first");
  }
  Type result = shaped ? Type::tensor(DType::Float32, shaped->shape) : Type::scalar(DType::Float32);
  const OpInfo& info = op_info(op);
  switch (info.dtype_rule) {
    case DTypeRule::Same:
      result.dtype = operands[0].dtype;
      SEAM_CHECK(result.dtype != DType::Bool, "op '", name, "' does not accept bool");
      break;
    case DTypeRule::ToFloat:
      result.dtype = is_floating(operands[0].dtype) ? operands[0].dtype : DType::Float32;
      break;
    case DTypeRule::ToBool:
    case DTypeRule::Compare:
    case DTypeRule::Logical: result.dtype = DType::Bool; break;
    case DTypeRule::Promote:
      result.dtype = promoted(operands);
      SEAM_CHECK(result.dtype != DType::Bool, "op '", name,
                 "' does not accept bool operands; use logical ops or cast first");
      break;
    case DTypeRule::PromoteFloat:
      result.dtype = promoted(operands);
      if (!is_floating(result.dtype)) result.dtype = DType::Float32;
      break;
    case DTypeRule::Where:
      SEAM_CHECK(operands[0].dtype == DType::Bool, "where: condition must be bool, got ",
                 dtype_name(operands[0].dtype));
      result.dtype = promoted(operands, 1);
      break;
    case DTypeRule::FloatingOnly:
      result.dtype = promoted(operands);
      SEAM_CHECK(is_floating(result.dtype), "op '", name, "' needs floating operands, got ",
                 dtype_name(result.dtype));
      break;
    case DTypeRule::IntegerOnly:
      for (const Type& t : operands)
        SEAM_CHECK(is_integer(t.dtype), "op '", name, "' needs integer operands, got ", t.to_string());
      result.dtype = promoted(operands);
      break;
    case DTypeRule::Predicate: result.dtype = DType::Bool; break;
    case DTypeRule::None: SEAM_ASSERT(false, "pointwise op without a dtype rule");
  }
  return result;
}

Shape broadcast_batch(const Shape& a, const Shape& b, std::string_view op) {
  size_t rank = std::max(a.size(), b.size());
  Shape out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t ea = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t eb = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    SEAM_CHECK(ea == eb || ea == 1 || eb == 1, "op '", op, "': batch extents ", shape_to_string(a), " and ",
               shape_to_string(b), " do not broadcast");
    out[i] = ea == 1 ? eb : ea;
  }
  return out;
}

Type infer_opaque(OpKind op, const std::vector<Type>& operands) {
  std::string_view name = op_name(op);
  for (size_t i = 0; i < operands.size(); ++i) {
    const Type& t = tensor_operand(operands, i, name);
    SEAM_CHECK(is_floating(t.dtype), "op '", name, "' needs floating operands, got ", t.to_string());
    SEAM_CHECK(t.dtype == operands[0].dtype, "op '", name, "': operand dtypes differ (",
               operands[0].to_string(), " vs ", t.to_string(), ")");
  }
  const Shape& a = operands[0].shape;
  const Shape& b = operands[1].shape;
  if (op == OpKind::Matmul) {
    SEAM_CHECK(a.size() >= 2 && b.size() >= 2, "matmul needs operands of rank >= 2, got ",
               operands[0].to_string(), " and ", operands[1].to_string());
    SEAM_CHECK(a.back() == b[b.size() - 2], "matmul: inner extents differ (", operands[0].to_string(), " @ ",
               operands[1].to_string(), ")");
    Shape out = broadcast_batch(Shape(a.begin(), a.end() - 2), Shape(b.begin(), b.end() - 2), name);
    out.push_back(a[a.size() - 2]);
    out.push_back(b.back());
    return Type::tensor(operands[0].dtype, out);
  }
  SEAM_CHECK(a.size() >= 1 && b.size() == 2, "linear needs x of rank >= 1 and a weight of rank 2, got ",
             operands[0].to_string(), " and ", operands[1].to_string());
  SEAM_CHECK(a.back() == b[1], "linear: x's last extent ", a.back(), " differs from the weight's ", b[1]);
  if (operands.size() == 3)
    SEAM_CHECK(operands[2].shape == Shape{b[0]}, "linear: bias must be [", b[0], "], got ",
               operands[2].to_string());
  Shape out = a;
  out.back() = b[0];
  return Type::tensor(operands[0].dtype, out);
}

namespace {

// The extents a slice keeps, each start, stop and step checked against its axis.
Shape slice_shape(const Type& in, int rank, const Attrs& attrs, std::string_view name) {
  Shape out;
  const auto &starts = attrs.get_ints("starts"), &stops = attrs.get_ints("stops"),
             &steps = attrs.get_ints("steps");
  check_per_axis(starts, rank, name, "starts");
  check_per_axis(stops, rank, name, "stops");
  check_per_axis(steps, rank, name, "steps");
  for (int i = 0; i < rank; ++i) {
    SEAM_CHECK(0 <= starts[i] && starts[i] <= stops[i] && stops[i] <= in.shape[i], "slice: axis ", i,
               ": need 0 <= start <= stop <= extent, got start ", starts[i], ", stop ", stops[i], ", extent ",
               in.shape[i]);
    SEAM_CHECK(steps[i] >= 1, "slice: axis ", i, ": step must be >= 1, got ", steps[i]);
    // ceil((stop - start) / step) without forming stop - start + step, which may overflow.
    const int64_t span = stops[i] - starts[i];
    out.push_back(span == 0 ? 0 : 1 + (span - 1) / steps[i]);
  }
  return out;
}

// The padded extents, the widths bounded like extents.
Shape pad_shape(const Type& in, int rank, const Attrs& attrs, std::string_view name) {
  Shape out;
  const auto &low = attrs.get_ints("low"), &high = attrs.get_ints("high");
  check_per_axis(low, rank, name, "low");
  check_per_axis(high, rank, name, "high");
  check_literal_fits(attrs.get_number("value"), in.dtype, "pad value");
  for (int i = 0; i < rank; ++i) {
    // Bounded like extents, since generated index arithmetic adds and multiplies them; then the
    // sum below cannot overflow.
    auto bounded = [](int64_t v) { return v >= -SizeLimits::kMaxElements && v <= SizeLimits::kMaxElements; };
    SEAM_CHECK(bounded(low[i]) && bounded(high[i]), "pad: axis ", i, ": low ", low[i], " and high ", high[i],
               " must have magnitude at most 2^40");
    const int64_t e = in.shape[i] + low[i] + high[i];
    SEAM_CHECK(e >= 0, "pad: axis ", i, ": extent ", in.shape[i], " padded by ", low[i], " and ", high[i],
               " is negative");
    out.push_back(e);
  }
  return out;
}

// Operand 0's shape with the concatenation axis summed over the operands, which must agree elsewhere.
Shape cat_shape(const std::vector<Type>& operands, const Type& in, int rank, const Attrs& attrs,
                std::string_view name) {
  Shape out;
  int64_t axis = attrs.get_int("axis");
  SEAM_CHECK(axis >= 0 && axis < rank, "cat: axis ", axis, " out of range for rank ", rank);
  out = in.shape;
  out[axis] = 0;
  for (size_t i = 0; i < operands.size(); ++i) {
    const Type& t = tensor_operand(operands, i, name);
    SEAM_CHECK(t.dtype == in.dtype, "cat: operand ", i, " has dtype ", dtype_name(t.dtype),
               ", operand 0 has ", dtype_name(in.dtype));
    SEAM_CHECK(t.rank() == rank, "cat: operand ", i, " has rank ", t.rank(), ", operand 0 has ", rank);
    for (int d = 0; d < rank; ++d)
      SEAM_CHECK(d == axis || t.shape[d] == in.shape[d], "cat: operand ", i, " is ", t.to_string(),
                 ", operand 0 is ", in.to_string(), "; they may differ only on axis ", axis);
    const std::optional<int64_t> sum = checked_add(out[axis], t.shape[axis]);
    SEAM_CHECK(sum.has_value(), "cat: the extents of axis ", axis, " overflow when summed");
    out[axis] = *sum;
  }
  return out;
}

}  // namespace

Type infer_movement(OpKind op, const std::vector<Type>& operands, const Attrs& attrs) {
  std::string_view name = op_name(op);
  const Type& in = tensor_operand(operands, 0, name);
  const int rank = in.rank();
  Shape out;
  switch (op) {
    case OpKind::Broadcast: {
      const auto& axes = attrs.get_ints("axes");
      int out_rank = rank + static_cast<int>(axes.size());
      check_axes(axes, out_rank, name);
      size_t next_in = 0, next_axis = 0;
      for (int i = 0; i < out_rank; ++i) {
        if (next_axis < axes.size() && axes[next_axis] == i) {
          out.push_back(1);
          ++next_axis;
        } else {
          out.push_back(in.shape[next_in++]);
        }
      }
      break;
    }
    case OpKind::Expand: {
      out = attrs.get_ints("shape");
      check_per_axis(out, rank, name, "shape");
      for (int i = 0; i < rank; ++i) {
        SEAM_CHECK(out[i] >= 0, "expand: axis ", i, ": the extent ", out[i], " is negative");
        SEAM_CHECK(out[i] == in.shape[i] || in.shape[i] == 1, "expand: axis ", i, " of extent ", in.shape[i],
                   " cannot become ", out[i], " (only extent 1 expands)");
      }
      break;
    }
    case OpKind::Squeeze: {
      const auto& axes = attrs.get_ints("axes");
      check_axes(axes, rank, name);
      for (int64_t a : axes)
        SEAM_CHECK(in.shape[a] == 1, "squeeze: axis ", a, " has extent ", in.shape[a], ", not 1");
      for (int i = 0; i < rank; ++i)
        if (!std::binary_search(axes.begin(), axes.end(), i)) out.push_back(in.shape[i]);
      break;
    }
    case OpKind::Reshape: {
      out = attrs.get_ints("shape");
      check_extents(out, "reshape target");
      SEAM_CHECK(checked(Type::tensor(in.dtype, out)).numel() == in.numel(), "reshape: cannot view ",
                 in.to_string(), " (", in.numel(), " elements) as ", shape_to_string(out));
      break;
    }
    case OpKind::Permute: {
      const auto& perm = attrs.get_ints("perm");
      check_per_axis(perm, rank, name, "perm");
      std::vector<bool> seen(rank, false);
      for (int64_t p : perm) {
        SEAM_CHECK(p >= 0 && p < rank && !seen[p], "permute: ", shape_to_string(perm),
                   " is not a permutation of 0..", rank - 1);
        seen[p] = true;
        out.push_back(in.shape[p]);
      }
      break;
    }
    case OpKind::Slice: out = slice_shape(in, rank, attrs, name); break;
    case OpKind::Pad: out = pad_shape(in, rank, attrs, name); break;
    case OpKind::Cat: out = cat_shape(operands, in, rank, attrs, name); break;
    default: SEAM_ASSERT(false, "not a movement op");
  }
  return Type::tensor(in.dtype, out);
}

Type infer_reduction(OpKind op, const std::vector<Type>& operands, const Attrs& attrs) {
  std::string_view name = op_name(op);
  const Type& in = tensor_operand(operands, 0, name);
  const auto& axes = attrs.get_ints("axes");
  SEAM_CHECK(!axes.empty(), "op '", name, "' needs at least one axis");
  check_axes(axes, in.rank(), name);
  bool keepdim = attrs.get_bool("keepdim");
  Shape out;
  for (int i = 0; i < in.rank(); ++i) {
    bool reduced = std::binary_search(axes.begin(), axes.end(), i);
    if (reduced && op != OpKind::Sum && op != OpKind::Prod)
      SEAM_CHECK(in.shape[i] > 0, "op '", name, "': cannot reduce axis ", i, " of extent 0");
    if (!reduced)
      out.push_back(in.shape[i]);
    else if (keepdim)
      out.push_back(1);
  }
  DType dtype = in.dtype;
  if ((op == OpKind::Sum || op == OpKind::Prod) && !is_floating(dtype)) dtype = DType::Int64;  // like torch
  return Type::tensor(dtype, out);
}

// cumsum(x, axis), cumprod, cummin, cummax: x's shape. Sums and products of integer and bool inputs
// accumulate in i64 (torch.cumsum, torch.cumprod), floating ones keep their dtype; running minima and
// maxima keep x's dtype. A rank-0 tensor scans its one element (axis 0), as torch allows.
Type infer_scan(OpKind op, const std::vector<Type>& operands, const Attrs& attrs) {
  std::string_view name = op_name(op);
  const Type& in = tensor_operand(operands, 0, name);
  const int64_t axis = attrs.get_int("axis");
  SEAM_CHECK(axis >= 0 && axis < std::max(in.rank(), 1), "op '", name, "': axis ", axis, " out of range for ",
             in.to_string());
  const bool accumulates = op == OpKind::Cumsum || op == OpKind::Cumprod;
  return Type::tensor(accumulates && !is_floating(in.dtype) ? DType::Int64 : in.dtype, in.shape);
}

// uniform(lo, hi, seed, offset) and normal(mean, std, seed, offset): four scalars in, a floating tensor of
// the attributes' shape and dtype out (docs/RANDOM.md).
Type infer_random(OpKind op, const std::vector<Type>& operands, const Attrs& attrs) {
  std::string_view name = op_name(op);
  static constexpr std::string_view uniform_roles[] = {"lo", "hi", "seed", "offset"};
  static constexpr std::string_view normal_roles[] = {"mean", "std", "seed", "offset"};
  const auto& roles = op == OpKind::Uniform ? uniform_roles : normal_roles;
  for (size_t i = 0; i < operands.size(); ++i) {
    SEAM_CHECK(operands[i].is_scalar, "op '", name, "': operand ", i, " (", roles[i],
               ") must be a scalar, got ", operands[i].to_string());
    if (i < 2)
      SEAM_CHECK(operands[i].dtype != DType::Bool, "op '", name, "': operand ", i, " (", roles[i],
                 ") must be a number, not bool");
    else
      SEAM_CHECK(operands[i].dtype == DType::Int32 || operands[i].dtype == DType::Int64, "op '", name,
                 "': operand ", i, " (", roles[i], ") must be an integer scalar (i32 or i64), got ",
                 dtype_name(operands[i].dtype));
  }
  const DType dtype = attrs.get_dtype("dtype");
  SEAM_CHECK(is_floating(dtype) && !is_float8(dtype), "op '", name,
             "' makes floating numbers (f16, bf16, f32, f64), not ", dtype_name(dtype));
  const Shape& shape = attrs.get_ints("shape");
  check_extents(shape, "shape");
  return Type::tensor(dtype, shape);
}

// Indexing ops (ir/indexing.h): the data operand's dtype, the shape each op's rule gives.
Type infer_indexing(OpKind op, const std::vector<Type>& operands, const Attrs& attrs) {
  std::string_view name = op_name(op);
  const Type& data = tensor_operand(operands, 0, name);
  const Type& index = operands[1];
  const int rank = data.rank();
  const int64_t axis = attrs.get_int("axis");
  SEAM_CHECK(axis >= 0 && axis < rank, name, ": axis ", axis, " out of range for rank ", rank);
  const size_t a = static_cast<size_t>(axis);
  SEAM_CHECK(is_integer(index.dtype), name, ": the index must have an integer dtype, got ",
             index.to_string());
  Shape out = data.shape;
  switch (op) {
    case OpKind::IndexSelect:
      SEAM_CHECK(!index.is_scalar && index.rank() == 1, name, ": the index must be a rank-1 tensor, got ",
                 index.to_string());
      out[a] = index.shape[0];
      break;
    case OpKind::Select:
      SEAM_CHECK(index.is_scalar || index.rank() == 0, name,
                 ": the index must be a scalar or a rank-0 tensor, got ", index.to_string());
      out.erase(out.begin() + axis);
      break;
    case OpKind::Gather:
    case OpKind::TakeAlongAxis: {
      SEAM_CHECK(!index.is_scalar && index.rank() == rank, name, ": the index ", index.to_string(),
                 " must have the data's rank ", rank, " (data ", data.to_string(), ")");
      for (size_t d = 0; d < out.size(); ++d) {
        if (d == a) {
          out[d] = index.shape[d];
        } else if (op == OpKind::Gather) {
          SEAM_CHECK(index.shape[d] <= data.shape[d], name, ": the index ", index.to_string(),
                     " is larger than the data ", data.to_string(), " on axis ", d);
          out[d] = index.shape[d];
        } else {
          SEAM_CHECK(index.shape[d] == data.shape[d] || index.shape[d] == 1 || data.shape[d] == 1, name,
                     ": the index ", index.to_string(), " does not broadcast against the data ",
                     data.to_string(), " on axis ", d);
          out[d] = data.shape[d] == 1 ? index.shape[d] : data.shape[d];
        }
      }
      break;
    }
    default: SEAM_ASSERT(false, "not an indexing op");
  }
  const Type result = Type::tensor(data.dtype, out);
  SEAM_CHECK(result.numel() == 0 || data.shape[a] > 0, name, ": cannot index axis ", axis,
             " of extent 0 (data ", data.to_string(), ")");
  return result;
}

// scatter(x, index, src): x's type. The index has x's rank and an integer dtype, no larger than x off
// `axis` and than a tensor src anywhere (torch.scatter's rule); a tensor src has x's rank and dtype, a
// scalar src is converted to x's dtype as `cast` converts.
Type infer_scatter(OpKind op, const std::vector<Type>& operands, const Attrs& attrs) {
  std::string_view name = op_name(op);
  const Type& data = tensor_operand(operands, 0, name);
  const Type& index = operands[1];
  const Type& src = operands[2];
  const int rank = data.rank();
  const int64_t axis = attrs.get_int("axis");
  SEAM_CHECK(axis >= 0 && axis < rank, name, ": axis ", axis, " out of range for ", data.to_string());
  SEAM_CHECK(!index.is_scalar && is_integer(index.dtype), name,
             ": the index must be a tensor of an integer dtype, got ", index.to_string());
  SEAM_CHECK(index.rank() == rank, name, ": the index ", index.to_string(), " must have the data's rank ",
             rank, " (data ", data.to_string(), ")");
  if (!src.is_scalar) {
    SEAM_CHECK(src.rank() == rank, name, ": the source ", src.to_string(), " must have the data's rank ",
               rank, " (data ", data.to_string(), ")");
    SEAM_CHECK(src.dtype == data.dtype, name, ": the source ", src.to_string(),
               " must have the data's dtype ", dtype_name(data.dtype), " (cast it first)");
  }
  for (size_t d = 0; d < data.shape.size(); ++d) {
    SEAM_CHECK(static_cast<int64_t>(d) == axis || index.shape[d] <= data.shape[d], name, ": the index ",
               index.to_string(), " is larger than the data ", data.to_string(), " on axis ", d);
    SEAM_CHECK(src.is_scalar || index.shape[d] <= src.shape[d], name, ": the index ", index.to_string(),
               " is larger than the source ", src.to_string(), " on axis ", d);
  }
  SEAM_CHECK(index.numel() == 0 || data.shape[static_cast<size_t>(axis)] > 0, name, ": cannot index axis ",
             axis, " of extent 0 (data ", data.to_string(), ")");
  return data;
}

}  // namespace

static Type infer_type_unchecked(OpKind op, const std::vector<Type>& operands, const Attrs& attrs,
                                 const std::optional<Type>& declared);

Type infer_type(OpKind op, const std::vector<Type>& operands, const Attrs& attrs,
                const std::optional<Type>& declared) {
  return checked(infer_type_unchecked(op, operands, attrs, declared));
}

static Type infer_type_unchecked(OpKind op, const std::vector<Type>& operands, const Attrs& attrs,
                                 const std::optional<Type>& declared) {
  const OpInfo& info = op_info(op);
  const int arity = static_cast<int>(operands.size());
  SEAM_CHECK(arity >= info.min_arity && (info.max_arity < 0 || arity <= info.max_arity), "op '", info.keyword,
             "' takes ",
             info.max_arity < 0 ? "at least " + std::to_string(info.min_arity)
             : info.min_arity == info.max_arity
                 ? std::to_string(info.min_arity)
                 : std::to_string(info.min_arity) + " to " + std::to_string(info.max_arity),
             " operand(s), got ", arity);
  // f8 dtypes only store: casts, movement and indexing take them (and leaves make them); every op that
  // computes refuses them, naming the operand.
  if (info.category != OpCategory::Leaf && info.category != OpCategory::Cast &&
      info.category != OpCategory::Movement && info.category != OpCategory::Indexing &&
      info.category != OpCategory::Scatter)
    for (size_t i = 0; i < operands.size(); ++i)
      SEAM_CHECK(!is_float8(operands[i].dtype), "op '", info.keyword, "': operand ", i,
                 " has the storage dtype ", dtype_name(operands[i].dtype),
                 ", which no op computes on: cast it to f32 first");
  switch (info.category) {
    case OpCategory::Leaf: return infer_leaf(op, attrs, declared);
    case OpCategory::Unary:
    case OpCategory::Binary:
    case OpCategory::Ternary: return infer_pointwise(op, operands);
    case OpCategory::Cast: {
      Type result = operands[0];
      result.dtype = attrs.get_dtype("dtype");
      return result;
    }
    case OpCategory::Movement: return infer_movement(op, operands, attrs);
    case OpCategory::Reduction: return infer_reduction(op, operands, attrs);
    case OpCategory::Random: return infer_random(op, operands, attrs);
    case OpCategory::Indexing: return infer_indexing(op, operands, attrs);
    case OpCategory::Opaque: return infer_opaque(op, operands);
    case OpCategory::Scan: return infer_scan(op, operands, attrs);
    case OpCategory::Scatter: return infer_scatter(op, operands, attrs);
  }
  SEAM_ASSERT(false, "unknown op category");
}

DType pointwise_compute_dtype(OpKind op, const std::vector<Type>& operands) {
  const OpInfo& info = op_info(op);
  switch (info.dtype_rule) {
    case DTypeRule::Compare: return promoted(operands);
    case DTypeRule::Predicate: return operands[0].dtype;
    case DTypeRule::Logical:
    case DTypeRule::ToBool: return DType::Bool;
    default: return infer_pointwise(op, operands).dtype;
  }
}

}  // namespace seam
