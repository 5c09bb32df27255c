#include "lower/kernel_params.h"

#include <algorithm>

namespace seam {

std::vector<int> declare_kernel_params(const Fusion& fusion, kir::Kernel& kernel, int64_t other_extent) {
  std::vector<int> input_param(static_cast<size_t>(fusion.num_nodes()), -1);
  int64_t largest = other_extent;
  for (size_t i = 0; i < fusion.inputs().size(); ++i) {
    Value v = fusion.inputs()[i];
    const Type& t = fusion.type(v);
    input_param[static_cast<size_t>(v.id)] = static_cast<int>(kernel.params.size());
    kernel.params.push_back({t.is_scalar ? kir::Param::Kind::Scalar : kir::Param::Kind::Input,
                             "in" + std::to_string(i), t.dtype, static_cast<int>(i)});
    if (t.is_scalar) continue;
    Shape strides = fusion.input_strides(v);
    int64_t reach = 1;
    for (size_t d = 0; d < strides.size(); ++d) reach += (t.shape[d] - 1) * strides[d];
    largest = std::max(largest, reach);
  }
  for (size_t o = 0; o < fusion.outputs().size(); ++o) {
    const Type& t = fusion.type(fusion.outputs()[o].value);
    kernel.params.push_back(
        {kir::Param::Kind::Output, "out" + std::to_string(o), t.dtype, static_cast<int>(o)});
    largest = std::max(largest, t.numel());
  }
  // Every value's index reaches its own extent: an iota's or a random op's element index, a slice of a
  // larger intermediate, an inlined reduction's loop. Any of them may exceed every input and output.
  for (int32_t id = 0; id < fusion.num_nodes(); ++id) {
    const Type& t = fusion.node(Value{id}).type;
    if (!t.is_scalar) largest = std::max(largest, t.numel());
  }
  // Not only the indices below `largest`: a grid-stride loop's index steps past the last chunk by the
  // grid's threads, as many as the chunks (or the rows' threads, no more than the elements) when the grid
  // is not capped, before its test ends the loop. That step must not wrap either: 32 bits only below 2^30.
  kernel.index64 = largest >= (int64_t{1} << 30);
  return input_param;
}

}  // namespace seam
