#include "segment/quotient_graph.h"

#include <algorithm>
#include <queue>

#include "support/error.h"

namespace seam {
namespace {

void insert_sorted(std::vector<int>& v, int x) {
  auto it = std::lower_bound(v.begin(), v.end(), x);
  if (it == v.end() || *it != x) v.insert(it, x);
}

void erase_sorted(std::vector<int>& v, int x) {
  auto it = std::lower_bound(v.begin(), v.end(), x);
  if (it != v.end() && *it == x) v.erase(it);
}

// a ∪ b without `drop1` and `drop2`, sorted.
std::vector<int> merged_without(const std::vector<int>& a, const std::vector<int>& b, int drop1, int drop2) {
  std::vector<int> out;
  out.reserve(a.size() + b.size());
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  erase_sorted(out, drop1);
  erase_sorted(out, drop2);
  return out;
}

}  // namespace

QuotientGraph::QuotientGraph(const SegmentGraph& graph) : graph_(&graph) {
  const size_t n = static_cast<size_t>(graph.size());
  members_.resize(n);
  succs_.resize(n);
  preds_.resize(n);
  alive_.assign(n, true);
  owner_.resize(n);
  pos_.resize(n);
  seen_.assign(n, 0);
  for (int u = 0; u < graph.size(); ++u) {
    members_[u] = {u};
    owner_[u] = u;
    pos_[u] = u;  // local indices are a topological order
    succs_[u] = graph.succs(u);
    preds_[u] = graph.preds(u);
    std::sort(succs_[u].begin(), succs_[u].end());
    succs_[u].erase(std::unique(succs_[u].begin(), succs_[u].end()), succs_[u].end());
    std::sort(preds_[u].begin(), preds_[u].end());
    preds_[u].erase(std::unique(preds_[u].begin(), preds_[u].end()), preds_[u].end());
  }
}

std::vector<int> QuotientGraph::union_members(int a, int b) const {
  std::vector<int> out;
  out.reserve(members(a).size() + members(b).size());
  std::merge(members(a).begin(), members(a).end(), members(b).begin(), members(b).end(),
             std::back_inserter(out));
  return out;
}

std::optional<SchedulerKind> QuotientGraph::classify_union(int a, int b) const {
  return graph_->classify(union_members(a, b));
}

bool QuotientGraph::mark(int group) const {
  ++work_;
  if (seen_[static_cast<size_t>(group)] == epoch_) return false;
  seen_[static_cast<size_t>(group)] = epoch_;
  return true;
}

bool QuotientGraph::reached_from(int lo, int hi, std::vector<int>& out) const {
  // Every path lo -> ... -> hi passes only groups placed between them, so nothing else is searched.
  ++epoch_;
  out.clear();
  std::vector<int> stack{lo};
  mark(lo);
  while (!stack.empty()) {
    int g = stack.back();
    stack.pop_back();
    for (int s : successors(g)) {
      if (s == hi) {
        if (g != lo) return false;
        continue;
      }
      if (pos_[s] < pos_[hi] && mark(s)) {
        out.push_back(s);
        stack.push_back(s);
      }
    }
  }
  return true;
}

void QuotientGraph::reaching(int lo, int hi, std::vector<int>& out) const {
  ++epoch_;
  out.clear();
  std::vector<int> stack{hi};
  mark(hi);
  while (!stack.empty()) {
    int g = stack.back();
    stack.pop_back();
    for (int p : predecessors(g))
      if (p != lo && pos_[p] > pos_[lo] && mark(p)) {
        out.push_back(p);
        stack.push_back(p);
      }
  }
}

bool QuotientGraph::merge_creates_cycle(int a, int b) const {
  SEAM_ASSERT(a != b && alive(a) && alive(b));
  const bool a_first = pos_[a] < pos_[b];
  std::vector<int> between;
  return !reached_from(a_first ? a : b, a_first ? b : a, between);
}

void QuotientGraph::merge(int a, int b) {
  SEAM_ASSERT(a != b && alive(a) && alive(b));
  const int lo = pos_[a] < pos_[b] ? a : b;
  const int hi = lo == a ? b : a;
  // Repair the order: what lo reaches inside the window goes after the merged group, what reaches hi
  // before it; the others keep their places. The moved groups take the window's places in that order.
  std::vector<int> after, before;
  const bool acyclic = reached_from(lo, hi, after);
  SEAM_ASSERT(acyclic, "merging groups ", a, " and ", b, " closes a cycle");
  reaching(lo, hi, before);
  auto by_pos = [&](int x, int y) { return pos_[x] < pos_[y]; };
  std::sort(after.begin(), after.end(), by_pos);
  std::sort(before.begin(), before.end(), by_pos);
  std::vector<int> places;
  places.reserve(after.size() + before.size() + 2);
  places.push_back(pos_[lo]);
  places.push_back(pos_[hi]);
  for (int g : after) places.push_back(pos_[g]);
  for (int g : before) places.push_back(pos_[g]);
  std::sort(places.begin(), places.end());
  // Dropping the last place moves groups of `before` only earlier and those of `after` only later.
  size_t next = 0;
  for (int g : before) pos_[g] = places[next++];
  pos_[a] = places[next++];
  for (int g : after) pos_[g] = places[next++];

  // Contract the edges: b's neighbours now see a.
  for (int s : succs_[b]) {
    erase_sorted(preds_[s], b);
    if (s != a) insert_sorted(preds_[s], a);
  }
  for (int p : preds_[b]) {
    erase_sorted(succs_[p], b);
    if (p != a) insert_sorted(succs_[p], a);
  }
  succs_[a] = merged_without(succs_[a], succs_[b], a, b);
  preds_[a] = merged_without(preds_[a], preds_[b], a, b);
  succs_[b].clear();
  preds_[b].clear();
  for (int u : members_[b]) owner_[u] = a;
  std::vector<int> members;
  members.reserve(members_[a].size() + members_[b].size());
  std::merge(members_[a].begin(), members_[a].end(), members_[b].begin(), members_[b].end(),
             std::back_inserter(members));
  members_[a] = std::move(members);
  members_[b].clear();
  alive_[b] = false;
}

Partition QuotientGraph::to_partition() const {
  std::vector<int> indegree(members_.size(), 0);
  // Ready groups by their smallest node, so the order is deterministic.
  std::priority_queue<std::pair<int, int>, std::vector<std::pair<int, int>>, std::greater<>> ready;
  for (int g = 0; g < num_groups(); ++g) {
    if (!alive(g)) continue;
    indegree[g] = static_cast<int>(predecessors(g).size());
    if (indegree[g] == 0) ready.emplace(members(g).front(), g);
  }
  Partition p;
  while (!ready.empty()) {
    int g = ready.top().second;
    ready.pop();
    std::optional<SchedulerKind> kind = graph_->classify(members(g));
    SEAM_ASSERT(kind.has_value(), "a merged group no scheduler accepts");
    p.cost = p.cost + group_cost(*graph_, members(g), *kind);
    p.groups.push_back({members(g), *kind});
    for (int s : successors(g))
      if (--indegree[s] == 0) ready.emplace(members(s).front(), s);
  }
  size_t live = static_cast<size_t>(std::count(alive_.begin(), alive_.end(), true));
  SEAM_ASSERT(p.groups.size() == live, "the quotient graph has a cycle");
  return p;
}

}  // namespace seam
