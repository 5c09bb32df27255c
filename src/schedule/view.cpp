#include "schedule/view.h"

#include <algorithm>

#include "support/error.h"

namespace seam {

bool is_view_op(OpKind op) {
  switch (op) {
    case OpKind::Broadcast:
    case OpKind::Expand:
    case OpKind::Squeeze:
    case OpKind::Permute:
    case OpKind::Slice:
    case OpKind::Reshape: return true;
    default: return false;
  }
}

std::optional<Shape> reshape_view_strides(const Shape& old_shape, const Shape& old_strides,
                                          const Shape& new_shape) {
  SEAM_ASSERT(old_shape.size() == old_strides.size());
  if (old_shape.empty()) return Shape(new_shape.size(), 1);
  int64_t numel = 1;
  for (int64_t e : old_shape) numel *= e;
  // An empty tensor has no elements to alias: any strides do.
  if (numel == 0) return contiguous_strides(new_shape);

  Shape new_strides(new_shape.size(), 0);
  int64_t view_d = static_cast<int64_t>(new_shape.size()) - 1;
  int64_t chunk_base_stride = old_strides.back();
  int64_t tensor_numel = 1, view_numel = 1;
  // Walk the old axes from the innermost, grouping runs that are contiguous with each other; each run
  // must be split exactly by a run of new axes.
  for (int64_t tensor_d = static_cast<int64_t>(old_shape.size()) - 1; tensor_d >= 0; --tensor_d) {
    tensor_numel *= old_shape[tensor_d];
    bool run_ends = tensor_d == 0 || (old_shape[tensor_d - 1] != 1 &&
                                      old_strides[tensor_d - 1] != tensor_numel * chunk_base_stride);
    if (!run_ends) continue;
    while (view_d >= 0 && (view_numel < tensor_numel || new_shape[view_d] == 1)) {
      new_strides[view_d] = view_numel * chunk_base_stride;
      view_numel *= new_shape[view_d];
      --view_d;
    }
    if (view_numel != tensor_numel) return std::nullopt;
    if (tensor_d > 0) {
      chunk_base_stride = old_strides[tensor_d - 1];
      tensor_numel = 1;
      view_numel = 1;
    }
  }
  if (view_d != -1) return std::nullopt;
  return new_strides;
}

namespace {

std::optional<StridedLayout> apply_view_op(const Node& node, StridedLayout in) {
  StridedLayout out;
  out.offset = in.offset;
  switch (node.op) {
    case OpKind::Broadcast: {
      const auto& axes = node.attrs.get_ints("axes");
      size_t next_in = 0;
      for (int i = 0; i < node.type.rank(); ++i) {
        if (std::binary_search(axes.begin(), axes.end(), i)) {
          out.shape.push_back(1);
          out.strides.push_back(0);
        } else {
          out.shape.push_back(in.shape[next_in]);
          out.strides.push_back(in.strides[next_in]);
          ++next_in;
        }
      }
      return out;
    }
    case OpKind::Expand: {
      out.shape = node.attrs.get_ints("shape");
      out.strides = in.strides;
      for (size_t i = 0; i < out.shape.size(); ++i)
        if (in.shape[i] != out.shape[i]) out.strides[i] = 0;
      return out;
    }
    case OpKind::Squeeze: {
      const auto& axes = node.attrs.get_ints("axes");
      for (int i = 0; i < static_cast<int>(in.shape.size()); ++i) {
        if (std::binary_search(axes.begin(), axes.end(), i)) continue;
        out.shape.push_back(in.shape[i]);
        out.strides.push_back(in.strides[i]);
      }
      return out;
    }
    case OpKind::Permute: {
      for (int64_t p : node.attrs.get_ints("perm")) {
        out.shape.push_back(in.shape[p]);
        out.strides.push_back(in.strides[p]);
      }
      return out;
    }
    case OpKind::Slice: {
      const auto& starts = node.attrs.get_ints("starts");
      const auto& steps = node.attrs.get_ints("steps");
      out.shape = node.type.shape;
      for (size_t i = 0; i < in.shape.size(); ++i) {
        out.offset += starts[i] * in.strides[i];
        out.strides.push_back(in.strides[i] * steps[i]);
      }
      return out;
    }
    case OpKind::Reshape: {
      std::optional<Shape> strides = reshape_view_strides(in.shape, in.strides, node.type.shape);
      if (!strides) return std::nullopt;
      out.shape = node.type.shape;
      out.strides = *strides;
      return out;
    }
    default: return std::nullopt;
  }
}

// The layout of `value`, a chain of view ops down to `base` (not included), over `layout` of `base`.
std::optional<StridedLayout> replay_views(const Fusion& fusion, Value value, Value base,
                                          StridedLayout layout) {
  std::vector<Value> chain;
  for (Value v = value; v != base; v = fusion.node(v).operands[0]) chain.push_back(v);
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    std::optional<StridedLayout> next = apply_view_op(fusion.node(*it), std::move(layout));
    if (!next) return std::nullopt;
    layout = std::move(*next);
  }
  return layout;
}

}  // namespace

std::optional<StridedLayout> view_of_input(const Fusion& fusion, Value value) {
  Value v = value;
  while (fusion.node(v).op != OpKind::Input) {
    if (!is_view_op(fusion.node(v).op)) return std::nullopt;
    v = fusion.node(v).operands[0];
  }
  const Node& input = fusion.node(v);
  if (input.type.is_scalar) return std::nullopt;
  return replay_views(fusion, value, v, {input.type.shape, fusion.input_strides(v), 0});
}

Value view_root(const Fusion& fusion, Value value) {
  while (is_view_op(fusion.node(value).op)) value = fusion.node(value).operands[0];
  return value;
}

std::optional<StridedLayout> view_of_contiguous(const Fusion& fusion, Value value) {
  return view_of_contiguous(fusion, value, view_root(fusion, value));
}

std::optional<StridedLayout> view_of_contiguous(const Fusion& fusion, Value value, Value base) {
  const Node& node = fusion.node(base);
  if (node.type.is_scalar) return std::nullopt;
  return replay_views(fusion, value, base, {node.type.shape, contiguous_strides(node.type.shape), 0});
}

Value viewed_input(const Fusion& fusion, Value value) {
  while (fusion.node(value).op != OpKind::Input) {
    SEAM_ASSERT(is_view_op(fusion.node(value).op), "not a chain of view ops");
    value = fusion.node(value).operands[0];
  }
  return value;
}

}  // namespace seam
