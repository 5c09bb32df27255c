#include "ir/fusion.h"

#include <algorithm>

#include "support/error.h"

namespace seam {

Fusion::Fusion(std::string name, std::vector<Node> nodes, std::vector<FusionOutput> outputs)
    : name_(std::move(name)), nodes_(std::move(nodes)), outputs_(std::move(outputs)) {
  consumers_.resize(nodes_.size());
  for (int32_t id = 0; id < static_cast<int32_t>(nodes_.size()); ++id) {
    const Node& n = nodes_[static_cast<size_t>(id)];
    if (n.op == OpKind::Input) inputs_.push_back(Value{id});
    for (Value operand : n.operands) {
      SEAM_ASSERT(operand.id >= 0 && operand.id < id, "operands must precede their node");
      auto& list = consumers_[static_cast<size_t>(operand.id)];
      if (list.empty() || list.back() != Value{id}) list.push_back(Value{id});
    }
  }
  for (const FusionOutput& out : outputs_)
    SEAM_ASSERT(out.value.id >= 0 && out.value.id < num_nodes(), "output out of range");
}

bool Fusion::is_output(Value v) const {
  return std::any_of(outputs_.begin(), outputs_.end(), [v](const FusionOutput& o) { return o.value == v; });
}

Shape Fusion::input_strides(Value input) const {
  const Node& n = node(input);
  SEAM_ASSERT(n.op == OpKind::Input);
  if (const AttrValue* strides = n.attrs.find("strides")) return std::get<std::vector<int64_t>>(*strides);
  return contiguous_strides(n.type.shape);
}

}  // namespace seam
