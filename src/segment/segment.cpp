#include "segment/segment.h"

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>

#include "segment/dump.h"
#include "segment/exact_search.h"
#include "segment/nvfuser_greedy.h"
#include "segment/traffic_floor.h"
#include "support/error.h"

namespace seam {
namespace {

SegmentedFusion to_segmented(const Fusion& fusion, const SegmentGraph& graph, const Partition& partition) {
  SegmentedFusion s{fusion, {}, graph.duplicated(), {}, graph.limits(), "", false, false, 0, 0};
  for (auto [a, b] : graph.must_cut()) s.must_cut.emplace_back(graph.node_id(a), graph.node_id(b));
  for (const PartitionGroup& g : partition.groups)
    s.groups.push_back({g.kind, graph.node_ids(g.members), {}, {}, {}, 0});
  fill_group_boundaries(s.fusion, s.duplicable, s.groups);
  SEAM_ASSERT(s.boundary_bytes() == partition.cost.bytes && s.num_kernels() == partition.cost.launches,
              "the cost model and the segmented fusion disagree");
  return s;
}

}  // namespace

bool segments_dump_requested() {
  const char* env = std::getenv("SEAM_DUMP");
  if (!env) return false;
  std::string list = std::string(",") + env + ",";
  return list.find(",segments,") != std::string::npos;
}

std::string_view strategy_name(SegmentStrategy strategy) {
  switch (strategy) {
    case SegmentStrategy::Auto: return "auto";
    case SegmentStrategy::Exact: return "exact";
    case SegmentStrategy::Greedy: return "greedy";
    case SegmentStrategy::NvfuserGreedy: return "nvfuser-greedy";
  }
  SEAM_ASSERT(false, "unknown strategy");
}

SegmentStrategy parse_strategy(std::string_view name) {
  for (SegmentStrategy s : {SegmentStrategy::Auto, SegmentStrategy::Exact, SegmentStrategy::Greedy,
                            SegmentStrategy::NvfuserGreedy})
    if (strategy_name(s) == name) return s;
  throw Error("unknown segmentation strategy '" + std::string(name) +
              "'; expected one of: auto, exact, greedy, nvfuser-greedy");
}

SegmentOptions reproducible_segment_options() {
  SegmentOptions options;
  options.time_budget_seconds = 1e6;
  options.bytes_time_budget_seconds = 1e6;
  // About a second per model step's region on one core: the largest regions of a transformer layer
  // take up to ~2,000 states to prove their kernel count.
  options.state_budget = 200000;
  options.bytes_state_budget = 20000;
  // The greedy's window re-solving too: its windows are cut by states (20,000 each), not by its clock
  // (a slower build, ASan's, found other windows).
  options.greedy.time_budget_seconds = 1e6;
  return options;
}

namespace {

// One segmentation: the graph, the time budget split between the phases (docs/SEGMENTER.md), and what
// the phases found so far.
class SegmentationRun {
 public:
  using Clock = std::chrono::steady_clock;

  SegmentationRun(const Fusion& fusion, const SegmentOptions& options)
      : fusion_(fusion),
        options_(options),
        t0_(Clock::now()),
        graph_(fusion, options.rules),
        // Converting and checking the result after the phases is linear in the graph like building it,
        // and takes about twice as long: the phases leave that much of the budget.
        reserve_(2 * (Clock::now() - t0_)),
        strategy_(strategy_name(options.strategy)) {
    search_.maximal_groups_only = options.maximal_groups_only;
    search_.time_budget_seconds = options.time_budget_seconds;
    search_.state_budget = options.state_budget;
  }

  SegmentedFusion run() {
    switch (options_.strategy) {
      case SegmentStrategy::NvfuserGreedy:
        partition_ = nvfuser_greedy(graph_, Budget::until(until(1)));
        break;
      case SegmentStrategy::Greedy:
        partition_ = greedy_fallback(graph_, options_.greedy, Budget::until(until(1))).improved;
        break;
      case SegmentStrategy::Exact: run_exact(); break;
      case SegmentStrategy::Auto: run_auto(); break;
    }
    return finish();
  }

 private:
  // `f` budgets after the start, but early enough to leave the reserve.
  Clock::time_point until(double fraction) const {
    auto budget = [&](double f) {
      return t0_ + std::chrono::duration_cast<Clock::duration>(
                       std::chrono::duration<double>(std::min(options_.time_budget_seconds, 1e7) * f));
    };
    return std::min(budget(fraction), budget(1.9) - reserve_);
  }

  static double seconds_until(Clock::time_point t) {
    return std::max(0.0, std::chrono::duration<double>(t - Clock::now()).count());
  }

  // With the pruning, a finished search proves the kernel count; a bounded unpruned search over every
  // accepted group, cut at that cost, then proves the bytes too or finds fewer.
  void prove_bytes() {
    if (!options_.maximal_groups_only) {
      bytes_proven_ = true;
      return;
    }
    if (!options_.prove_bytes) return;
    ExactSearchOptions all_groups = search_;
    all_groups.maximal_groups_only = false;
    all_groups.time_budget_seconds = options_.bytes_time_budget_seconds;
    all_groups.state_budget = options_.bytes_state_budget;
    all_groups.incumbent = partition_.cost;
    ExactSearchResult r = exact_search(graph_, graph_.empty_set(), graph_.all(), all_groups);
    states_ += r.states_expanded;
    bytes_proven_ = r.finished;
    if (r.partition) partition_ = std::move(*r.partition);
  }

  void run_exact() {
    ExactSearchResult r = exact_search(graph_, graph_.empty_set(), graph_.all(), search_);
    states_ = r.states_expanded;
    SEAM_CHECK(r.finished && r.partition, "exact segmentation of ", fusion_.name(),
               " ran out of budget after ", r.states_expanded, " states and ", r.seconds,
               " s; use the auto or greedy strategy");
    partition_ = std::move(*r.partition);
    proven_ = true;
    prove_bytes();
  }

  // The search first: A* with a consistent bound expands no state an incumbent would cut, so the greedy
  // is only worth its time when the search runs out. The search gets most of the budget, the fallback
  // the rest, up to 1.9 budgets in all (docs/SEGMENTER.md).
  void run_auto() {
    search_.time_budget_seconds = seconds_until(until(0.8));
    search_.give_up_when_projected_late = true;
    ExactSearchResult r = exact_search(graph_, graph_.empty_set(), graph_.all(), search_);
    states_ = r.states_expanded;
    proven_ = r.finished;
    if (r.partition) {
      partition_ = std::move(*r.partition);
      strategy_ = "exact";
      prove_bytes();
      compete_with_greedy_merge();
    } else {
      fall_back_to_greedy();
    }
  }

  // The pruned search is exact only among segmentations into maximal groups, and in bytes a smaller group
  // can be cheaper (docs/SEGMENTER.md, "Objective"): unless the bytes phase proved the result, the greedy
  // merge, which weighs every merge in bytes, competes with it.
  void compete_with_greedy_merge() {
    if (bytes_proven_ || Clock::now() >= until(1.9)) return;
    Partition merged = greedy_merge(graph_, Budget::until(until(1.9)));
    if (options_.greedy.improve_windows)
      merged = improve_by_windows(graph_, std::move(merged), options_.greedy, nullptr, nullptr,
                                  Budget::until(until(1.9)));
    if (merged.cost < partition_.cost) {
      partition_ = std::move(merged);
      strategy_ = "greedy+windows (cheaper than the exact search among maximal groups)";
      proven_ = false;
    }
  }

  // Two incumbents: the baseline first (one pass over the graph, about a tenth of the greedy's time), then
  // the greedy merge, which is usually better but, cut short on a huge graph, leaves parts unmerged. The
  // cheaper one is improved by windows in what is left of the budget. The baseline always runs to its
  // end, budget or not: it is linear in the graph, and a budget too small for it must not leave a kernel
  // per op (docs/SEGMENTER.md, "Budget and complexity").
  void fall_back_to_greedy() {
    partition_ = nvfuser_greedy(graph_, Budget::until(Clock::time_point::max()));
    strategy_ = "nvfuser-greedy+windows (exact ran out)";
    if (Clock::now() < until(1.9)) {
      Partition merged = greedy_merge(graph_, Budget::until(until(1.9)));
      if (merged.cost <= partition_.cost) {
        partition_ = std::move(merged);
        strategy_ = "greedy+windows (exact ran out)";
      }
    }
    Cost plain = partition_.cost;
    if (options_.greedy.improve_windows)
      partition_ = improve_by_windows(graph_, std::move(partition_), options_.greedy, nullptr, nullptr,
                                      Budget::until(until(1)));
    SEAM_ASSERT(partition_.cost <= plain, "window re-solving made the greedy result worse");
  }

  SegmentedFusion finish() {
    SegmentedFusion result = to_segmented(fusion_, graph_, partition_);
    result.strategy = strategy_;
    result.proven_optimal = proven_;
    result.bytes_proven_optimal = proven_ && bytes_proven_;
    result.states_explored = states_;
    result.floor_bytes = traffic_floor_bytes(graph_);
    result.lower_bound_cost = segmentation_lower_bound(graph_).total();
    result.search_seconds = std::chrono::duration<double>(Clock::now() - t0_).count();
    check_segmentation(result);
    if (segments_dump_requested()) std::cerr << dump_segments(result);
    return result;
  }

  const Fusion& fusion_;
  const SegmentOptions& options_;
  const Clock::time_point t0_;
  SegmentGraph graph_;
  const Clock::duration reserve_;
  std::string strategy_;
  ExactSearchOptions search_;
  Partition partition_;
  bool proven_ = false;
  bool bytes_proven_ = false;
  int64_t states_ = 0;
};

}  // namespace

SegmentedFusion segment_fusion(const Fusion& fusion, const SegmentOptions& options) {
  return SegmentationRun(fusion, options).run();
}

}  // namespace seam
