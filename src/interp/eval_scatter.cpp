// scatter: a copy of the data operand with the source's elements written at the positions the index
// holds along the axis (docs/IR.md, "Scatter"). Index element p writes output element p with its
// coordinate on the axis replaced by index[p] (i < 0: i + n); a scalar source writes its value, converted
// to the data's dtype as `cast` converts. Two index elements writing one output element share every
// coordinate off the axis, so each line along the axis is walked in order on one thread: of duplicates,
// the one latest along the axis wins, on any thread count. An index outside [-n, n) is an error naming
// the op and the index.
#include "interp/eval_ops.h"
#include "support/error.h"
#include "support/parallel.h"
#include "tensor/scalar_convert.h"

namespace seam {

HostTensor eval_scatter(const Node& node, int32_t id, const Values& values) {
  SEAM_ASSERT(node.op == OpKind::Scatter, "eval_scatter of op ", op_name(node.op));
  HostTensor out = values.at(static_cast<size_t>(node.operands.at(0).id));  // contiguous, copied
  const HostTensor& index = values.at(static_cast<size_t>(node.operands.at(1).id));
  const HostTensor& src = values.at(static_cast<size_t>(node.operands.at(2).id));
  const bool scalar_src = src.rank() == 0;  // the data has rank 1 or more, so does a tensor source
  const Scalar fill = scalar_src ? convert_scalar(src.get(0), out.dtype()) : Scalar{};
  const size_t axis = static_cast<size_t>(node.attrs.get_int("axis"));
  const Shape& shape = index.shape();
  const int64_t extent = out.shape()[axis];
  int64_t lines = 1;
  for (size_t d = 0; d < shape.size(); ++d)
    if (d != axis) lines *= shape[d];
  const int64_t length = shape[axis];
  parallel_for(lines, [&](int64_t begin, int64_t end) {
    std::vector<int64_t> at, line_at;
    Shape line_shape = shape;
    line_shape[axis] = 1;
    for (int64_t line = begin; line < end; ++line) {
      unravel_index_into(line, line_shape, at);
      for (int64_t k = 0; k < length; ++k) {
        at[axis] = k;
        const int64_t position = index.get_int(ravel_index(at, shape));
        SEAM_CHECK(position >= -extent && position < extent, op_name(node.op), " %", id, ": index ", position,
                   " is out of range for axis ", axis, " of extent ", extent, " (valid: ", -extent, " to ",
                   extent - 1, "), at index element ", shape_to_string(at));
        const Scalar value = scalar_src ? fill : src.get(ravel_index(at, src.shape()));
        line_at = at;
        line_at[axis] = position < 0 ? position + extent : position;
        out.set(ravel_index(line_at, out.shape()), value);
      }
    }
  });
  return out;
}

}  // namespace seam
