// A partition of a SegmentGraph's owned nodes into groups, in execution order: what every search
// strategy returns before it becomes a SegmentedFusion.
#pragma once

#include <vector>

#include "schedule/scheduler_kind.h"
#include "segment/cost_model.h"
#include "segment/node_set.h"

namespace seam {

struct PartitionGroup {
  // Local indices of the SegmentGraph, ascending: a list, not a bitset, so that a partition of a large
  // graph into many small groups costs what it holds.
  std::vector<int> members;
  SchedulerKind kind;
};

struct Partition {
  std::vector<PartitionGroup> groups;  // each group reads only groups before it
  Cost cost;
};

inline Cost partition_cost(const SegmentGraph& graph, const std::vector<PartitionGroup>& groups) {
  Cost total;
  for (const PartitionGroup& g : groups) total = total + group_cost(graph, g.members, g.kind);
  return total;
}

}  // namespace seam
