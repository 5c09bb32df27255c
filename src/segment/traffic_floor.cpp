#include "segment/traffic_floor.h"

#include <vector>

#include "segment/cost_model.h"

namespace seam {

int64_t traffic_floor_bytes(const SegmentGraph& graph) {
  NodeSet fused = graph.needs_kernel();
  int64_t bytes = 0;
  for (int u = 0; u < graph.size(); ++u) {
    if (!graph.launches_alone(u)) continue;
    const int alone[] = {u};
    bytes += group_cost(graph, std::span<const int>(alone), SchedulerKind::Matmul).bytes;
  }
  if (fused.count() > 0) bytes += group_cost(graph, fused, SchedulerKind::Pointwise).bytes;
  return bytes;
}

}  // namespace seam
