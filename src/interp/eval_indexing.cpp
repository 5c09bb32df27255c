// Indexing ops: each output element reads one element of the index operand and, at the position it
// holds along the axis, one element of the data operand (ir/indexing.h). An index outside [-n, n) of an
// axis of extent n is an error naming the op and the index.
#include "interp/eval_ops.h"
#include "ir/indexing.h"
#include "support/error.h"
#include "support/parallel.h"

namespace seam {

HostTensor eval_indexing(const Node& node, int32_t id, const Values& values) {
  const HostTensor& data = values.at(static_cast<size_t>(node.operands.at(0).id));
  const HostTensor& index = values.at(static_cast<size_t>(node.operands.at(1).id));
  const int64_t axis = node.attrs.get_int("axis");
  const int64_t extent = data.shape()[static_cast<size_t>(axis)];
  HostTensor out = HostTensor::zeros(node.type.dtype, node.type.shape);
  // An index out of range raises for the first such element, as a plain loop would (parallel_for).
  parallel_for(out.numel(), [&](int64_t begin, int64_t end) {
    std::vector<int64_t> at, index_at, data_at;
    for (int64_t i = begin; i < end; ++i) {
      unravel_index_into(i, out.shape(), at);
      indexing_coordinates<int64_t>(node.op, axis, data.shape(), index.shape(), out.shape(), at, 0, index_at,
                                    data_at);
      const int64_t position = index.get_int(index_at.empty() ? 0 : ravel_index(index_at, index.shape()));
      SEAM_CHECK(position >= -extent && position < extent, op_name(node.op), " %", id, ": index ", position,
                 " is out of range for axis ", axis, " of extent ", extent, " (valid: ", -extent, " to ",
                 extent - 1, "), read for output element ", shape_to_string(at));
      data_at[static_cast<size_t>(axis)] = position < 0 ? position + extent : position;
      out.set(i, data.get(ravel_index(data_at, data.shape())));
    }
  });
  return out;
}

}  // namespace seam
