// The exact segmenter: a shortest path over down-sets of the owned-node DAG. A state is a down-closed
// set of nodes already assigned to kernels; a step adds one group (a set accepted by a scheduler whose
// union with the state is again down-closed) at the cost of that group (segment/cost_model.h). Every
// path from the empty set to all nodes is a segmentation with an acyclic quotient, and every such
// segmentation is a path (take its groups in a topological order of the quotient), so the cheapest path
// is the best segmentation. docs/SEGMENTER.md states what the pruning keeps.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

#include "segment/partition.h"
#include "segment/segment_graph.h"

namespace seam {

struct ExactSearchOptions {
  // Explore only groups that are maximal for their (hereditary) scheduler kind: the result is the
  // cheapest segmentation made of such groups, which need not be the cheapest of all (docs/SEGMENTER.md).
  bool maximal_groups_only = true;
  double time_budget_seconds = 0.1;
  // Down-sets expanded plus candidate groups generated; the search stops unfinished beyond it.
  int64_t state_budget = 200000;
  // An upper bound from a known segmentation: paths that cannot beat it are cut.
  std::optional<Cost> incumbent;
  // Give up early when the search will not finish in time: once a tenth of the time budget is spent,
  // when the time spent divided by the progress (the largest share of target - start that an expanded
  // state holds) exceeds twice the budget. Leaves more of the budget to a fallback on graphs far too
  // large for the search.
  bool give_up_when_projected_late = false;
  // Tests: recompute the lower bound of every new state from scratch and assert that the incremental
  // one (updated per step from the parent's) equals it.
  bool check_incremental_bound = false;
};

struct ExactSearchResult {
  // The best path found that beats the incumbent; empty when none did (or the search ran out).
  std::optional<Partition> partition;
  // The search space was exhausted within budget: `partition` (or, when empty, the incumbent) is optimal
  // in the sense of ExactSearchOptions::maximal_groups_only.
  bool finished = false;
  // A lower bound on the cost of partitioning target - start (launches and bytes; exact_search.cpp).
  Cost lower_bound;
  bool gave_up_early = false;  // give_up_when_projected_late stopped it
  int64_t states_expanded = 0;
  int64_t groups_generated = 0;
  double seconds = 0;
};

// Partitions target - start, where both are down-sets of `graph` and start is a subset of target (the
// whole problem: the empty set and graph.all()).
ExactSearchResult exact_search(const SegmentGraph& graph, const NodeSet& start, const NodeSet& target,
                               const ExactSearchOptions& options);

// A group the search may add next, as a bitset (what the search's set operations take).
struct GroupChoice {
  NodeSet members;
  SchedulerKind kind;
};

// The next groups the search considers from down-set `state` (within `target`): for each scheduler kind,
// every accepted group, or only the maximal ones. Each comes with the first kind that accepts it.
// `step_budget` bounds the enumeration; it is decremented and the result is partial when it drops below
// 0, which passing `deadline` also causes. `ready` (computed when not given): ready_nodes(state, target).
std::vector<GroupChoice> next_groups(
    const SegmentGraph& graph, const NodeSet& state, const NodeSet& target, bool maximal_only,
    int64_t& step_budget, std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt,
    const std::vector<int>* ready = nullptr);

// The nodes of target - state whose predecessors are all in state, ascending.
std::vector<int> ready_nodes(const SegmentGraph& graph, const NodeSet& state, const NodeSet& target);

// A lower bound on the cost of every segmentation of the whole graph (launches and bytes, each a bound:
// the opaque ops and one more kernel if anything else needs one; each fusion input's largest part one
// node reads and each fusion output once). The search's heuristic at the start; proven, and weak where
// kernels must exchange intermediates.
Cost segmentation_lower_bound(const SegmentGraph& graph);

}  // namespace seam
