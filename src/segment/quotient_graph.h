// Groups being merged bottom-up (the greedy strategies): which group owns each node, the group-level
// edges, and the exact cycle check a merge needs.
//
// Everything is kept per group and sparse (member lists, adjacency lists), never as graph-sized bitsets,
// so that a merge and a cycle check cost what the groups they touch hold, not the graph's size. The cycle
// check searches only between the two groups' places in a topological order of the groups, which each
// merge repairs locally (docs/SEGMENTER.md, "Fallback and baseline").
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "segment/partition.h"
#include "segment/segment_graph.h"

namespace seam {

class QuotientGraph {
 public:
  // Every owned node starts in a group of its own, group i holding local node i.
  explicit QuotientGraph(const SegmentGraph& graph);

  const std::vector<int>& members(int group) const { return members_[static_cast<size_t>(group)]; }  // sorted
  bool alive(int group) const { return alive_[static_cast<size_t>(group)]; }
  int owner(int local) const { return owner_[static_cast<size_t>(local)]; }
  int num_groups() const { return static_cast<int>(members_.size()); }  // dead ones included

  // Live groups reading from / read by `group`, ascending, without `group` itself.
  const std::vector<int>& successors(int group) const { return succs_[static_cast<size_t>(group)]; }
  const std::vector<int>& predecessors(int group) const { return preds_[static_cast<size_t>(group)]; }

  // The sorted members of a ∪ b, and the first scheduler kind accepting them (not memoized: the greedy
  // asks about each union about once).
  std::vector<int> union_members(int a, int b) const;
  std::optional<SchedulerKind> classify_union(int a, int b) const;

  // True when merging a and b would close a cycle: one reaches the other through a third group.
  bool merge_creates_cycle(int a, int b) const;
  // Moves b's nodes into a; b dies. The merge must not close a cycle.
  void merge(int a, int b);

  // Group-level work done by cycle checks and merges (groups visited), for tests of the complexity.
  int64_t work() const { return work_; }

  // The live groups in an order where each reads only earlier ones (ties: smallest node first), each
  // with the first scheduler kind that accepts it (which must exist).
  Partition to_partition() const;

 private:
  // The groups strictly between lo and hi in the order (pos_[lo] < pos_[hi]) that lo reaches without
  // passing hi; returns false when one of them reads hi (a path lo -> x -> hi).
  bool reached_from(int lo, int hi, std::vector<int>& out) const;
  // The groups strictly between lo and hi in the order that reach hi.
  void reaching(int lo, int hi, std::vector<int>& out) const;
  bool mark(int group) const;  // true the first time `group` is marked in this search

  const SegmentGraph* graph_;
  std::vector<std::vector<int>> members_;
  std::vector<std::vector<int>> succs_, preds_;
  std::vector<bool> alive_;
  std::vector<int> owner_;
  // A topological order of the live groups: pos_[g] < pos_[h] when h reads g (gaps allowed).
  std::vector<int> pos_;
  mutable std::vector<uint32_t> seen_;
  mutable uint32_t epoch_ = 0;
  mutable int64_t work_ = 0;
};

}  // namespace seam
