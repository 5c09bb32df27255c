#include "ir/builder.h"

#include <algorithm>

#include "ir/infer.h"
#include "ir/limits.h"
#include "ir/verify.h"
#include "support/checked_math.h"
#include "support/error.h"

namespace seam {
namespace {

// Axis attributes may count from the end, as in PyTorch (-1: the last axis); a fusion stores them counted
// from the start. An axis out of range either way is left for the shape rules to report as written.
void count_axes_from_start(OpKind op, const std::vector<Type>& operands, Attrs& attrs) {
  if (operands.empty()) return;
  const int64_t in_rank = operands[0].rank();
  auto fix = [](int64_t& axis, int64_t rank) {
    if (axis < 0 && axis >= -rank) axis += rank;
  };
  auto fix_list = [&](const char* key, int64_t rank) {
    const AttrValue* value = attrs.find(key);
    if (!value || !std::holds_alternative<std::vector<int64_t>>(*value)) return;
    std::vector<int64_t> axes = std::get<std::vector<int64_t>>(*value);
    if (std::none_of(axes.begin(), axes.end(), [](int64_t a) { return a < 0; })) return;
    for (int64_t& a : axes) fix(a, rank);
    attrs.set(key, std::move(axes));
  };
  switch (op) {
    case OpKind::Broadcast: {
      const AttrValue* axes = attrs.find("axes");
      if (axes && std::holds_alternative<std::vector<int64_t>>(*axes))
        fix_list("axes", in_rank + static_cast<int64_t>(std::get<std::vector<int64_t>>(*axes).size()));
      break;
    }
    case OpKind::Squeeze:
    case OpKind::Sum:
    case OpKind::Max:
    case OpKind::Min:
    case OpKind::Prod: fix_list("axes", in_rank); break;
    case OpKind::Permute: fix_list("perm", in_rank); break;
    case OpKind::Cat:
    case OpKind::Scatter:
    case OpKind::Cumsum:  // a rank-0 scan scans axis 0 (or -1), as torch allows
    case OpKind::Cumprod:
    case OpKind::Cummin:
    case OpKind::Cummax:
      if (const AttrValue* axis = attrs.find("axis"); axis && std::holds_alternative<int64_t>(*axis)) {
        int64_t a = std::get<int64_t>(*axis);
        fix(a, op == OpKind::Cat ? in_rank : std::max<int64_t>(in_rank, 1));
        attrs.set("axis", a);
      }
      break;
    default: break;
  }
}

}  // namespace

Value Builder::add(OpKind op, std::vector<Value> operands, Attrs attrs, std::optional<Type> declared) {
  const int32_t id = static_cast<int32_t>(nodes_.size());
  const OpInfo& info = op_info(op);
  try {
    check_fusion_size(int64_t{id} + 1, 0);
    std::vector<Type> operand_types;
    operand_types.reserve(operands.size());
    for (Value v : operands) {
      SEAM_CHECK(v.id >= 0 && v.id < id, "operand %", v.id, " is not defined before this op");
      operand_types.push_back(nodes_[static_cast<size_t>(v.id)].type);
    }
    count_axes_from_start(op, operand_types, attrs);
    attrs.normalize(info);
    Type type = infer_type(op, operand_types, attrs, declared);
    if (declared && info.category != OpCategory::Leaf)
      SEAM_CHECK(*declared == type, "declared type ", declared->to_string(), " differs from the inferred ",
                 type.to_string());
    nodes_.push_back(Node{op, std::move(operands), std::move(attrs), std::move(type), {}});
  } catch (const Error& e) {
    // The shape rules often start with the op's name already: say it once.
    std::string_view message = e.what();
    const std::string named = detail::concat(info.keyword, ": ");
    if (message.starts_with(named)) message.remove_prefix(named.size());
    throw Error(detail::concat("%", id, " = ", info.keyword, ": ", message));
  }
  return Value{id};
}

Value Builder::copy(const Node& node, std::vector<Value> operands) {
  std::optional<Type> declared;
  if (node.category() == OpCategory::Leaf) declared = node.type;
  Value v = add(node.op, std::move(operands), node.attrs, std::move(declared));
  nodes_[static_cast<size_t>(v.id)].source_name = node.source_name;
  return v;
}

void Builder::set_source_name(Value v, std::string name) {
  SEAM_CHECK(v.id >= 0 && v.id < num_nodes(), "value %", v.id, " does not exist");
  nodes_[static_cast<size_t>(v.id)].source_name = std::move(name);
}

const Type& Builder::type(Value v) const { return node(v).type; }

const Node& Builder::node(Value v) const {
  SEAM_CHECK(v.id >= 0 && v.id < num_nodes(), "value %", v.id, " does not exist");
  return nodes_[static_cast<size_t>(v.id)];
}

int64_t Builder::normalize_axis(int64_t axis, int rank, const char* op) const {
  SEAM_CHECK(axis >= -rank && axis < rank, op, ": axis ", axis, " out of range for rank ", rank);
  return axis < 0 ? axis + rank : axis;
}

Value Builder::input(Type type, std::string name, Shape strides) {
  Attrs attrs;
  if (!name.empty()) attrs.set("name", std::move(name));
  if (!strides.empty()) attrs.set("strides", std::move(strides));
  return add(OpKind::Input, {}, std::move(attrs), std::move(type));
}

Value Builder::constant(Number value, DType dtype) {
  return add(OpKind::Const, {}, {{"value", value}}, Type::scalar(dtype));
}

Value Builder::full(Shape shape, DType dtype, Number value) {
  return add(OpKind::Full, {}, {{"value", value}}, Type::tensor(dtype, std::move(shape)));
}

Value Builder::uniform(Value lo, Value hi, Value seed, Value offset, Shape shape, DType dtype) {
  return add(OpKind::Uniform, {lo, hi, seed, offset}, {{"shape", std::move(shape)}, {"dtype", dtype}});
}

Value Builder::normal(Value mean, Value std, Value seed, Value offset, Shape shape, DType dtype) {
  return add(OpKind::Normal, {mean, std, seed, offset}, {{"shape", std::move(shape)}, {"dtype", dtype}});
}

Value Builder::iota(int64_t length, DType dtype, Number start, Number step) {
  return add(OpKind::Iota, {}, {{"start", start}, {"step", step}}, Type::tensor(dtype, {length}));
}

Value Builder::cast(Value x, DType dtype) { return add(OpKind::Cast, {x}, {{"dtype", dtype}}); }

Value Builder::broadcast(Value x, std::vector<int64_t> new_axes) {
  int out_rank = type(x).rank() + static_cast<int>(new_axes.size());
  for (int64_t& a : new_axes) a = normalize_axis(a, out_rank, "broadcast");
  std::sort(new_axes.begin(), new_axes.end());
  return add(OpKind::Broadcast, {x}, {{"axes", std::move(new_axes)}});
}

Value Builder::expand(Value x, Shape shape) {
  const Shape& in = type(x).shape;
  for (size_t i = 0; i < shape.size() && i < in.size(); ++i)
    if (shape[i] == -1) shape[i] = in[i];
  return add(OpKind::Expand, {x}, {{"shape", std::move(shape)}});
}

Value Builder::squeeze(Value x, std::vector<int64_t> axes) {
  for (int64_t& a : axes) a = normalize_axis(a, type(x).rank(), "squeeze");
  std::sort(axes.begin(), axes.end());
  return add(OpKind::Squeeze, {x}, {{"axes", std::move(axes)}});
}

Value Builder::reshape(Value x, Shape shape) {
  auto infer_at = std::find(shape.begin(), shape.end(), -1);
  if (infer_at != shape.end()) {
    SEAM_CHECK(std::count(shape.begin(), shape.end(), -1) == 1, "reshape: at most one -1 in ",
               shape_to_string(shape));
    int64_t known = 1;
    for (int64_t e : shape) {
      if (e == -1) continue;
      const std::optional<int64_t> next = checked_mul(known, e);
      SEAM_CHECK(next.has_value(), "reshape: ", shape_to_string(shape), " has too many elements");
      known = *next;
    }
    int64_t numel = type(x).numel();
    SEAM_CHECK(known > 0 && numel % known == 0, "reshape: cannot infer -1 viewing ", type(x).to_string(),
               " as ", shape_to_string(shape));
    *infer_at = numel / known;
  }
  return add(OpKind::Reshape, {x}, {{"shape", std::move(shape)}});
}

Value Builder::permute(Value x, std::vector<int64_t> perm) {
  for (int64_t& p : perm) p = normalize_axis(p, type(x).rank(), "permute");
  return add(OpKind::Permute, {x}, {{"perm", std::move(perm)}});
}

Value Builder::slice(Value x, std::vector<int64_t> starts, std::vector<int64_t> stops,
                     std::vector<int64_t> steps) {
  return add(OpKind::Slice, {x},
             {{"starts", std::move(starts)}, {"stops", std::move(stops)}, {"steps", std::move(steps)}});
}

Value Builder::slice_axis(Value x, int64_t axis, int64_t start, int64_t stop, int64_t step) {
  const Shape& shape = type(x).shape;
  const int rank = type(x).rank();
  axis = normalize_axis(axis, rank, "slice");
  SEAM_CHECK(step >= 1, "slice: step must be >= 1, got ", step);
  const int64_t extent = shape[axis];
  auto clamp = [extent](int64_t i) {
    if (i < 0) i += extent;
    return std::clamp<int64_t>(i, 0, extent);
  };
  std::vector<int64_t> starts(rank, 0), stops(shape.begin(), shape.end()), steps(rank, 1);
  starts[axis] = clamp(start);
  stops[axis] = std::max(starts[axis], clamp(stop));
  steps[axis] = step;
  return slice(x, std::move(starts), std::move(stops), std::move(steps));
}

Value Builder::pad(Value x, std::vector<int64_t> low, std::vector<int64_t> high, Number value) {
  return add(OpKind::Pad, {x}, {{"low", std::move(low)}, {"high", std::move(high)}, {"value", value}});
}

Value Builder::cat(std::vector<Value> xs, int64_t axis) {
  SEAM_CHECK(!xs.empty(), "cat needs at least one operand");
  axis = normalize_axis(axis, type(xs[0]).rank(), "cat");
  return add(OpKind::Cat, std::move(xs), {{"axis", axis}});
}

Value Builder::index_select(Value x, int64_t axis, Value index) {
  axis = normalize_axis(axis, type(x).rank(), "index_select");
  return add(OpKind::IndexSelect, {x, index}, {{"axis", axis}});
}

Value Builder::gather(Value x, int64_t axis, Value index) {
  axis = normalize_axis(axis, type(x).rank(), "gather");
  return add(OpKind::Gather, {x, index}, {{"axis", axis}});
}

Value Builder::take_along_axis(Value x, Value index, int64_t axis) {
  axis = normalize_axis(axis, type(x).rank(), "take_along_axis");
  return add(OpKind::TakeAlongAxis, {x, index}, {{"axis", axis}});
}

Value Builder::select(Value x, int64_t axis, Value index) {
  axis = normalize_axis(axis, type(x).rank(), "select");
  return add(OpKind::Select, {x, index}, {{"axis", axis}});
}

Value Builder::scatter(Value x, int64_t axis, Value index, Value src) {
  axis = normalize_axis(axis, type(x).rank(), "scatter");
  return add(OpKind::Scatter, {x, index, src}, {{"axis", axis}});
}

Value Builder::broadcast_to(Value x, const Shape& shape) {
  const Type& t = type(x);
  SEAM_CHECK(!t.is_scalar, "broadcast_to needs a tensor");
  SEAM_CHECK(t.rank() <= static_cast<int>(shape.size()), "broadcast_to: cannot broadcast ", t.to_string(),
             " to the lower rank ", shape_to_string(shape));
  if (t.shape == shape) return x;
  int leading = static_cast<int>(shape.size()) - t.rank();
  Value y = x;
  if (leading > 0) {
    std::vector<int64_t> axes(leading);
    for (int i = 0; i < leading; ++i) axes[i] = i;
    y = broadcast(y, axes);
  }
  return type(y).shape == shape ? y : expand(y, shape);
}

Value Builder::reduce(OpKind op, Value x, std::vector<int64_t> axes, bool keepdim) {
  for (int64_t& a : axes) a = normalize_axis(a, type(x).rank(), "reduction");
  std::sort(axes.begin(), axes.end());
  return add(op, {x}, {{"axes", std::move(axes)}, {"keepdim", keepdim}});
}

Value Builder::scan(OpKind op, Value x, int64_t axis) {
  SEAM_CHECK(op_info(op).category == OpCategory::Scan, "Builder::scan: '", op_name(op), "' is not a scan");
  return add(op, {x}, {{"axis", axis}});
}

Value Builder::linear(Value x, Value weight, std::optional<Value> bias) {
  std::vector<Value> operands = {x, weight};
  if (bias) operands.push_back(*bias);
  return add(OpKind::Linear, std::move(operands));
}

Fusion Builder::finish(std::vector<FusionOutput> outputs) {
  check_fusion_size(num_nodes(), static_cast<int64_t>(outputs.size()));
  for (const FusionOutput& out : outputs)
    SEAM_CHECK(out.value.id >= 0 && out.value.id < num_nodes(), "output %", out.value.id,
               " is not a value of this fusion");
  Fusion fusion(std::move(name_), std::move(nodes_), std::move(outputs));
  verify(fusion);
  return fusion;
}

Fusion Builder::finish(const std::vector<Value>& outputs) {
  std::vector<FusionOutput> named;
  for (Value v : outputs) named.push_back({v, ""});
  return finish(std::move(named));
}

}  // namespace seam
