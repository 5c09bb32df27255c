#include "segment/nvfuser_greedy.h"

#include <deque>

#include "segment/quotient_graph.h"

namespace seam {

Partition nvfuser_greedy(const SegmentGraph& graph, Budget budget) {
  QuotientGraph q(graph);
  std::deque<int> worklist;
  for (int g = 0; g < q.num_groups(); ++g) worklist.push_back(g);
  while (!worklist.empty() && budget.spend()) {
    int a = worklist.front();
    worklist.pop_front();
    if (!q.alive(a)) continue;
    const std::vector<int> consumers = q.successors(a);  // a copy: a merge changes the list
    for (int b : consumers) {
      if (!q.classify_union(a, b) || q.merge_creates_cycle(a, b)) continue;
      q.merge(a, b);
      worklist.push_back(a);
      break;
    }
  }
  return q.to_partition();
}

}  // namespace seam
