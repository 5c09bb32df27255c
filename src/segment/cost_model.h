// The segmenter's objective: kernel launches first, then bytes that cross kernel boundaries.
//
// Bytes are counted per (tensor, consuming kernel), for kernels that launch (NoOp groups are aliases and
// cost nothing):
//   boundary_bytes = sum over launching groups G of
//       sum over values v read by G from outside G (fusion inputs and values of other groups, read by
//           G's nodes or by the cheap ops duplicated into G), each v once per G: bytes(v), except that a
//           fusion input costs the union of the views of it that G reads (segment/read_footprint.h)
//     + sum over nodes u of G that are fusion outputs or read by another group: bytes(u)
// so a tensor written by A and read by B and C costs one write and two reads; a fusion input costs one
// read per kernel that reads it; a duplicated cast lets its (smaller) operand cross instead of its result.
#pragma once

#include <compare>
#include <cstdint>
#include <span>
#include <string>

#include "schedule/scheduler_kind.h"
#include "segment/node_set.h"
#include "segment/segment_graph.h"

namespace seam {

struct Cost {
  int64_t launches = 0;
  int64_t bytes = 0;

  friend auto operator<=>(const Cost&, const Cost&) = default;
  friend Cost operator+(Cost a, Cost b) { return {a.launches + b.launches, a.bytes + b.bytes}; }
  friend Cost operator-(Cost a, Cost b) { return {a.launches - b.launches, a.bytes - b.bytes}; }
  std::string to_string() const;  // "3 kernels, 1024 bytes"
};

// The cost of one group of `graph` run as `kind`, by the formula above. It depends on the group alone
// (who reads its values outside it is fixed by the fusion), which is what makes the search a shortest
// path.
Cost group_cost(const SegmentGraph& graph, const NodeSet& group, SchedulerKind kind);
// The same for a group given as sorted local indices (the greedy strategies: no graph-sized bitset).
Cost group_cost(const SegmentGraph& graph, std::span<const int> sorted_members, SchedulerKind kind);

}  // namespace seam
