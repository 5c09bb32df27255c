#include "segment/greedy_fallback.h"

#include <algorithm>
#include <chrono>
#include <queue>
#include <tuple>

#include "segment/exact_search.h"
#include "segment/quotient_graph.h"
#include "support/error.h"

namespace seam {
namespace {

struct Candidate {
  Cost gain;
  int a, b;
  int version_a, version_b;
  // Largest gain first; ties by the earliest groups, so the result is deterministic.
  bool operator<(const Candidate& o) const {
    if (gain != o.gain) return gain < o.gain;
    return std::tie(a, b) > std::tie(o.a, o.b);
  }
};

// Readers of a value beyond this many are not all paired: a widely read input (a rotary table) would
// otherwise make the candidate list quadratic. Each reader is paired with this many nearest readers.
constexpr size_t kMaxSiblingsPerValue = 16;

}  // namespace

Partition greedy_merge(const SegmentGraph& graph, Budget budget, bool* finished) {
  QuotientGraph q(graph);
  const int n = graph.size();
  std::vector<std::vector<int>> readers(static_cast<size_t>(graph.fusion().num_nodes()));
  for (int u = 0; u < n; ++u)
    for (int32_t v : graph.reads(u)) readers[v].push_back(u);

  std::vector<Cost> cost(n);
  std::vector<int> version(n, 0);
  for (int u = 0; u < n; ++u) {
    std::optional<SchedulerKind> kind = graph.classify(q.members(u));
    SEAM_ASSERT(kind.has_value(), "node %", graph.node_id(u), " is accepted by no scheduler alone");
    cost[u] = group_cost(graph, q.members(u), *kind);
  }

  std::priority_queue<Candidate> heap;
  auto propose = [&](int a, int b) {
    if (a == b || !q.alive(a) || !q.alive(b)) return;
    if (a > b) std::swap(a, b);
    std::vector<int> merged = q.union_members(a, b);
    std::optional<SchedulerKind> kind = graph.classify(merged);
    if (!kind) return;
    Cost gain = cost[a] + cost[b] - group_cost(graph, merged, *kind);
    if (gain > Cost{}) heap.push({gain, a, b, version[a], version[b]});
  };
  auto neighbours = [&](int g) {
    std::vector<int> out = q.successors(g);
    out.insert(out.end(), q.predecessors(g).begin(), q.predecessors(g).end());
    for (int u : q.members(g))
      for (int32_t v : graph.reads(u)) {
        // The readers nearest to u in node order: all of them for most values, and for one read by
        // every layer the ones of its own neighbourhood (a merge with a distant reader would close a
        // cycle anyway, and finding that out walks everything in between).
        const std::vector<int>& r = readers[v];
        size_t at = static_cast<size_t>(std::lower_bound(r.begin(), r.end(), u) - r.begin());
        size_t first = std::min(at - std::min(at, kMaxSiblingsPerValue / 2),
                                r.size() - std::min(r.size(), kMaxSiblingsPerValue));
        for (size_t i = first; i < r.size() && i < first + kMaxSiblingsPerValue; ++i)
          out.push_back(q.owner(r[i]));
      }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  };

  for (int g = 0; g < n && budget.spend(); ++g)
    for (int h : neighbours(g))
      if (h > g) propose(g, h);
  while (!heap.empty() && budget.spend()) {
    Candidate c = heap.top();
    heap.pop();
    if (!q.alive(c.a) || !q.alive(c.b) || version[c.a] != c.version_a || version[c.b] != c.version_b)
      continue;
    if (q.merge_creates_cycle(c.a, c.b)) continue;
    q.merge(c.a, c.b);
    ++version[c.a];
    cost[c.a] = cost[c.a] + cost[c.b] - c.gain;
    for (int h : neighbours(c.a)) propose(c.a, h);
  }
  if (finished) *finished = heap.empty() && !budget.out();
  return q.to_partition();
}

Partition improve_by_windows(const SegmentGraph& graph, Partition partition, const GreedyOptions& options,
                             int* windows_solved, int* windows_improved, Budget budget) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  int solved = 0, improved = 0;
  NodeSet prefix(graph.size());  // nodes of the groups before the window
  size_t i = 0;
  while (i < partition.groups.size()) {
    if (std::chrono::duration<double>(Clock::now() - t0).count() > options.time_budget_seconds ||
        !budget.spend())
      break;
    size_t j = i;
    int nodes = 0;
    NodeSet window(graph.size());
    while (j < partition.groups.size() && static_cast<int>(j - i) < options.window_groups) {
      int size = static_cast<int>(partition.groups[j].members.size());
      if (j > i && nodes + size > options.window_max_nodes) break;
      nodes += size;
      for (int u : partition.groups[j].members) window.set(u);
      ++j;
    }
    if (j - i >= 2) {
      Cost old = partition_cost(graph, {partition.groups.begin() + i, partition.groups.begin() + j});
      ExactSearchOptions search;
      search.time_budget_seconds = std::min(options.time_budget_seconds / 8, budget.seconds_left());
      search.state_budget = 20000;
      search.incumbent = old;
      ExactSearchResult r = exact_search(graph, prefix, prefix | window, search);
      ++solved;
      if (r.partition && r.partition->cost < old) {
        ++improved;
        partition.groups.erase(partition.groups.begin() + i, partition.groups.begin() + j);
        partition.groups.insert(partition.groups.begin() + i, r.partition->groups.begin(),
                                r.partition->groups.end());
        j = i + r.partition->groups.size();
      }
    }
    // Advance by half a window so that neighbouring windows overlap.
    size_t step = std::max<size_t>(1, (j - i) / 2);
    for (size_t k = i; k < i + step; ++k)
      for (int u : partition.groups[k].members) prefix.set(u);
    i += step;
  }
  partition.cost = partition_cost(graph, partition.groups);
  if (windows_solved) *windows_solved = solved;
  if (windows_improved) *windows_improved = improved;
  return partition;
}

GreedyResult greedy_fallback(const SegmentGraph& graph, const GreedyOptions& options, Budget budget) {
  GreedyResult result;
  result.plain = greedy_merge(graph, budget);
  result.improved = options.improve_windows
                        ? improve_by_windows(graph, result.plain, options, &result.windows_solved,
                                             &result.windows_improved, budget)
                        : result.plain;
  SEAM_ASSERT(result.improved.cost <= result.plain.cost, "window re-solving made the greedy result worse");
  return result;
}

}  // namespace seam
