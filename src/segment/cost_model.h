// The segmenter's objective: the bytes its kernels move, plus a cost in bytes per kernel launch.
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

// What one more kernel launch costs, in bytes of memory traffic: the gap a dependent launch leaves on the
// GPU (launch latency, the previous kernel's tail and the next one's ramp, ~2.7 us) at the copy rate of
// an H100 (3 TB/s). Below this, saving a launch is worth more than the bytes; above it, bytes win.
inline constexpr int64_t kLaunchCostBytes = 8'000'000;

// A segmentation's cost: the bytes its kernels read and write plus kLaunchCostBytes per launch
// (`total()`); of two segmentations with the same total, the one with fewer launches is cheaper.
struct Cost {
  int64_t launches = 0;
  int64_t bytes = 0;

  int64_t total() const { return bytes + launches * kLaunchCostBytes; }
  friend bool operator==(const Cost&, const Cost&) = default;
  friend std::strong_ordering operator<=>(const Cost& a, const Cost& b) {
    if (auto c = a.total() <=> b.total(); c != 0) return c;
    if (auto c = a.launches <=> b.launches; c != 0) return c;
    return a.bytes <=> b.bytes;
  }
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
