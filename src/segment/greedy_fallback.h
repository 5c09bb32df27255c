// The fallback for fusions too large or too wide for the exact search: a greedy merge ordered by what
// each merge saves, with an exact group-level cycle check, then improved by re-solving windows (short
// runs of consecutive groups in execution order) with the exact search.
#pragma once

#include "segment/budget.h"
#include "segment/partition.h"
#include "segment/segment_graph.h"

namespace seam {

struct GreedyOptions {
  bool improve_windows = true;
  int window_groups = 4;             // groups re-solved together
  int window_max_nodes = 32;         // a window stops growing past this many nodes
  double time_budget_seconds = 0.2;  // for the windows
};

struct GreedyResult {
  Partition plain;     // the greedy merge alone
  Partition improved;  // after window re-solving; never costs more than `plain`
  int windows_solved = 0;
  int windows_improved = 0;
};

// Starts from one group per node and repeatedly applies the merge that saves the most (in Cost's order:
// bytes plus a cost per launch, segment/cost_model.h) among groups joined by an edge or reading a common
// value, skipping merges no scheduler accepts or that would close a cycle; stops when no merge saves
// anything, or when `budget` (a step per merge tried) runs out, with the merges made so far. About linear in
// the graph on narrow graphs such as a transformer stack: merges and cycle checks touch only the groups
// involved (segment/quotient_graph.h). `finished` (when given) says whether it stopped because nothing saved
// more, not for the budget.
Partition greedy_merge(const SegmentGraph& graph, Budget budget = {}, bool* finished = nullptr);

// Re-solves windows of `partition` exactly and keeps each re-solution that is cheaper; stops after
// options.time_budget_seconds or when `budget` (a step per window) runs out.
Partition improve_by_windows(const SegmentGraph& graph, Partition partition, const GreedyOptions& options,
                             int* windows_solved = nullptr, int* windows_improved = nullptr,
                             Budget budget = {});

GreedyResult greedy_fallback(const SegmentGraph& graph, const GreedyOptions& options, Budget budget = {});

}  // namespace seam
