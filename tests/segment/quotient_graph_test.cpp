// The greedy strategies' group graph: on random DAGs and random merge sequences, the cycle check agrees
// with a check from scratch, the adjacency lists with the members' edges, and the maintained order stays
// topological; the check's work stays local on a long graph.
#include "segment/quotient_graph.h"

#include <gtest/gtest.h>

#include <random>

#include "passes/pipeline.h"
#include "segment/random_dag.h"
#include "workloads/transformer.h"

namespace seam {
namespace {

// Group-level edges recomputed from the members, and whether merging a and b closes a cycle, from scratch.
struct Reference {
  const SegmentGraph& graph;
  const QuotientGraph& q;

  std::vector<int> successors(int group) const {
    std::vector<int> out;
    for (int u : q.members(group))
      for (int s : graph.succs(u))
        if (q.owner(s) != group) out.push_back(q.owner(s));
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }
  // A path from `from` to `to` through at least one third group.
  bool detour(int from, int to) const {
    std::vector<bool> seen(static_cast<size_t>(q.num_groups()), false);
    std::vector<int> stack;
    for (int s : successors(from))
      if (s != to) stack.push_back(s);
    while (!stack.empty()) {
      int g = stack.back();
      stack.pop_back();
      if (seen[g]) continue;
      seen[g] = true;
      for (int s : successors(g)) {
        if (s == to) return true;
        if (s != from) stack.push_back(s);
      }
    }
    return false;
  }
};

TEST(QuotientGraph, RandomMergesKeepTheCycleCheckExact) {
  int merges = 0, refused = 0;
  for (uint64_t seed = 0; seed < 300; ++seed) {
    testing::RandomDagOptions o;
    o.ops = 6 + static_cast<int>(seed % 20);
    o.width = 1 + static_cast<int>(seed % 5);
    Fusion f = testing::random_dag(seed + 90000, o);
    SegmentGraph graph(f, {});
    QuotientGraph q(graph);
    Reference ref{graph, q};
    std::mt19937_64 rng(seed);
    for (int attempt = 0; attempt < 4 * graph.size(); ++attempt) {
      std::vector<int> live;
      for (int g = 0; g < q.num_groups(); ++g)
        if (q.alive(g)) live.push_back(g);
      if (live.size() < 2) break;
      int a = live[rng() % live.size()], b = live[rng() % live.size()];
      if (a == b || !q.classify_union(a, b)) continue;  // as the greedy does: to_partition classifies
      const bool cycle = ref.detour(a, b) || ref.detour(b, a);
      ASSERT_EQ(q.merge_creates_cycle(a, b), cycle) << "seed " << seed << " groups " << a << ", " << b;
      if (cycle) {
        ++refused;
        continue;
      }
      q.merge(a, b);
      ++merges;
      for (int g : live) {
        if (!q.alive(g)) continue;
        ASSERT_EQ(q.successors(g), ref.successors(g)) << "seed " << seed << " group " << g;
        for (int p : q.predecessors(g)) {
          const std::vector<int> succs = q.successors(p);
          EXPECT_TRUE(std::binary_search(succs.begin(), succs.end(), g)) << "seed " << seed;
        }
      }
    }
    // to_partition asserts that its order is topological and covers every live group.
    Partition p = q.to_partition();
    size_t covered = 0;
    for (const PartitionGroup& g : p.groups) covered += g.members.size();
    EXPECT_EQ(covered, static_cast<size_t>(graph.size())) << "seed " << seed;
  }
  EXPECT_GT(merges, 1000);
  EXPECT_GT(refused, 100);  // the random pairs do close cycles
  RecordProperty("merges", merges);
  RecordProperty("refused", refused);
}

TEST(QuotientGraph, CycleChecksStayLocalOnALongGraph) {
  // Merging each node of a 20-layer stack with its first successor, in order: every check searches only
  // between the two groups, so the work per check does not grow with the graph.
  auto work_per_check = [](int layers) {
    TransformerConfig c;
    c.layers = layers;
    Fusion f = run_pipeline(build_transformer_stack(c));
    SegmentGraph graph(f, {});
    QuotientGraph q(graph);
    int64_t checks = 0;
    for (int u = 0; u < graph.size(); ++u) {
      int a = q.owner(u);
      if (q.successors(a).empty()) continue;
      int b = q.successors(a).front();
      ++checks;
      if (!q.merge_creates_cycle(a, b)) q.merge(a, b);
    }
    return static_cast<double>(q.work()) / static_cast<double>(checks);
  };
  const double small = work_per_check(2), large = work_per_check(20);
  EXPECT_LT(large, 2 * small + 10) << "work per check: " << small << " at 2 layers, " << large << " at 20";
}

}  // namespace
}  // namespace seam
