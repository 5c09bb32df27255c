// The segmenter's result: the fusion split into groups, one kernel each (none for NoOp groups), in
// execution order, and the checker every consumer runs before trusting one.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ir/fusion.h"
#include "schedule/pointwise_scheduler.h"
#include "schedule/scheduler_kind.h"

namespace seam {

struct SegmentGroup {
  SchedulerKind kind;
  std::vector<int32_t> nodes;       // the ops this group computes, ascending node ids
  std::vector<Value> inputs;        // values read from outside: fusion inputs and other groups' values
  std::vector<Value> outputs;       // nodes read by a later group or returned by the fusion
  std::vector<int32_t> duplicated;  // cheap ops recomputed here from inputs, ascending
  int64_t boundary_bytes = 0;       // this group's share of the boundary bytes (0 for NoOp)
};

struct SegmentedFusion {
  Fusion fusion;                     // a copy of the segmented fusion
  std::vector<SegmentGroup> groups;  // execution order: a group reads only fusion inputs and earlier groups
  std::vector<bool> duplicable;      // per node id: may be copied into each consuming group
  std::vector<std::pair<int32_t, int32_t>> must_cut;  // node pairs kept apart (options and rules)
  ScheduleLimits limits;  // what the scheduler predicates were allowed to accept (SegmentRules::limits)

  std::string strategy;               // "exact", "greedy", "nvfuser-greedy"
  bool proven_optimal = false;        // see SegmentOptions in segment/segment.h for exactly what is proven
  bool bytes_proven_optimal = false;  // the cheapest of all segmentations, not only of maximal groups
  double search_seconds = 0;
  int64_t states_explored = 0;
  int64_t floor_bytes = 0;       // segment/traffic_floor.h: what a segmentation could move at best (estimate)
  int64_t lower_bound_cost = 0;  // a proven lower bound on every segmentation's Cost::total()

  int num_kernels() const;         // launching groups
  int64_t boundary_bytes() const;  // the sum over groups (docs/SEGMENTER.md has the formula)
};

// Computes a group's inputs, outputs, duplicated ops and bytes from its nodes (and the others' nodes).
// `groups` holds each group's kind and nodes; the rest of each is filled in.
void fill_group_boundaries(const Fusion& fusion, const std::vector<bool>& duplicable,
                           std::vector<SegmentGroup>& groups);

// Throws seam::Error naming the first problem: a node in no group or in two (duplicable cheap ops may be
// in none, unless returned by the fusion), a group reading a later group (the order is not a topological
// order of the quotient graph, or the quotient has a cycle), a group its scheduler rejects, a must-cut
// pair sharing a group, or inputs, outputs, duplicated ops or bytes that differ from what the nodes imply.
void check_segmentation(const SegmentedFusion& segmented);

}  // namespace seam
