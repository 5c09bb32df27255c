#include "schedule/normalization_scheduler.h"

#include <algorithm>
#include <optional>

#include "schedule/pointwise_scheduler.h"
#include "schedule/reduction_scheduler.h"

namespace seam {
namespace {

Shape reduced(const ReductionSignature& s) {
  Shape out;
  for (int i = 0; i < static_cast<int>(s.input_shape.size()); ++i)
    if (!std::binary_search(s.axes.begin(), s.axes.end(), i)) out.push_back(s.input_shape[i]);
  return out;
}

}  // namespace

bool can_schedule_normalization(const Fusion& fusion, GroupNodes group) {
  std::optional<ReductionSignature> signature;
  std::vector<Shape> shapes;
  for (int32_t id : group) {
    const Node& n = fusion.node(Value{id});
    bool reduction = n.category() == OpCategory::Reduction;
    if (!reduction && !is_pointwise_kernel_op(n.op)) return false;
    if (reduction) {
      ReductionSignature s = reduction_signature(fusion, Value{id});
      if (signature && !(*signature == s)) return false;
      signature = std::move(s);
    }
    if (n.type.is_scalar) continue;
    Shape s = without_unit_axes(n.type.shape);
    if (std::find(shapes.begin(), shapes.end(), s) == shapes.end()) shapes.push_back(std::move(s));
  }
  if (!signature) return shapes.size() <= 2;
  Shape full = without_unit_axes(signature->input_shape), part = without_unit_axes(reduced(*signature));
  return std::all_of(shapes.begin(), shapes.end(), [&](const Shape& s) { return s == full || s == part; });
}

}  // namespace seam
