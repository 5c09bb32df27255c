#include "segment/quotient_graph.h"

#include <algorithm>
#include <queue>

#include "support/error.h"

namespace seam {

QuotientGraph::QuotientGraph(const SegmentGraph& graph) : graph_(&graph) {
  for (int u = 0; u < graph.size(); ++u) {
    NodeSet s(graph.size());
    s.set(u);
    members_.push_back(std::move(s));
    alive_.push_back(true);
    owner_.push_back(u);
  }
}

std::vector<int> QuotientGraph::successors(int group) const {
  std::vector<int> out;
  for (int u : members(group).members())
    for (int s : graph_->succs(u))
      if (owner(s) != group) out.push_back(owner(s));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<int> QuotientGraph::predecessors(int group) const {
  std::vector<int> out;
  for (int u : members(group).members())
    for (int p : graph_->preds(u))
      if (owner(p) != group) out.push_back(owner(p));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

bool QuotientGraph::merge_creates_cycle(int a, int b) const {
  // A path from `from` to `to` through at least one other group.
  auto detour = [&](int from, int to) {
    std::vector<bool> seen(members_.size(), false);
    std::queue<int> queue;
    for (int s : successors(from))
      if (s != to) {
        seen[s] = true;
        queue.push(s);
      }
    while (!queue.empty()) {
      int g = queue.front();
      queue.pop();
      for (int s : successors(g)) {
        if (s == to) return true;
        if (!seen[s] && s != from) {
          seen[s] = true;
          queue.push(s);
        }
      }
    }
    return false;
  };
  return detour(a, b) || detour(b, a);
}

void QuotientGraph::merge(int a, int b) {
  SEAM_ASSERT(a != b && alive(a) && alive(b));
  for (int u : members(b).members()) owner_[u] = a;
  members_[a] |= members_[b];
  members_[b] = NodeSet(graph_->size());
  alive_[b] = false;
}

Partition QuotientGraph::to_partition() const {
  std::vector<int> indegree(members_.size(), 0);
  // Ready groups by their smallest node, so the order is deterministic.
  std::priority_queue<std::pair<int, int>, std::vector<std::pair<int, int>>, std::greater<>> ready;
  for (int g = 0; g < num_groups(); ++g) {
    if (!alive(g)) continue;
    indegree[g] = static_cast<int>(predecessors(g).size());
    if (indegree[g] == 0) ready.emplace(members(g).first(), g);
  }
  Partition p;
  while (!ready.empty()) {
    int g = ready.top().second;
    ready.pop();
    std::optional<SchedulerKind> kind = graph_->classify(members(g));
    SEAM_ASSERT(kind.has_value(), "a merged group no scheduler accepts");
    p.groups.push_back({members(g), *kind});
    for (int s : successors(g))
      if (--indegree[s] == 0) ready.emplace(members(s).first(), s);
  }
  size_t live = static_cast<size_t>(std::count(alive_.begin(), alive_.end(), true));
  SEAM_ASSERT(p.groups.size() == live, "the quotient graph has a cycle");
  p.cost = partition_cost(*graph_, p.groups);
  return p;
}

}  // namespace seam
