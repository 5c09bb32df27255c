#include "segment/segment_graph.h"

#include <algorithm>

#include "schedule/registry.h"
#include "segment/mark_cheap_ops.h"
#include "segment/read_footprint.h"
#include "support/error.h"

namespace seam {
namespace {

void sort_unique(std::vector<int32_t>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

}  // namespace

SegmentGraph::SegmentGraph(const Fusion& fusion, const SegmentRules& rules)
    : fusion_(&fusion), limits_(rules.limits) {
  const int n = fusion.num_nodes();
  duplicated_ = rules.duplicate_cheap_ops ? mark_cheap_ops(fusion, rules.recompute_widening_chains)
                                          : std::vector<bool>(n, false);
  local_of_.assign(n, -1);
  for (int32_t id = 0; id < n; ++id) {
    const Node& node = fusion.node(Value{id});
    if (node.op == OpKind::Input) continue;
    if (duplicated_[id] && !fusion.is_output(Value{id})) continue;
    local_of_[id] = size();
    owned_.push_back(id);
    is_output_.push_back(fusion.is_output(Value{id}));
  }
  const int m = size();
  preds_.resize(m);
  succs_.resize(m);
  reads_.resize(m);
  dups_.resize(m);
  chain_ops_.resize(m);
  for (int u = 0; u < m; ++u) {
    // Operands reach across a boundary unless duplicated; duplicated ones are followed to what they read.
    std::vector<Value> stack(fusion.node(Value{owned_[u]}).operands);
    while (!stack.empty()) {
      Value v = stack.back();
      stack.pop_back();
      if (duplicated_[v.id]) {
        dups_[u].push_back(v.id);
        for (Value w : fusion.node(v).operands) stack.push_back(w);
      } else {
        reads_[u].push_back(v.id);
      }
    }
    sort_unique(dups_[u]);
    sort_unique(reads_[u]);
    // The duplicated ops on chains from computed values: (root, op) for every root an op reaches through
    // duplicated ops (an expanding compare has one per operand).
    for (int32_t d : dups_[u]) {
      std::vector<int32_t> walk{d}, roots;
      while (!walk.empty()) {
        const int32_t x = walk.back();
        walk.pop_back();
        for (Value w : fusion.node(Value{x}).operands) {
          if (duplicated_[w.id])
            walk.push_back(w.id);
          else if (local_of_[w.id] >= 0)
            roots.push_back(local_of_[w.id]);
        }
      }
      std::sort(roots.begin(), roots.end());
      roots.erase(std::unique(roots.begin(), roots.end()), roots.end());
      for (int root : roots) chain_ops_[u].emplace_back(root, d);
    }
    for (int32_t v : reads_[u]) {
      int p = local_of_[v];
      if (p < 0) continue;  // a fusion input
      preds_[u].push_back(p);
      succs_[p].push_back(u);
    }
  }

  // What each node reads of each fusion input, with the distinct views numbered graph-wide.
  input_reads_.resize(m);
  for (int u = 0; u < m; ++u) {
    for (InputView& view : input_views_read(fusion, duplicated_, owned_[u])) {
      int id = 0;
      while (id < static_cast<int>(views_.size()) &&
             !(views_[id].shape == view.layout.shape && views_[id].strides == view.layout.strides &&
               views_[id].offset == view.layout.offset))
        ++id;
      if (id == static_cast<int>(views_.size())) views_.push_back(std::move(view.layout));
      auto it = std::find_if(input_reads_[u].begin(), input_reads_[u].end(),
                             [&](const InputRead& r) { return r.input == view.input.id; });
      if (it == input_reads_[u].end())
        it = input_reads_[u].insert(input_reads_[u].end(), {view.input.id, {}, 0});
      it->views.push_back(id);
    }
    std::sort(input_reads_[u].begin(), input_reads_[u].end(),
              [](const InputRead& a, const InputRead& b) { return a.input < b.input; });
    for (InputRead& r : input_reads_[u]) {
      std::sort(r.views.begin(), r.views.end());
      r.views.erase(std::unique(r.views.begin(), r.views.end()), r.views.end());
      r.bytes = input_bytes(r.input, r.views);
    }
  }

  auto owned_local = [&](int32_t id) {
    SEAM_CHECK(id >= 0 && id < n, "must-cut names node %", id, ", which the fusion does not have");
    int local = local_of_[id];
    SEAM_CHECK(local >= 0, "must-cut names %", id,
               ", which is a fusion input or a duplicated cheap op and belongs to no single kernel");
    return local;
  };
  for (auto [a, b] : rules.must_cut) must_cut_.emplace_back(owned_local(a), owned_local(b));
  if (rules.cut_before_slice_pad)
    for (int u = 0; u < m; ++u) {
      OpKind op = fusion.node(Value{owned_[u]}).op;
      if (op != OpKind::Slice && op != OpKind::Pad) continue;
      for (int p : preds_[u]) must_cut_.emplace_back(p, u);
    }
  cut_partners_.resize(m);
  for (auto [a, b] : must_cut_) {
    cut_partners_[a].push_back(b);
    cut_partners_[b].push_back(a);
  }

  alone_.assign(m, 0);
  for (int u = 0; u < m; ++u) {
    int32_t id = owned_[u];
    for (SchedulerKind kind : scheduler_order())
      if (can_schedule(kind, fusion, GroupNodes(&id, 1), limits_)) alone_[u] |= uint8_t(1u << int(kind));
  }
  needs_kernel_ = NodeSet(m);
  input_readers_.resize(static_cast<size_t>(n));
  for (int u = 0; u < m; ++u) {
    if (accepts_alone(SchedulerKind::NoOp, u)) continue;
    if (!launches_alone(u)) needs_kernel_.set(u);
    for (const InputRead& r : input_reads_[u])
      input_readers_[static_cast<size_t>(r.input)].push_back({u, r.bytes});
  }
  for (std::vector<InputReader>& readers : input_readers_)
    std::sort(readers.begin(), readers.end(), [](const InputReader& a, const InputReader& b) {
      return a.bytes != b.bytes ? a.bytes > b.bytes : a.local < b.local;
    });
}

int64_t SegmentGraph::input_bytes(int32_t input, const std::vector<int>& views) const {
  auto [it, inserted] = input_bytes_memo_.try_emplace({input, views}, 0);
  if (inserted) {
    std::vector<StridedLayout> layouts;
    for (int v : views) layouts.push_back(views_[static_cast<size_t>(v)]);
    it->second = union_bytes(*fusion_, Value{input}, layouts);
  }
  return it->second;
}

NodeSet SegmentGraph::all() const {
  NodeSet s(size());
  for (int u = 0; u < size(); ++u) s.set(u);
  return s;
}

std::vector<int32_t> SegmentGraph::node_ids(const NodeSet& set) const {
  std::vector<int32_t> ids;
  for (int u : set.members()) ids.push_back(owned_[u]);
  return ids;
}

std::vector<int32_t> SegmentGraph::node_ids(std::span<const int> locals) const {
  std::vector<int32_t> ids;
  ids.reserve(locals.size());
  for (int u : locals) ids.push_back(owned_[static_cast<size_t>(u)]);
  return ids;
}

bool SegmentGraph::accepts_alone(SchedulerKind kind, int local) const {
  return (alone_[static_cast<size_t>(local)] >> int(kind)) & 1;
}

size_t SegmentGraph::IdsHash::operator()(const std::vector<int32_t>& ids) const {
  uint64_t h = 0x9e3779b97f4a7c15ull ^ ids.size();
  for (int32_t id : ids) {
    h ^= static_cast<uint64_t>(id) + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h *= 0xff51afd7ed558ccdull;
  }
  return static_cast<size_t>(h ^ (h >> 33));
}

void SegmentGraph::add_own_chains(SchedulerKind kind, const std::function<bool(int)>& contains,
                                  std::span<const int> members, std::vector<int32_t>& ids) const {
  if (kind != SchedulerKind::Reduction && kind != SchedulerKind::Normalization) return;
  const size_t before = ids.size();
  for (int u : members)
    for (auto [root, op] : chain_ops_[static_cast<size_t>(u)])
      if (contains(root)) ids.push_back(op);
  if (ids.size() == before) return;
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
}

bool SegmentGraph::accepts(SchedulerKind kind, const NodeSet& set) const {
  for (auto [a, b] : must_cut_)
    if (set.test(a) && set.test(b)) return false;
  const int k = int(kind);
  if (memo_.size() > (size_t{1} << 21)) memo_.clear();  // bound memory on huge searches
  std::vector<int32_t> ids = node_ids(set);
  uint16_t& entry = memo_[ids];
  if (!((entry >> k) & 1)) {
    ++predicate_calls_;
    std::vector<int32_t> kernel = ids;
    add_own_chains(
        kind, [&](int local) { return set.test(local); }, set.members(), kernel);
    bool ok = can_schedule(kind, *fusion_, kernel, limits_);
    entry = static_cast<uint16_t>(entry | (1u << k) | (ok ? (1u << (8 + k)) : 0u));
  }
  return (entry >> (8 + k)) & 1;
}

bool SegmentGraph::accepts(SchedulerKind kind, std::span<const int> sorted_members) const {
  for (int u : sorted_members)
    for (int partner : cut_partners_[static_cast<size_t>(u)])
      if (std::binary_search(sorted_members.begin(), sorted_members.end(), partner)) return false;
  ++predicate_calls_;
  std::vector<int32_t> ids;
  ids.reserve(sorted_members.size());
  for (int u : sorted_members) ids.push_back(owned_[static_cast<size_t>(u)]);
  auto contains = [&](int local) {
    return std::binary_search(sorted_members.begin(), sorted_members.end(), local);
  };
  add_own_chains(kind, contains, sorted_members, ids);
  return can_schedule(kind, *fusion_, ids, limits_);
}

std::optional<SchedulerKind> SegmentGraph::classify(std::span<const int> sorted_members) const {
  for (SchedulerKind kind : scheduler_order())
    if (accepts(kind, sorted_members)) return kind;
  return std::nullopt;
}

std::optional<SchedulerKind> SegmentGraph::classify(const NodeSet& set) const {
  for (SchedulerKind kind : scheduler_order())
    if (accepts(kind, set)) return kind;
  return std::nullopt;
}

}  // namespace seam
