// Builder: the C++ API that constructs fusions. Every op is checked when added (ir/infer.h), so a
// finished Fusion is always well-typed. Convenience methods accept Python-style negative axes and
// indices and normalize them; the IR itself stores only normalized attributes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ir/fusion.h"

namespace seam {

class Builder {
 public:
  explicit Builder(std::string name = "fusion") : name_(std::move(name)) {}

  // Adds any op: the generic entry used by the parser and by passes. Throws seam::Error prefixed with
  // the value being defined ("%7 = slice: ...").
  Value add(OpKind op, std::vector<Value> operands, Attrs attrs = {},
            std::optional<Type> declared = std::nullopt);

  // Adds a copy of `node` (from any fusion) over `operands` of this builder; leaves keep their
  // declared type. Used wherever a fusion is rebuilt piecewise (kernel fusions, passes).
  Value copy(const Node& node, std::vector<Value> operands);

  // Records the user's name of v (Node::source_name).
  void set_source_name(Value v, std::string name);

  const Type& type(Value v) const;
  const Node& node(Value v) const;
  int num_nodes() const { return static_cast<int>(nodes_.size()); }

  // Leaves.
  Value input(Type type, std::string name = "", Shape strides = {});
  Value constant(Number value, DType dtype);  // a scalar
  Value full(Shape shape, DType dtype, Number value);
  Value iota(int64_t length, DType dtype, Number start = Number::of_int(0), Number step = Number::of_int(1));

  // Pointwise.
  Value unary(OpKind op, Value x) { return add(op, {x}); }
  Value binary(OpKind op, Value a, Value b) { return add(op, {a, b}); }
  Value neg(Value x) { return unary(OpKind::Neg, x); }
  Value exp(Value x) { return unary(OpKind::Exp, x); }
  Value add(Value a, Value b) { return binary(OpKind::Add, a, b); }
  Value sub(Value a, Value b) { return binary(OpKind::Sub, a, b); }
  Value mul(Value a, Value b) { return binary(OpKind::Mul, a, b); }
  Value div(Value a, Value b) { return binary(OpKind::Div, a, b); }
  Value where(Value condition, Value a, Value b) { return add(OpKind::Where, {condition, a, b}); }
  Value cast(Value x, DType dtype);

  // Movement. Axes may be negative (counted from the end).
  Value broadcast(Value x, std::vector<int64_t> new_axes);  // new size-1 axes at these output positions
  Value expand(Value x, Shape shape);                       // -1 keeps an extent
  Value squeeze(Value x, std::vector<int64_t> axes);
  Value reshape(Value x, Shape shape);  // at most one -1, inferred
  Value permute(Value x, std::vector<int64_t> perm);
  Value slice(Value x, std::vector<int64_t> starts, std::vector<int64_t> stops, std::vector<int64_t> steps);
  // Python slicing of one axis, x[..., start:stop:step, ...]: negative indices count from the end and
  // out-of-range bounds clamp.
  Value slice_axis(Value x, int64_t axis, int64_t start, int64_t stop, int64_t step = 1);
  Value pad(Value x, std::vector<int64_t> low, std::vector<int64_t> high, Number value);
  Value cat(std::vector<Value> xs, int64_t axis);
  // NumPy broadcasting: leading size-1 axes are inserted, then size-1 axes expand.
  Value broadcast_to(Value x, const Shape& shape);

  // Indexing (docs/IR.md, "Indexing"). Axes may be negative. Arguments in PyTorch's order; take_along_axis
  // in NumPy's (and nvFuser's): data, index, axis.
  Value index_select(Value x, int64_t axis, Value index);  // index: rank 1
  Value gather(Value x, int64_t axis, Value index);        // index: x's rank, no larger off `axis`
  Value take_along_axis(Value x, Value index, int64_t axis);
  Value select(Value x, int64_t axis, Value index);  // index: a scalar or rank 0; removes `axis`
  // x with src (a tensor of x's rank and dtype, or a scalar) written where index (x's rank) says along
  // `axis`: torch.scatter (docs/IR.md, "Scatter").
  Value scatter(Value x, int64_t axis, Value index, Value src);

  // Reductions.
  Value reduce(OpKind op, Value x, std::vector<int64_t> axes, bool keepdim = false);
  Value sum(Value x, std::vector<int64_t> axes, bool keepdim = false) {
    return reduce(OpKind::Sum, x, std::move(axes), keepdim);
  }

  // Scans (docs/IR.md, "Scans"); the axis may be negative.
  Value scan(OpKind op, Value x, int64_t axis);  // op: cumsum, cumprod, cummin or cummax
  Value cumsum(Value x, int64_t axis) { return scan(OpKind::Cumsum, x, axis); }
  Value cumprod(Value x, int64_t axis) { return scan(OpKind::Cumprod, x, axis); }
  Value cummin(Value x, int64_t axis) { return scan(OpKind::Cummin, x, axis); }
  Value cummax(Value x, int64_t axis) { return scan(OpKind::Cummax, x, axis); }

  // Random numbers (docs/RANDOM.md): scalar operands, a floating tensor of `shape`.
  Value uniform(Value lo, Value hi, Value seed, Value offset, Shape shape, DType dtype);
  Value normal(Value mean, Value std, Value seed, Value offset, Shape shape, DType dtype);

  // Opaque.
  Value matmul(Value a, Value b) { return add(OpKind::Matmul, {a, b}); }
  Value linear(Value x, Value weight, std::optional<Value> bias = std::nullopt);

  // Finishes the fusion; the builder may not be used afterwards.
  Fusion finish(std::vector<FusionOutput> outputs);
  Fusion finish(const std::vector<Value>& outputs);

 private:
  int64_t normalize_axis(int64_t axis, int rank, const char* op) const;
  std::string name_;
  std::vector<Node> nodes_;
};

}  // namespace seam
