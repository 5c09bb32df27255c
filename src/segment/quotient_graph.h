// Groups being merged bottom-up (the greedy strategies): which group owns each node, the group-level
// edges, and the exact cycle check a merge needs.
#pragma once

#include <vector>

#include "segment/partition.h"
#include "segment/segment_graph.h"

namespace seam {

class QuotientGraph {
 public:
  // Every owned node starts in a group of its own, group i holding local node i.
  explicit QuotientGraph(const SegmentGraph& graph);

  const NodeSet& members(int group) const { return members_[static_cast<size_t>(group)]; }
  bool alive(int group) const { return alive_[static_cast<size_t>(group)]; }
  int owner(int local) const { return owner_[static_cast<size_t>(local)]; }
  int num_groups() const { return static_cast<int>(members_.size()); }  // dead ones included

  // Groups reading from / read by `group`, ascending, without `group` itself.
  std::vector<int> successors(int group) const;
  std::vector<int> predecessors(int group) const;
  // True when merging a and b would close a cycle: one reaches the other through a third group.
  bool merge_creates_cycle(int a, int b) const;
  // Moves b's nodes into a; b dies.
  void merge(int a, int b);

  // The live groups in an order where each reads only earlier ones (ties: smallest node first), each
  // with the first scheduler kind that accepts it (which must exist).
  Partition to_partition() const;

 private:
  const SegmentGraph* graph_;
  std::vector<NodeSet> members_;
  std::vector<bool> alive_;
  std::vector<int> owner_;
};

}  // namespace seam
