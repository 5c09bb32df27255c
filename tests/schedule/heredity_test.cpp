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

}  // namespace
}  // namespace seam
