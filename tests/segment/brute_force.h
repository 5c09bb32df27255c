// Brute force for the oracle tests: the cheapest segmentation by trying every ordered partition with an
// acyclic quotient, written without anything from the exact search.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <vector>

#include "schedule/registry.h"
#include "segment/cost_model.h"
#include "segment/segment_graph.h"

namespace seam::testing {

// Every ordered partition with an acyclic quotient is a chain of down-sets, so the cheapest one is
// best(S) = min over non-empty accepted G with S | G down-closed of cost(G) + best(S | G), best(all) = 0.
// Masks over the owned nodes (at most ~12). Groups are classified by the registry directly.
inline Cost brute_force_optimum(const SegmentGraph& g) {
  const int n = g.size();
  const uint32_t all = (1u << n) - 1;
  std::vector<uint32_t> pred_mask(n, 0);
  for (int u = 0; u < n; ++u)
    for (int p : g.preds(u)) pred_mask[u] |= 1u << p;
  std::map<uint32_t, Cost> memo;
  auto to_set = [&](uint32_t mask) {
    NodeSet s(n);
    for (int u = 0; u < n; ++u)
      if (mask >> u & 1) s.set(u);
    return s;
  };
  const Cost infinite{0, std::numeric_limits<int64_t>::max() / 4};  // total() must not overflow
  std::function<Cost(uint32_t)> best = [&](uint32_t done) -> Cost {
    if (done == all) return Cost{};
    if (auto it = memo.find(done); it != memo.end()) return it->second;
    Cost result = infinite;
    const uint32_t rest = all & ~done;
    for (uint32_t group = rest; group; group = (group - 1) & rest) {
      bool closed = true;
      for (int u = 0; u < n && closed; ++u)
        if (group >> u & 1) closed = (pred_mask[u] & ~(done | group)) == 0;
      if (!closed) continue;
      NodeSet set = to_set(group);
      bool cut = false;
      for (auto [a, b] : g.must_cut()) cut = cut || ((group >> a & 1) && (group >> b & 1));
      if (cut) continue;
      std::optional<SchedulerKind> kind = choose_scheduler(g.fusion(), g.node_ids(set));
      if (!kind) continue;
      Cost c = group_cost(g, set, *kind) + best(done | group);
      if (c < result) result = c;
    }
    memo[done] = result;
    return result;
  };
  return best(0);
}

}  // namespace seam::testing
