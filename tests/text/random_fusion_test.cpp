// The random fusion generator that other stages' property tests rely on.
#include "testing/random_fusion.h"

#include <gtest/gtest.h>

#include <set>

#include "ir/verify.h"
#include "support/error.h"
#include "text/printer.h"

namespace seam {
namespace {

TEST(RandomFusion, ThousandSeedsBuildAndVerify) {
  std::set<OpKind> seen;
  int zero_extents = 0, strided = 0, scalar_inputs = 0;
  RandomFusionOptions every_op;
  every_op.random = true;    // uniform and normal are off by default
  every_op.indexing = true;  // and so are the indexing ops
  every_op.scans = true;     // and the scans
  every_op.scatters = true;  // and scatter
  for (uint64_t seed = 0; seed < 1000; ++seed) {
    Fusion f = random_fusion(seed, every_op);
    ASSERT_NO_THROW(verify(f)) << "seed " << seed;
    ASSERT_FALSE(f.outputs().empty());
    for (const Node& n : f.nodes()) {
      seen.insert(n.op);
      for (int64_t e : n.type.shape) zero_extents += e == 0;
      if (n.op == OpKind::Input) {
        strided += n.attrs.has("strides");
        scalar_inputs += n.type.is_scalar;
      }
    }
  }
  for (int k = 0; k < kNumOpKinds; ++k)
    EXPECT_TRUE(seen.count(static_cast<OpKind>(k))) << "never generated: " << op_name(static_cast<OpKind>(k));
  EXPECT_GT(zero_extents, 0);
  EXPECT_GT(strided, 0);
  EXPECT_GT(scalar_inputs, 0);
}

TEST(RandomFusion, EverySinkIsAnOutput) {
  for (uint64_t seed = 0; seed < 200; ++seed) {
    Fusion f = random_fusion(seed);
    for (int32_t id = 0; id < f.num_nodes(); ++id) {
      if (!f.consumers(Value{id}).empty()) continue;
      EXPECT_TRUE(f.is_output(Value{id})) << "seed " << seed << " %" << id;
    }
  }
}

TEST(RandomFusion, SameSeedSameFusion) {
  EXPECT_EQ(print_fusion(random_fusion(7)), print_fusion(random_fusion(7)));
  EXPECT_NE(print_fusion(random_fusion(7)), print_fusion(random_fusion(8)));
}

TEST(RandomFusion, RespectsCategoryOptions) {
  RandomFusionOptions options;
  options.opaque = false;
  options.reductions = false;
  options.leaves = false;
  options.scalar_inputs = false;
  options.strided_inputs = false;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    Fusion f = random_fusion(seed, options);
    for (const Node& n : f.nodes()) {
      EXPECT_NE(n.category(), OpCategory::Opaque);
      EXPECT_NE(n.category(), OpCategory::Reduction);
      if (n.op == OpKind::Input) {
        EXPECT_FALSE(n.type.is_scalar);
        EXPECT_FALSE(n.attrs.has("strides"));
      }
    }
  }
}

TEST(RandomFusion, ExtentsStaySmall) {
  RandomFusionOptions options;
  options.num_ops = 60;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    Fusion f = random_fusion(seed, options);
    for (const Node& n : f.nodes()) EXPECT_LE(n.type.numel(), 4096) << "seed " << seed;
  }
}

}  // namespace
}  // namespace seam

namespace seam {
namespace {

TEST(RandomFusion, EdgeOptionsStillBuild) {
  RandomFusionOptions tiny;
  tiny.max_rank = 0;
  tiny.max_extent = 1;
  tiny.num_ops = 40;
  RandomFusionOptions only_inputs;
  only_inputs.pointwise = only_inputs.movement = only_inputs.reductions = only_inputs.opaque =
      only_inputs.leaves = false;
  RandomFusionOptions zeros;
  zeros.zero_extent_probability = 0.5;
  zeros.num_ops = 60;
  RandomFusionOptions wide;
  wide.max_rank = 5;
  wide.max_extent = 2;
  wide.num_ops = 80;
  for (const RandomFusionOptions& options : {tiny, only_inputs, zeros, wide}) {
    for (uint64_t seed = 0; seed < 100; ++seed) EXPECT_NO_THROW(verify(random_fusion(seed, options))) << seed;
  }
  RandomFusionOptions bad;
  bad.max_extent = 0;
  EXPECT_THROW(random_fusion(0, bad), Error);
}

}  // namespace
}  // namespace seam
