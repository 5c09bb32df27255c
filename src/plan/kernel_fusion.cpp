#include "plan/kernel_fusion.h"

#include <algorithm>
#include <map>
#include <set>

#include "ir/builder.h"
#include "support/error.h"

namespace seam {

namespace {

// Which group computes each node (-1: none, a cheap op recomputed where it is used).
std::vector<int> node_owners(const SegmentedFusion& segmented) {
  std::vector<int> owner(static_cast<size_t>(segmented.fusion.num_nodes()), -1);
  for (size_t g = 0; g < segmented.groups.size(); ++g)
    for (int32_t id : segmented.groups[g].nodes) owner[static_cast<size_t>(id)] = static_cast<int>(g);
  return owner;
}

// Pulls view chains into `included`: a value from a no-launch group is recomputed from the fusion input
// it views, and a cheap op no group owns where it is used; `materialized` values stay kernel inputs.
void pull_views(const SegmentedFusion& segmented, const std::vector<int>& owner, std::set<int32_t>& included,
                const std::set<int32_t>& materialized) {
  const Fusion& fusion = segmented.fusion;
  std::vector<int32_t> work(included.begin(), included.end());
  while (!work.empty()) {
    int32_t id = work.back();
    work.pop_back();
    for (Value operand : fusion.node(Value{id}).operands) {
      const Node& producer = fusion.node(operand);
      if (producer.op == OpKind::Input || included.count(operand.id) || materialized.count(operand.id))
        continue;
      int o = owner[static_cast<size_t>(operand.id)];
      bool is_view = o >= 0 && segmented.groups[static_cast<size_t>(o)].kind == SchedulerKind::NoOp;
      bool is_duplicable = o < 0;
      if (is_view || is_duplicable) {
        included.insert(operand.id);
        work.push_back(operand.id);
      }
    }
  }
}

// The kernel fusion computing `included` (ids, topologically ordered by id) and writing `outputs`; every
// operand outside `included` becomes a kernel input.
// `copied`: each output is written as a cast to its own dtype (an output may then be a kernel input).
KernelFusion build_kernel_fusion(const SegmentedFusion& segmented, const std::vector<int>& owner,
                                 const std::set<int32_t>& included, const std::vector<Value>& outputs,
                                 const std::string& name, const std::set<int32_t>& materialized,
                                 bool copied = false) {
  const Fusion& fusion = segmented.fusion;
  KernelFusion result{Fusion("unused", {}, {}), {}, {}, {}};
  Builder b(name);
  std::map<int32_t, Value> mapped;
  // Kernel inputs first, in ascending value order, so the calling convention is deterministic.
  std::set<int32_t> outside;
  for (int32_t id : included)
    for (Value operand : fusion.node(Value{id}).operands)
      if (!included.count(operand.id)) outside.insert(operand.id);
  if (copied)  // a copied output read as it is
    for (Value v : outputs)
      if (!included.count(v.id)) outside.insert(v.id);
  for (int32_t id : outside) {
    const Node& n = fusion.node(Value{id});
    Shape strides;
    if (n.op == OpKind::Input) {
      if (const AttrValue* s = n.attrs.find("strides")) strides = std::get<std::vector<int64_t>>(*s);
    } else {
      const int o = owner[static_cast<size_t>(id)];
      SEAM_ASSERT(materialized.count(id) ||
                      (o >= 0 && segmented.groups[static_cast<size_t>(o)].kind != SchedulerKind::NoOp),
                  "kernel input %", id, " is not written by a kernel");
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
  std::vector<Value> kernel_outputs;
  for (Value v : outputs) {
    const Value out = mapped.at(v.id);
    kernel_outputs.push_back(copied ? b.cast(out, fusion.type(v).dtype) : out);
    result.outputs.push_back(v);
  }
  result.fusion = b.finish(kernel_outputs);
  result.sources.resize(static_cast<size_t>(result.fusion.num_nodes()));
  for (const auto& [id, value] : mapped) result.sources[static_cast<size_t>(value.id)] = Value{id};
  if (copied)
    for (size_t o = 0; o < outputs.size(); ++o)
      result.sources[static_cast<size_t>(kernel_outputs[o].id)] = outputs[o];
  return result;
}

}  // namespace

KernelFusion extract_kernel_fusion(const SegmentedFusion& segmented, size_t group_index,
                                   const std::set<int32_t>& materialized) {
  const SegmentGroup& group = segmented.groups.at(group_index);
  SEAM_ASSERT(group.kind != SchedulerKind::NoOp, "no-launch groups have no kernel");
  const std::vector<int> owner = node_owners(segmented);
  std::set<int32_t> included(group.nodes.begin(), group.nodes.end());
  included.insert(group.duplicated.begin(), group.duplicated.end());
  pull_views(segmented, owner, included, materialized);
  return build_kernel_fusion(segmented, owner, included, group.outputs,
                             "kernel" + std::to_string(group_index), materialized);
}

KernelFusion extract_view_copy(const SegmentedFusion& segmented, Value view) {
  const std::vector<int> owner = node_owners(segmented);
  SEAM_ASSERT(segmented.fusion.node(view).op != OpKind::Input, "a copy of a view, not of an input");
  std::set<int32_t> included = {view.id};
  pull_views(segmented, owner, included, {});
  return build_kernel_fusion(segmented, owner, included, {view}, "copy" + std::to_string(view.id), {});
}

KernelFusion extract_copy_into(const SegmentedFusion& segmented, Value source, Value target) {
  const std::vector<int> owner = node_owners(segmented);
  std::set<int32_t> included;
  const int o = owner[static_cast<size_t>(source.id)];
  // A view or a duplicated op is recomputed from what it reads; a fusion input or a kernel's output is read.
  if (segmented.fusion.node(source).op != OpKind::Input &&
      (o < 0 || segmented.groups[static_cast<size_t>(o)].kind == SchedulerKind::NoOp)) {
    included.insert(source.id);
    pull_views(segmented, owner, included, {});
  }
  KernelFusion copy = build_kernel_fusion(
      segmented, owner, included, {source},
      "copy" + std::to_string(source.id) + "_into" + std::to_string(target.id), {}, /*copied=*/true);
  copy.outputs = {target};
  return copy;
}

}  // namespace seam
