#include "segment/cost_model.h"

#include <algorithm>
#include <vector>

namespace seam {

std::string Cost::to_string() const {
  return std::to_string(launches) + " kernels, " + std::to_string(bytes) + " bytes";
}

namespace {

// `for_each(f)` calls f on each member; `contains(local)` tests membership.
template <typename ForEach, typename Contains>
Cost cost_of(const SegmentGraph& graph, ForEach&& for_each, Contains&& contains, SchedulerKind kind) {
  Cost cost{launch_count(kind), 0};
  if (kind == SchedulerKind::NoOp) return cost;
  std::vector<int32_t> values;                       // other groups' values read
  std::vector<std::pair<int32_t, int>> input_views;  // (fusion input, view id) read
  for_each([&](int u) {
    for (int32_t v : graph.reads(u)) {
      int local = graph.local_of(v);
      if (local >= 0 && !contains(local)) values.push_back(v);
    }
    for (const SegmentGraph::InputRead& r : graph.input_reads(u))
      for (int view : r.views) input_views.emplace_back(r.input, view);
    bool leaves = graph.is_fusion_output(u);
    for (int s : graph.succs(u)) leaves = leaves || !contains(s);
    if (leaves) cost.bytes += graph.value_bytes(graph.node_id(u));
  });
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  for (int32_t v : values) cost.bytes += graph.value_bytes(v);
  std::sort(input_views.begin(), input_views.end());
  input_views.erase(std::unique(input_views.begin(), input_views.end()), input_views.end());
  std::vector<int> views;
  for (size_t i = 0; i < input_views.size();) {
    const int32_t input = input_views[i].first;
    views.clear();
    for (; i < input_views.size() && input_views[i].first == input; ++i)
      views.push_back(input_views[i].second);
    cost.bytes += graph.input_bytes(input, views);
  }
  return cost;
}

}  // namespace

Cost group_cost(const SegmentGraph& graph, const NodeSet& group, SchedulerKind kind) {
  return cost_of(
      graph, [&](auto&& f) { group.for_each(f); }, [&](int local) { return group.test(local); }, kind);
}

Cost group_cost(const SegmentGraph& graph, std::span<const int> sorted_members, SchedulerKind kind) {
  return cost_of(
      graph,
      [&](auto&& f) {
        for (int u : sorted_members) f(u);
      },
      [&](int local) { return std::binary_search(sorted_members.begin(), sorted_members.end(), local); },
      kind);
}

}  // namespace seam
