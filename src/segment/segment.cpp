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

bool dump_requested() {
  const char* env = std::getenv("SEAM_DUMP");
  if (!env) return false;
  std::string list = std::string(",") + env + ",";
  return list.find(",segments,") != std::string::npos;
}

}  // namespace

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

SegmentedFusion segment_fusion(const Fusion& fusion, const SegmentOptions& options) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  SegmentGraph graph(fusion, options.rules);
  // The time budget, split between the phases (docs/SEGMENTER.md): `until(f)` is f budgets after the
  // start, but early enough to leave time for converting and checking the result after the phases,
  // which is linear in the graph like building it, and takes about twice as long.
  const Clock::duration reserve = 2 * (Clock::now() - t0);
  auto until = [&](double fraction) {
    auto budget = [&](double f) {
      return t0 + std::chrono::duration_cast<Clock::duration>(
                      std::chrono::duration<double>(std::min(options.time_budget_seconds, 1e7) * f));
    };
    return std::min(budget(fraction), budget(1.9) - reserve);
  };
  auto seconds_until = [&](Clock::time_point t) {
    return std::max(0.0, std::chrono::duration<double>(t - Clock::now()).count());
  };
  Partition partition;
  bool proven = false;
  int64_t states = 0;
  std::string strategy(strategy_name(options.strategy));

  ExactSearchOptions search;
  search.maximal_groups_only = options.maximal_groups_only;
  search.time_budget_seconds = options.time_budget_seconds;
  search.state_budget = options.state_budget;
  bool bytes_proven = false;
  // With the pruning, a finished search proves the kernel count; a bounded unpruned search over every
  // accepted group, cut at that cost, then proves the bytes too or finds fewer.
  auto prove_bytes = [&] {
    if (!options.maximal_groups_only) {
      bytes_proven = true;
      return;
    }
    if (!options.prove_bytes) return;
    ExactSearchOptions all_groups = search;
    all_groups.maximal_groups_only = false;
    all_groups.time_budget_seconds = options.bytes_time_budget_seconds;
    all_groups.state_budget = options.bytes_state_budget;
    all_groups.incumbent = partition.cost;
    ExactSearchResult r = exact_search(graph, graph.empty_set(), graph.all(), all_groups);
    states += r.states_expanded;
    bytes_proven = r.finished;
    if (r.partition) partition = std::move(*r.partition);
  };
  switch (options.strategy) {
    case SegmentStrategy::NvfuserGreedy: partition = nvfuser_greedy(graph, Budget::until(until(1))); break;
    case SegmentStrategy::Greedy:
      partition = greedy_fallback(graph, options.greedy, Budget::until(until(1))).improved;
      break;
    case SegmentStrategy::Exact: {
      ExactSearchResult r = exact_search(graph, graph.empty_set(), graph.all(), search);
      states = r.states_expanded;
      SEAM_CHECK(r.finished && r.partition, "exact segmentation of ", fusion.name(),
                 " ran out of budget after ", r.states_expanded, " states and ", r.seconds,
                 " s; use the auto or greedy strategy");
      partition = std::move(*r.partition);
      proven = true;
      prove_bytes();
      break;
    }
    case SegmentStrategy::Auto: {
      // The search first: A* with a consistent bound expands no state an incumbent would cut, so the
      // greedy is only worth its time when the search runs out. The search gets most of the budget,
      // the fallback the rest, up to 1.9 budgets in all (docs/SEGMENTER.md).
      search.time_budget_seconds = seconds_until(until(0.8));
      search.give_up_when_projected_late = true;
      ExactSearchResult r = exact_search(graph, graph.empty_set(), graph.all(), search);
      states = r.states_expanded;
      proven = r.finished;
      if (r.partition) {
        partition = std::move(*r.partition);
        strategy = "exact";
        prove_bytes();
        // The pruned search is exact only among segmentations into maximal groups, and in bytes a
        // smaller group can be cheaper (docs/SEGMENTER.md, "Objective"): unless the bytes phase proved
        // the result, the greedy merge, which weighs every merge in bytes, competes with it.
        if (!bytes_proven && Clock::now() < until(1.9)) {
          Partition merged = greedy_merge(graph, Budget::until(until(1.9)));
          if (options.greedy.improve_windows)
            merged = improve_by_windows(graph, std::move(merged), options.greedy, nullptr, nullptr,
                                        Budget::until(until(1.9)));
          if (merged.cost < partition.cost) {
            partition = std::move(merged);
            strategy = "greedy+windows (cheaper than the exact search among maximal groups)";
            proven = false;
          }
        }
      } else {
        // Two incumbents: the baseline first (one pass over the graph, about a tenth of the greedy's
        // time), then the greedy merge, which is usually better but, cut short on a huge graph, leaves
        // parts unmerged. The cheaper one is improved by windows in what is left of the budget. The
        // baseline always runs to its end, budget or not: it is linear in the graph, and a budget too
        // small for it must not leave a kernel per op (docs/SEGMENTER.md, "Budget and complexity").
        partition = nvfuser_greedy(graph, Budget::until(Clock::time_point::max()));
        strategy = "nvfuser-greedy+windows (exact ran out)";
        if (Clock::now() < until(1.9)) {
          Partition merged = greedy_merge(graph, Budget::until(until(1.9)));
          if (merged.cost <= partition.cost) {
            partition = std::move(merged);
            strategy = "greedy+windows (exact ran out)";
          }
        }
        Cost plain = partition.cost;
        if (options.greedy.improve_windows)
          partition = improve_by_windows(graph, std::move(partition), options.greedy, nullptr, nullptr,
                                         Budget::until(until(1)));
        SEAM_ASSERT(partition.cost <= plain, "window re-solving made the greedy result worse");
      }
      break;
    }
  }
  SegmentedFusion result = to_segmented(fusion, graph, partition);
  result.strategy = strategy;
  result.proven_optimal = proven;
  result.bytes_proven_optimal = proven && bytes_proven;
  result.states_explored = states;
  result.floor_bytes = traffic_floor_bytes(graph);
  result.lower_bound_cost = segmentation_lower_bound(graph).total();
  result.search_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  check_segmentation(result);
  if (dump_requested()) std::cerr << dump_segments(result);
  return result;
}

}  // namespace seam
