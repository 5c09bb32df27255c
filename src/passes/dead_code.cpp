#include "passes/dead_code.h"

#include "passes/rewrite.h"

namespace seam {

std::vector<bool> live_nodes(const Fusion& fusion) {
  std::vector<bool> live(static_cast<size_t>(fusion.num_nodes()), false);
  for (const FusionOutput& out : fusion.outputs()) live[static_cast<size_t>(out.value.id)] = true;
  // Operands precede their users, so one backward sweep sees every user before its operands.
  for (int32_t id = fusion.num_nodes() - 1; id >= 0; --id) {
    if (!live[static_cast<size_t>(id)]) continue;
    for (Value operand : fusion.node(Value{id}).operands) live[static_cast<size_t>(operand.id)] = true;
  }
  return live;
}

Fusion eliminate_dead_code(const Fusion& fusion) {
  std::vector<bool> live = live_nodes(fusion);
  FusionRewriter rewriter(fusion);
  for (int32_t id = 0; id < fusion.num_nodes(); ++id) {
    Value v{id};
    if (live[static_cast<size_t>(id)] || fusion.node(v).op == OpKind::Input) rewriter.copy(v);
  }
  return rewriter.finish();
}

}  // namespace seam
