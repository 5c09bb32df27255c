#include "passes/cse.h"

#include <unordered_map>

#include "support/error.h"

namespace seam {

std::string cse_key(const ProposedNode& node) {
  std::string key(op_name(node.op));
  for (Value operand : node.operands) key += " %" + std::to_string(operand.id);
  for (const auto& [name, value] : node.attrs.items()) key += " " + name + "=" + attr_value_to_string(value);
  if (node.type) key += " : " + node.type->to_string();
  return key;
}

Fusion eliminate_common_subexpressions(const Fusion& fusion) {
  FusionRewriter rewriter(fusion);
  std::unordered_map<std::string, Value> first_with_key;
  for (int32_t id = 0; id < fusion.num_nodes(); ++id) {
    Value old{id};
    if (fusion.node(old).op == OpKind::Input) {
      rewriter.copy(old);
      continue;
    }
    ProposedNode proposed = rewriter.propose(old);
    auto [it, inserted] = first_with_key.try_emplace(cse_key(proposed), Value{});
    if (inserted) {
      it->second = add_proposed(rewriter.builder(), proposed);
      rewriter.map(old, it->second);
      continue;
    }
    const Node& earlier = rewriter.builder().node(it->second);
    SEAM_ASSERT(
        earlier.op == proposed.op && earlier.operands == proposed.operands && earlier.attrs == proposed.attrs,
        "cse key collision for %", id);
    rewriter.map(old, it->second);
  }
  return rewriter.finish();
}

}  // namespace seam
