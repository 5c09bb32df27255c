#include "segment/exact_search.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <queue>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "schedule/registry.h"
#include "support/error.h"

namespace seam {
namespace {

bool preds_done(const SegmentGraph& graph, int u, const NodeSet& state, const NodeSet& group) {
  for (int p : graph.preds(u))
    if (!state.test(p) && !group.test(p)) return false;
  return true;
}

// A lower bound on the cost of partitioning `remaining` (the rest of a down-closed target):
//   launches: an opaque op is always alone, and anything that is not a view of an input needs some
//     launching kernel;
//   bytes: a node that is not a view of an input lands in a launching group, which reads what the node
//     reads from outside it: each finished node it reads costs at least one read, each fusion input at
//     least the part the node reads (so the largest such part over the remaining nodes), and a fusion
//     output among them at least its write.
// Consistent (no step lowers it by more than the step costs: a step pays for what its nodes read and
// write, and what it leaves stays counted), so it also serves as the A* heuristic.
class LowerBound {
 public:
  explicit LowerBound(const SegmentGraph& graph)
      : graph_(graph), stamp_(static_cast<size_t>(graph.fusion().num_nodes()), {0, 0}) {}

  Cost operator()(const NodeSet& remaining) {
    ++epoch_;
    Cost lb;
    bool needs_kernel = false;
    remaining.for_each([&](int u) {
      if (graph_.accepts_alone(SchedulerKind::Matmul, u))
        ++lb.launches;
      else if (!graph_.accepts_alone(SchedulerKind::NoOp, u))
        needs_kernel = true;
      if (graph_.accepts_alone(SchedulerKind::NoOp, u)) return;
      for (const SegmentGraph::InputRead& r : graph_.input_reads(u)) lb.bytes += once(r.input, r.bytes);
      for (int32_t v : graph_.reads(u)) {
        int local = graph_.local_of(v);
        if (local >= 0 && !remaining.test(local)) lb.bytes += once(v, graph_.value_bytes(v));
      }
      if (graph_.is_fusion_output(u)) lb.bytes += graph_.value_bytes(graph_.node_id(u));
    });
    if (needs_kernel) ++lb.launches;
    return lb;
  }

 private:
  // Counts a value once per call; for an input, the largest part any one remaining node reads.
  int64_t once(int32_t v, int64_t bytes) {
    auto& [epoch, counted] = stamp_[static_cast<size_t>(v)];
    if (epoch != epoch_) {
      epoch = epoch_;
      counted = 0;
    }
    int64_t added = std::max<int64_t>(0, bytes - counted);
    counted = std::max(counted, bytes);
    return added;
  }

  const SegmentGraph& graph_;
  std::vector<std::pair<uint32_t, int64_t>> stamp_;
  uint32_t epoch_ = 0;
};

bool is_reduction(const SegmentGraph& graph, int u) {
  return graph.fusion().node(Value{graph.node_id(u)}).category() == OpCategory::Reduction;
}

// The nodes of `group` that are reductions or feed one inside the group.
NodeSet reduction_core(const SegmentGraph& graph, const NodeSet& group) {
  NodeSet core(graph.size());
  std::vector<int> members = group.members();
  for (auto it = members.rbegin(); it != members.rend(); ++it) {
    int u = *it;
    bool keep = is_reduction(graph, u);
    for (int s : graph.succs(u)) keep = keep || core.test(s);
    if (keep) core.set(u);
  }
  return core;
}

}  // namespace

std::vector<PartitionGroup> next_groups(const SegmentGraph& graph, const NodeSet& state,
                                        const NodeSet& target, bool maximal_only, int64_t& step_budget,
                                        std::optional<std::chrono::steady_clock::time_point> deadline) {
  std::vector<PartitionGroup> out;
  std::unordered_set<NodeSet, NodeSetHash> seen;
  const NodeSet open = target - state;
  for (SchedulerKind kind : scheduler_order()) {
    const bool maximal = maximal_only && is_hereditary(kind);
    // A group is offered as the first kind that accepts it, and a reduction-free group that Reduction or
    // Normalization accepts is accepted by Pointwise first: their enumeration needs only groups with a
    // reduction (docs/SEGMENTER.md). On those, Normalization's predicate is pairwise too.
    const bool with_reduction = needs_reduction(kind);
    // Every group of this kind lies within the candidates: nodes accepted alone whose predecessors are
    // done or candidates themselves.
    std::vector<int> cand;
    NodeSet in_cand(graph.size());
    for (int u : open.members()) {
      if (!graph.accepts_alone(kind, u) || !preds_done(graph, u, state, in_cand)) continue;
      cand.push_back(u);
      in_cand.set(u);
    }
    if (cand.empty()) continue;
    std::vector<NodeSet> later(cand.size() + 1, NodeSet(graph.size()));
    std::vector<bool> reduction_later(cand.size() + 1, false);  // some cand[j], j >= i, is a reduction
    for (size_t i = cand.size(); i-- > 0;) {
      later[i] = later[i + 1];
      later[i].set(cand[i]);
      reduction_later[i] = reduction_later[i + 1] || is_reduction(graph, cand[i]);
    }
    int reductions_in_group = 0;
    NodeSet group(graph.size());
    auto emit = [&](const NodeSet& g) {
      if (!seen.insert(g).second) return;
      std::optional<SchedulerKind> first = graph.classify(g);
      SEAM_ASSERT(first.has_value());
      out.push_back({g, *first});
    };
    // For a pairwise kind: does some later candidate that fits the current group not fit it with u?
    const bool pairwise = is_pairwise(kind) || (with_reduction && is_pairwise_with_reduction(kind));
    auto has_conflict = [&](size_t i, int u) {
      if (!pairwise) return true;
      for (size_t j = i + 1; j < cand.size(); ++j) {
        NodeSet with_y = group;
        with_y.set(cand[j]);
        if (!graph.accepts(kind, with_y)) continue;
        with_y.set(u);
        if (!graph.accepts(kind, with_y)) return true;
      }
      return false;
    };
    std::function<void(size_t)> visit = [&](size_t i) {
      if (--step_budget < 0) return;
      // The unpruned enumeration can be long: look at the clock now and then.
      if (deadline && (step_budget & 1023) == 0 && std::chrono::steady_clock::now() > *deadline) {
        step_budget = -1;
        return;
      }
      if (with_reduction && reductions_in_group == 0 && !reduction_later[i]) return;
      if (i == cand.size()) {
        if (group.empty()) return;
        if (maximal)
          for (int u : cand)
            if (!group.test(u) && preds_done(graph, u, state, group)) {
              NodeSet bigger = group;
              bigger.set(u);
              if (graph.accepts(kind, bigger)) return;  // not maximal
            }
        emit(group);
        // A maximal reduction group also drags in prologue ops that feed no reduction; offering the
        // group without them lets those ops join a later pointwise kernel and save bytes. A subset, so
        // accepted (heredity); it is down-closed because what feeds no reduction has successors that
        // feed none either.
        if (maximal && (kind == SchedulerKind::Reduction || kind == SchedulerKind::Normalization)) {
          NodeSet core = reduction_core(graph, group);
          if (!core.empty() && !(core == group)) emit(core);
        }
        return;
      }
      const int u = cand[i];
      const int reduction = is_reduction(graph, u) ? 1 : 0;
      bool includable = preds_done(graph, u, state, group);
      if (includable) {
        group.set(u);
        includable = graph.accepts(kind, group);
        reductions_in_group += reduction;
        if (includable) visit(i + 1);
        reductions_in_group -= reduction;
        // Leaving u out can only lead to a maximal group if something later conflicts with it; when u
        // fits together with every later candidate, no such group exists (heredity), and for a pairwise
        // kind neither when no single later candidate conflicts with it.
        bool exclusion_useless = includable && maximal && graph.accepts(kind, group | later[i + 1]);
        group.reset(u);
        exclusion_useless = exclusion_useless || (includable && maximal && !has_conflict(i, u));
        if (exclusion_useless) return;
      }
      visit(i + 1);
    };
    visit(0);
    if (step_budget < 0) break;
  }
  return out;
}

ExactSearchResult exact_search(const SegmentGraph& graph, const NodeSet& start, const NodeSet& target,
                               const ExactSearchOptions& options) {
  SEAM_ASSERT(start.is_subset_of(target));
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - t0).count(); };

  struct State {
    NodeSet set;
    Cost cost;
    int parent;
    PartitionGroup via;
    bool closed;
  };
  std::vector<State> states;
  std::unordered_map<NodeSet, int, NodeSetHash> index;
  LowerBound lower_bound(graph);
  // Ordered by estimated total (cost + lower bound), then by progress, then by age.
  using Entry = std::tuple<int64_t, int64_t, int, int>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue;
  auto push = [&](int id, Cost estimate) {
    queue.emplace(estimate.launches, estimate.bytes, -states[id].set.count(), id);
  };
  states.push_back({start, Cost{}, -1, {NodeSet(graph.size()), SchedulerKind::NoOp}, false});
  index.emplace(start, 0);

  ExactSearchResult result;
  result.lower_bound = lower_bound(target - start);
  // An incumbent that meets the bound at the start is optimal already.
  if (options.incumbent && !(result.lower_bound < *options.incumbent)) {
    result.finished = true;
    result.seconds = elapsed();
    return result;
  }
  push(0, result.lower_bound);
  const auto deadline = t0 + std::chrono::duration_cast<Clock::duration>(
                                 std::chrono::duration<double>(options.time_budget_seconds));
  int64_t step_budget = options.state_budget;
  bool out_of_budget = false;
  while (!queue.empty()) {
    const int id = std::get<3>(queue.top());
    queue.pop();
    if (states[id].closed) continue;
    states[id].closed = true;
    ++result.states_expanded;
    if (states[id].set == target) {
      Partition p;
      for (int s = id; states[s].parent >= 0; s = states[s].parent) p.groups.push_back(states[s].via);
      std::reverse(p.groups.begin(), p.groups.end());
      p.cost = states[id].cost;
      result.partition = std::move(p);
      break;
    }
    if (--step_budget < 0 || Clock::now() > deadline) {
      out_of_budget = true;
      break;
    }
    const NodeSet set = states[id].set;
    const Cost cost = states[id].cost;
    std::vector<PartitionGroup> groups =
        next_groups(graph, set, target, options.maximal_groups_only, step_budget, deadline);
    if (step_budget < 0) {
      out_of_budget = true;
      break;
    }
    result.groups_generated += static_cast<int64_t>(groups.size());
    for (PartitionGroup& g : groups) {
      NodeSet next = set | g.members;
      Cost next_cost = cost + group_cost(graph, g.members, g.kind);
      auto [it, inserted] = index.emplace(next, static_cast<int>(states.size()));
      if (!inserted) {
        const State& s = states[it->second];
        if (s.closed || !(next_cost < s.cost)) continue;
      }
      Cost estimate = next_cost + lower_bound(target - next);
      if (options.incumbent && !(estimate < *options.incumbent)) {
        if (inserted) index.erase(it);
        continue;
      }
      if (inserted) {
        states.push_back({std::move(next), next_cost, id, std::move(g), false});
      } else {
        State& s = states[it->second];
        s.cost = next_cost;
        s.parent = id;
        s.via = std::move(g);
      }
      push(it->second, estimate);
    }
  }
  result.finished = !out_of_budget;
  result.seconds = elapsed();
  return result;
}

}  // namespace seam
