#include "segment/exact_search.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
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
//   launches: an opaque op or a scan is always alone, and anything that is not a view of an input needs some
//     launching kernel;
//   bytes: a node that is not a view of an input lands in a launching group, which reads what the node
//     reads from outside it: each finished node it reads costs at least one read, each fusion input at
//     least the part the node reads (so the largest such part over the remaining nodes), and a fusion
//     output among them at least its write.
// Consistent (no step lowers it by more than the step costs: a step pays for what its nodes read and
// write, and what it leaves stays counted), so it also serves as the A* heuristic.
class LowerBound {
 public:
  explicit LowerBound(const SegmentGraph& graph) : graph_(graph), marks_(MarksPool::acquire()) {
    const size_t n = static_cast<size_t>(graph.fusion().num_nodes());
    if (marks_->stamp.size() < n) marks_->stamp.resize(n, {0, 0});
  }
  ~LowerBound() { MarksPool::release(std::move(marks_)); }
  LowerBound(const LowerBound&) = delete;
  LowerBound& operator=(const LowerBound&) = delete;

  Cost operator()(const NodeSet& remaining) {
    begin_call();
    Cost lb;
    bool needs_kernel = false;
    remaining.for_each([&](int u) {
      if (graph_.launches_alone(u))
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

  // The bound of `remaining` - `group` from the bound `before` of `remaining` (group ⊆ remaining), in
  // time for the group and its neighbours instead of the whole remaining graph: a step changes only
  // terms of values its nodes read or write. Equal to operator() on the smaller set (the option
  // check_incremental_bound asserts it).
  Cost after_step(const NodeSet& remaining, Cost before, const NodeSet& group, const NodeSet& after) {
    begin_call();
    Cost lb = before;
    lb.launches -= int64_t{remaining.intersects(graph_.needs_kernel())} -
                   int64_t{after.intersects(graph_.needs_kernel())};
    // Inputs whose largest part is read within [lo, hi] (the remaining nodes' span) at the latest.
    const int lo = remaining.first(), hi = remaining.last();
    auto read_by_remaining = [&](int p, const NodeSet& set) {
      for (int s : graph_.succs(p))
        if (set.test(s) && !graph_.accepts_alone(SchedulerKind::NoOp, s)) return true;
      return false;
    };
    group.for_each([&](int g) {
      if (graph_.launches_alone(g)) --lb.launches;
      // g is finished now: read once if a remaining node reads it.
      if (read_by_remaining(g, after)) lb.bytes += graph_.value_bytes(graph_.node_id(g));
      if (graph_.accepts_alone(SchedulerKind::NoOp, g)) return;
      if (graph_.is_fusion_output(g)) lb.bytes -= graph_.value_bytes(graph_.node_id(g));
      for (int32_t v : graph_.reads(g)) {
        int p = graph_.local_of(v);
        if (p < 0 || remaining.test(p) || !first_time(v)) continue;
        if (!read_by_remaining(p, after)) lb.bytes -= graph_.value_bytes(v);
      }
      for (const SegmentGraph::InputRead& r : graph_.input_reads(g))
        if (first_time(r.input))
          lb.bytes -= largest_part(r.input, remaining, lo, hi) - largest_part(r.input, after, lo, hi);
    });
    return lb;
  }

 private:
  void begin_call() {
    if (++marks_->epoch == 0) {  // wrapped: forget every mark
      std::fill(marks_->stamp.begin(), marks_->stamp.end(), std::pair<uint32_t, int64_t>{0, 0});
      marks_->epoch = 1;
    }
  }
  bool first_time(int32_t v) { return once(v, 1) == 1; }

  // The largest part of `input` that a node of `set` reads (nodes of set lie within [lo, hi]): the
  // readers come by bytes descending and, within equal bytes, by node, so a binary search skips those
  // before lo.
  int64_t largest_part(int32_t input, const NodeSet& set, int lo, int hi) const {
    const std::vector<SegmentGraph::InputReader>& readers = graph_.input_readers(input);
    for (auto tier = readers.begin(); tier != readers.end();) {
      const int64_t bytes = tier->bytes;
      auto tier_end = std::partition_point(
          tier, readers.end(), [&](const SegmentGraph::InputReader& r) { return r.bytes == bytes; });
      auto it = std::partition_point(tier, tier_end,
                                     [&](const SegmentGraph::InputReader& r) { return r.local < lo; });
      for (; it != tier_end && it->local <= hi; ++it)
        if (set.test(it->local)) return bytes;
      tier = tier_end;
    }
    return 0;
  }

  // Counts a value once per call; for an input, the largest part any one remaining node reads.
  int64_t once(int32_t v, int64_t bytes) {
    auto& [epoch, counted] = marks_->stamp[static_cast<size_t>(v)];
    if (epoch != marks_->epoch) {
      epoch = marks_->epoch;
      counted = 0;
    }
    int64_t added = std::max<int64_t>(0, bytes - counted);
    counted = std::max(counted, bytes);
    return added;
  }

  // Per value id, the call that last counted it and what it counted. Reused across searches: the
  // greedy's windows run thousands of small searches on one large graph, and a table the size of the
  // graph per search would cost more than the searches. Kept in a pool in static storage rather than
  // in thread storage, which the sanitized runs do not scan for roots (tests/sanitizers/lsan.supp).
  struct Marks {
    std::vector<std::pair<uint32_t, int64_t>> stamp;
    uint32_t epoch = 0;
  };
  class MarksPool {
   public:
    static std::unique_ptr<Marks> acquire() {
      std::lock_guard<std::mutex> lock(mutex());
      if (free().empty()) return std::make_unique<Marks>();
      std::unique_ptr<Marks> m = std::move(free().back());
      free().pop_back();
      return m;
    }
    static void release(std::unique_ptr<Marks> m) {
      std::lock_guard<std::mutex> lock(mutex());
      free().push_back(std::move(m));
    }

   private:
    static std::mutex& mutex() {
      static std::mutex m;
      return m;
    }
    static std::vector<std::unique_ptr<Marks>>& free() {
      static auto* tables = new std::vector<std::unique_ptr<Marks>>();  // never destroyed: no exit order
      return *tables;
    }
  };

  const SegmentGraph& graph_;
  std::unique_ptr<Marks> marks_;
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

// The ready nodes after `group` joins the state (`next` = state ∪ group): those ready before and not in
// the group, and the group's successors within target whose predecessors are all in next. Ascending.
std::vector<int> ready_after(const SegmentGraph& graph, const std::vector<int>& ready, const NodeSet& group,
                             const NodeSet& next, const NodeSet& target) {
  std::vector<int> out;
  for (int u : ready)
    if (!group.test(u)) out.push_back(u);
  group.for_each([&](int g) {
    for (int s : graph.succs(g))
      if (target.test(s) && !next.test(s) && preds_done(graph, s, next, next)) out.push_back(s);
  });
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

std::vector<int> ready_nodes(const SegmentGraph& graph, const NodeSet& state, const NodeSet& target) {
  std::vector<int> out;
  (target - state).for_each([&](int u) {
    if (preds_done(graph, u, state, state)) out.push_back(u);
  });
  return out;
}

std::vector<GroupChoice> next_groups(const SegmentGraph& graph, const NodeSet& state, const NodeSet& target,
                                     bool maximal_only, int64_t& step_budget,
                                     std::optional<std::chrono::steady_clock::time_point> deadline,
                                     const std::vector<int>* ready) {
  std::vector<GroupChoice> out;
  std::unordered_set<NodeSet, NodeSetHash> seen;
  const NodeSet open = target - state;
  std::vector<int> computed_ready;
  if (!ready) {
    computed_ready = ready_nodes(graph, state, target);
    ready = &computed_ready;
  }
  for (SchedulerKind kind : scheduler_order()) {
    const bool maximal = maximal_only && is_hereditary(kind);
    // A group is offered as the first kind that accepts it, and a reduction-free group that Reduction or
    // Normalization accepts is accepted by Pointwise first: their enumeration needs only groups with a
    // reduction (docs/SEGMENTER.md). On those, Normalization's predicate is pairwise too.
    const bool with_reduction = needs_reduction(kind);
    // Every group of this kind lies within the candidates: nodes accepted alone whose predecessors are
    // done or candidates themselves. They are found from the ready nodes forward, in node order (each
    // node is pushed only by smaller ones, so the pops ascend and repeats come together), which costs
    // the candidates and their successors, not the whole open set.
    std::vector<int> cand;
    NodeSet in_cand(graph.size());
    std::priority_queue<int, std::vector<int>, std::greater<>> pending;
    for (int u : *ready)
      if (graph.accepts_alone(kind, u)) pending.push(u);
    for (int last = -1; !pending.empty();) {
      const int u = pending.top();
      pending.pop();
      if (u == last) continue;
      last = u;
      if (!graph.accepts_alone(kind, u) || !preds_done(graph, u, state, in_cand)) continue;
      cand.push_back(u);
      in_cand.set(u);
      for (int s : graph.succs(u))
        if (open.test(s)) pending.push(s);
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
    NodeSet scratch(graph.size());
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
        NodeSet& with_y = scratch;  // reused: a copy of a large set would allocate
        with_y = group;
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
              NodeSet& bigger = scratch;
              bigger = group;
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
        bool exclusion_useless = false;
        if (includable && maximal) {
          scratch = group;
          scratch |= later[i + 1];
          exclusion_useless = graph.accepts(kind, scratch);
        }
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
    GroupChoice via;
    bool closed;
    Cost bound;              // the lower bound of target - set
    std::vector<int> ready;  // nodes of target - set whose predecessors are all in set
  };
  std::vector<State> states;
  std::unordered_map<NodeSet, int, NodeSetHash> index;
  LowerBound lower_bound(graph);
  // Ordered by estimated cost (cost + lower bound, as Cost orders them), then by progress, then by age.
  using Entry = std::tuple<int64_t, int64_t, int64_t, int, int>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue;
  auto push = [&](int id, Cost estimate) {
    queue.emplace(estimate.total(), estimate.launches, estimate.bytes, -states[id].set.count(), id);
  };
  ExactSearchResult result;
  result.lower_bound = lower_bound(target - start);
  // Filled in place: GCC 12 warns (-Wmaybe-uninitialized) on destroying a braced temporary State.
  State& first = states.emplace_back();
  first.set = start;
  first.parent = -1;
  first.via.members = NodeSet(graph.size());
  first.via.kind = SchedulerKind::NoOp;
  first.closed = false;
  first.bound = result.lower_bound;
  first.ready = ready_nodes(graph, start, target);
  index.emplace(start, 0);
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
  const int to_cover = (target - start).count();
  int covered = 0;  // the most nodes of target - start that an expanded state holds
  while (!queue.empty()) {
    const int id = std::get<4>(queue.top());
    queue.pop();
    if (states[id].closed) continue;
    states[id].closed = true;
    ++result.states_expanded;
    if (states[id].set == target) {
      Partition p;
      for (int s = id; states[s].parent >= 0; s = states[s].parent)
        p.groups.push_back({states[s].via.members.members(), states[s].via.kind});
      std::reverse(p.groups.begin(), p.groups.end());
      p.cost = states[id].cost;
      result.partition = std::move(p);
      break;
    }
    if (--step_budget < 0 || Clock::now() > deadline) {
      out_of_budget = true;
      break;
    }
    covered = std::max(covered, (states[id].set - start).count());
    if (options.give_up_when_projected_late && elapsed() > options.time_budget_seconds / 10 &&
        elapsed() * to_cover > 2 * options.time_budget_seconds * std::max(covered, 1)) {
      out_of_budget = true;
      result.gave_up_early = true;
      break;
    }
    const NodeSet set = states[id].set;
    const Cost cost = states[id].cost;
    const Cost bound = states[id].bound;
    const NodeSet remaining = target - set;
    const std::vector<int> ready = states[id].ready;
    std::vector<GroupChoice> groups =
        next_groups(graph, set, target, options.maximal_groups_only, step_budget, deadline, &ready);
    if (step_budget < 0) {
      out_of_budget = true;
      break;
    }
    result.groups_generated += static_cast<int64_t>(groups.size());
    for (GroupChoice& g : groups) {
      NodeSet next = set | g.members;
      Cost next_cost = cost + group_cost(graph, g.members, g.kind);
      auto [it, inserted] = index.emplace(next, static_cast<int>(states.size()));
      if (!inserted) {
        const State& s = states[it->second];
        if (s.closed || !(next_cost < s.cost)) continue;
      }
      Cost next_bound = inserted ? lower_bound.after_step(remaining, bound, g.members, target - next)
                                 : states[it->second].bound;
      if (options.check_incremental_bound)
        SEAM_ASSERT(next_bound == lower_bound(target - next), "the incremental lower bound ",
                    next_bound.to_string(), " differs from the bound ",
                    lower_bound(target - next).to_string());
      Cost estimate = next_cost + next_bound;
      if (options.incumbent && !(estimate < *options.incumbent)) {
        if (inserted) index.erase(it);
        continue;
      }
      if (inserted) {
        std::vector<int> next_ready = ready_after(graph, ready, g.members, next, target);
        states.push_back(
            {std::move(next), next_cost, id, std::move(g), false, next_bound, std::move(next_ready)});
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

Cost segmentation_lower_bound(const SegmentGraph& graph) {
  LowerBound bound(graph);
  return bound(graph.all());
}

}  // namespace seam
