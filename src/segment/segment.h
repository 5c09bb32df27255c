// The segmenter's entry point: split a fusion (already through the pass pipeline) into kernels.
#pragma once

#include <cstdint>
#include <string_view>

#include "segment/greedy_fallback.h"
#include "segment/segment_graph.h"
#include "segment/segmented_fusion.h"

namespace seam {

enum class SegmentStrategy {
  Auto,    // the exact search; when it runs out, the cheaper of two greedy results, improved by windows
  Exact,   // the exact search alone; a seam::Error when it runs out of budget
  Greedy,  // greedy merge improved by exact windows (segment/greedy_fallback.h)
  NvfuserGreedy,  // the order-dependent baseline (segment/nvfuser_greedy.h)
};

std::string_view strategy_name(SegmentStrategy strategy);  // "auto", "exact", "greedy", "nvfuser-greedy"
SegmentStrategy parse_strategy(std::string_view name);     // throws seam::Error listing the names

struct SegmentOptions {
  SegmentStrategy strategy = SegmentStrategy::Auto;
  // For the whole of segment_fusion, split between its phases; honored within 2x (docs/SEGMENTER.md,
  // "Budget and complexity"). When it runs out the result is valid but not proven.
  double time_budget_seconds = 0.5;
  int64_t state_budget = 200000;
  // The exact search's pruning: only groups maximal for their scheduler. With it, proven_optimal means
  // the cheapest segmentation into such groups (segment/cost_model.h's Cost); without it (exponential in
  // the graph's width) the cheapest of all.
  bool maximal_groups_only = true;
  // After the pruned search, a search over every accepted group, cut by the pruned result's cost, within
  // these budgets: when it finishes, bytes_proven_optimal is true (the cheapest of all segmentations)
  // and its result is taken when cheaper. When it does not, the greedy merge competes (Auto).
  bool prove_bytes = true;
  double bytes_time_budget_seconds = 0.005;
  int64_t bytes_state_budget = 200000;
  SegmentRules rules;
  GreedyOptions greedy;
};

// Options whose budgets count states only, never the clock: the same segmentation on any machine under
// any load (the figure-of-merit test and bench/model_regions.py; the product keeps the time budgets).
SegmentOptions reproducible_segment_options();

// Segments `fusion`, checks the result (check_segmentation) and returns it. With SEAM_DUMP=segments in
// the environment (a comma-separated list), prints segment/dump.h's text dump to stderr.
SegmentedFusion segment_fusion(const Fusion& fusion, const SegmentOptions& options = {});

// Whether SEAM_DUMP (a comma-separated list) names `segments`.
bool segments_dump_requested();

}  // namespace seam
