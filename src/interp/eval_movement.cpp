// Movement ops: each output element is one input element (or the pad value), found by index
// arithmetic on multi-indices. Elements are copied as Scalars, so values are kept exactly.
#include <algorithm>

#include "interp/eval_ops.h"
#include "support/error.h"
#include "support/parallel.h"

namespace seam {
namespace {

using Index = std::vector<int64_t>;

// The input index output index `out` reads into `in`; false for pad's padding.
bool source_index(const Node& node, const Shape& in_shape, const Index& out, Index& in) {
  const int rank = static_cast<int>(in_shape.size());
  in.resize(static_cast<size_t>(rank));
  switch (node.op) {
    case OpKind::Broadcast: {  // drop the new size-1 axes
      const auto& axes = node.attrs.get_ints("axes");
      in.clear();
      for (size_t d = 0; d < out.size(); ++d)
        if (std::find(axes.begin(), axes.end(), static_cast<int64_t>(d)) == axes.end()) in.push_back(out[d]);
      return true;
    }
    case OpKind::Expand:  // an expanded axis (input extent 1) always reads index 0
      for (int d = 0; d < rank; ++d) in[d] = in_shape[d] == 1 ? 0 : out[d];
      return true;
    case OpKind::Squeeze:  // squeezed axes have extent 1: the element count and order are unchanged
    case OpKind::Reshape: unravel_index_into(ravel_index(out, node.type.shape), in_shape, in); return true;
    case OpKind::Permute: {  // output axis d is input axis perm[d]
      const auto& perm = node.attrs.get_ints("perm");
      for (int d = 0; d < rank; ++d) in[static_cast<size_t>(perm[d])] = out[d];
      return true;
    }
    case OpKind::Slice: {
      const auto& starts = node.attrs.get_ints("starts");
      const auto& steps = node.attrs.get_ints("steps");
      for (int d = 0; d < rank; ++d) in[d] = starts[d] + out[d] * steps[d];
      return true;
    }
    case OpKind::Pad: {  // low may be negative (a crop)
      const auto& low = node.attrs.get_ints("low");
      for (int d = 0; d < rank; ++d) {
        in[d] = out[d] - low[d];
        if (in[d] < 0 || in[d] >= in_shape[d]) return false;
      }
      return true;
    }
    default: SEAM_ASSERT(false, "source_index of op ", op_name(node.op));
  }
  return false;
}

HostTensor eval_cat(const Node& node, const Values& values) {
  HostTensor out = HostTensor::zeros(node.type.dtype, node.type.shape);
  const int64_t axis = node.attrs.get_int("axis");
  parallel_for(out.numel(), [&](int64_t begin, int64_t end) {
    Index index;
    for (int64_t i = begin; i < end; ++i) {
      unravel_index_into(i, out.shape(), index);
      // Walk the operands until the one whose slab along `axis` holds this index.
      for (Value v : node.operands) {
        const HostTensor& in = values.at(static_cast<size_t>(v.id));
        const int64_t extent = in.shape()[static_cast<size_t>(axis)];
        if (index[static_cast<size_t>(axis)] < extent) {
          out.set(i, in.get(ravel_index(index, in.shape())));
          break;
        }
        index[static_cast<size_t>(axis)] -= extent;
      }
    }
  });
  return out;
}

}  // namespace

HostTensor eval_movement(const Node& node, const Values& values) {
  if (node.op == OpKind::Cat) return eval_cat(node, values);
  const HostTensor& in = values.at(static_cast<size_t>(node.operands.at(0).id));
  HostTensor out = HostTensor::zeros(node.type.dtype, node.type.shape);
  const Scalar pad_value =
      node.op == OpKind::Pad ? scalar_of(node.attrs.get_number("value")) : Scalar::of_int(0);
  parallel_for(out.numel(), [&](int64_t begin, int64_t end) {
    Index at, from;
    for (int64_t i = begin; i < end; ++i) {
      unravel_index_into(i, out.shape(), at);
      out.set(i,
              source_index(node, in.shape(), at, from) ? in.get(ravel_index(from, in.shape())) : pad_value);
    }
  });
  return out;
}

}  // namespace seam
