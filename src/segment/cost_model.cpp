#include "segment/cost_model.h"

#include <algorithm>
#include <vector>

namespace seam {

std::string Cost::to_string() const {
  return std::to_string(launches) + " kernels, " + std::to_string(bytes) + " bytes";
}

Cost group_cost(const SegmentGraph& graph, const NodeSet& group, SchedulerKind kind) {
  Cost cost{launch_count(kind), 0};
  if (kind == SchedulerKind::NoOp) return cost;
  const Fusion& fusion = graph.fusion();
  std::vector<int32_t> read;
  for (int u : group.members()) {
    for (int32_t v : graph.reads(u)) {
      int local = graph.local_of(v);
      if (local < 0 || !group.test(local)) read.push_back(v);
    }
    bool leaves = graph.is_fusion_output(u);
    for (int s : graph.succs(u)) leaves = leaves || !group.test(s);
    if (leaves) cost.bytes += fusion.type(Value{graph.node_id(u)}).bytes();
  }
  std::sort(read.begin(), read.end());
  read.erase(std::unique(read.begin(), read.end()), read.end());
  for (int32_t v : read) cost.bytes += fusion.type(Value{v}).bytes();
  return cost;
}

}  // namespace seam
