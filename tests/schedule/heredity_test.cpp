// is_hereditary's claim checked on random groups of random DAGs: every subset of an accepted group is
// accepted by the same kind.
#include <gtest/gtest.h>

#include <random>

#include "schedule/registry.h"
#include "segment/random_dag.h"

namespace seam {
namespace {

TEST(Heredity, SubsetsOfAcceptedGroupsAreAccepted) {
  std::mt19937_64 rng(1);
  int accepted[kNumSchedulerKinds] = {};
  for (uint64_t seed = 0; seed < 600; ++seed) {
    testing::RandomDagOptions o;
    o.ops = 4 + static_cast<int>(seed % 10);
    o.width = 1 + static_cast<int>(seed % 3);
    Fusion f = testing::random_dag(seed, o);
    std::vector<int32_t> nodes;
    for (int32_t id = 0; id < f.num_nodes(); ++id)
      if (f.node(Value{id}).op != OpKind::Input) nodes.push_back(id);
    for (int trial = 0; trial < 20; ++trial) {
      // Bias towards small groups of one kind of op by sampling each node with a random probability.
      double p = (rng() % 100) / 100.0;
      std::vector<int32_t> group;
      for (int32_t id : nodes)
        if ((rng() % 1000) / 1000.0 < p) group.push_back(id);
      for (SchedulerKind kind : scheduler_order()) {
        if (!is_hereditary(kind) || !can_schedule(kind, f, group)) continue;
        ++accepted[int(kind)];
        for (int sub = 0; sub < 8; ++sub) {
          std::vector<int32_t> subset;
          for (int32_t id : group)
            if (rng() % 2) subset.push_back(id);
          EXPECT_TRUE(can_schedule(kind, f, subset))
              << scheduler_name(kind) << " accepts a group of " << f.name() << " but not a subset of it";
        }
      }
    }
  }
  for (SchedulerKind kind : scheduler_order()) EXPECT_GT(accepted[int(kind)], 50) << scheduler_name(kind);
}

// The exact search's enumeration relies on two more claims (docs/SEGMENTER.md): a reduction-free group
// that a needs_reduction kind accepts is accepted by Pointwise, tried earlier; and a group with a
// reduction is accepted by an is_pairwise_with_reduction kind exactly when its nodes and pairs are.
TEST(Heredity, ReductionKindsAreFirstOnlyWithAReductionAndPairwiseThen) {
  std::mt19937_64 rng(2);
  int pairwise_checked = 0, rejected_with_reduction = 0;
  for (uint64_t seed = 0; seed < 600; ++seed) {
    testing::RandomDagOptions o;
    o.ops = 4 + static_cast<int>(seed % 10);
    o.width = 1 + static_cast<int>(seed % 3);
    Fusion f = testing::random_dag(seed + 100, o);
    std::vector<int32_t> nodes;
    for (int32_t id = 0; id < f.num_nodes(); ++id)
      if (f.node(Value{id}).op != OpKind::Input) nodes.push_back(id);
    for (int trial = 0; trial < 20; ++trial) {
      double p = (rng() % 100) / 100.0;
      std::vector<int32_t> group;
      bool has_reduction = false;
      for (int32_t id : nodes)
        if ((rng() % 1000) / 1000.0 < p) {
          group.push_back(id);
          has_reduction = has_reduction || f.node(Value{id}).category() == OpCategory::Reduction;
        }
      if (group.empty()) continue;
      for (SchedulerKind kind : scheduler_order()) {
        if (needs_reduction(kind) && !has_reduction && can_schedule(kind, f, group)) {
          EXPECT_TRUE(can_schedule(SchedulerKind::Pointwise, f, group)) << scheduler_name(kind);
        }
        if (!is_pairwise_with_reduction(kind) || !has_reduction) continue;
        bool nodes_and_pairs = true;
        for (size_t i = 0; i < group.size() && nodes_and_pairs; ++i)
          for (size_t j = i; j < group.size() && nodes_and_pairs; ++j) {
            std::vector<int32_t> pair{group[i]};
            if (j != i) pair.push_back(group[j]);
            nodes_and_pairs = can_schedule(kind, f, pair);
          }
        bool accepted = can_schedule(kind, f, group);
        EXPECT_EQ(accepted, nodes_and_pairs) << scheduler_name(kind) << " on a group of " << f.name();
        ++pairwise_checked;
        rejected_with_reduction += !accepted;
      }
    }
  }
  EXPECT_GT(pairwise_checked, 1000);
  EXPECT_GT(rejected_with_reduction, 100);  // the claim was tested on rejections too
}

}  // namespace
}  // namespace seam
