#include "exec/kernel_fusion.h"

#include <algorithm>
#include <map>
#include <set>

#include "ir/builder.h"
#include "support/error.h"

namespace seam {

KernelFusion extract_kernel_fusion(const SegmentedFusion& segmented, size_t group_index) {
  const Fusion& fusion = segmented.fusion;
  const SegmentGroup& group = segmented.groups.at(group_index);
  SEAM_ASSERT(group.kind != SchedulerKind::NoOp, "no-launch groups have no kernel");

  // Which group computes each node, to tell values written by kernels from views.
  std::vector<int> owner(static_cast<size_t>(fusion.num_nodes()), -1);
  for (size_t g = 0; g < segmented.groups.size(); ++g)
    for (int32_t id : segmented.groups[g].nodes) owner[static_cast<size_t>(id)] = static_cast<int>(g);

  std::set<int32_t> included(group.nodes.begin(), group.nodes.end());
  included.insert(group.duplicated.begin(), group.duplicated.end());
  // Pull in view chains: a value from a no-launch group is recomputed from the fusion input it views.
  std::vector<int32_t> work(included.begin(), included.end());
  while (!work.empty()) {
    int32_t id = work.back();
    work.pop_back();
    for (Value operand : fusion.node(Value{id}).operands) {
      const Node& producer = fusion.node(operand);
      if (producer.op == OpKind::Input || included.count(operand.id)) continue;
      int o = owner[static_cast<size_t>(operand.id)];
      bool is_view = o >= 0 && segmented.groups[static_cast<size_t>(o)].kind == SchedulerKind::NoOp;
      bool is_duplicable = o < 0;  // a cheap op no group owns is recomputed where it is used
      if (is_view || is_duplicable) {
        included.insert(operand.id);
        work.push_back(operand.id);
      }
    }
  }

  KernelFusion result{Fusion("unused", {}, {}), {}, {}, {}};
  Builder b("kernel" + std::to_string(group_index));
  std::map<int32_t, Value> mapped;
  // Kernel inputs first, in ascending value order, so the calling convention is deterministic.
  std::set<int32_t> outside;
  for (int32_t id : included)
    for (Value operand : fusion.node(Value{id}).operands)
      if (!included.count(operand.id)) outside.insert(operand.id);
  for (int32_t id : outside) {
    const Node& n = fusion.node(Value{id});
    Shape strides;
    if (n.op == OpKind::Input) {
      if (const AttrValue* s = n.attrs.find("strides")) strides = std::get<std::vector<int64_t>>(*s);
    } else {
      SEAM_ASSERT(owner[static_cast<size_t>(id)] >= 0 &&
                      owner[static_cast<size_t>(id)] < static_cast<int>(group_index),
                  "kernel input %", id, " is not written by an earlier kernel");
    }
    mapped[id] = b.input(n.type, "", strides);
    result.inputs.push_back(Value{id});
  }
  for (int32_t id : included) {
    const Node& n = fusion.node(Value{id});
    std::vector<Value> operands;
    for (Value operand : n.operands) operands.push_back(mapped.at(operand.id));
    mapped[id] = b.copy(n, std::move(operands));
  }
  std::vector<Value> outputs;
  for (Value v : group.outputs) {
    outputs.push_back(mapped.at(v.id));
    result.outputs.push_back(v);
  }
  result.fusion = b.finish(outputs);
  result.sources.resize(static_cast<size_t>(result.fusion.num_nodes()));
  for (const auto& [id, value] : mapped) result.sources[static_cast<size_t>(value.id)] = Value{id};
  return result;
}

}  // namespace seam
