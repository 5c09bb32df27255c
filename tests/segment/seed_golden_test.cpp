// The seed report's pattern: a squeeze and a cast next to a cat. nvFuser merged the squeeze and the cast
// first; with its rule of a boundary before slices, the slices of the squeezed tensor then sat in another
// kernel that both depend on, so the cast's kernel could not join the cat's.
#include <gtest/gtest.h>

#include "ir/builder.h"
#include "segment/dump.h"
#include "segment/segment.h"

namespace seam {
namespace {

// x [1,T,D] bf16 -> squeeze -> s [T,D]; q = cast(s) * cos + cast(cat(-s[:, D/2:], s[:, :D/2])) * sin.
Fusion seed_pattern() {
  const int64_t T = 8, D = 16;
  Builder b("seed_rope_q");
  Value x = b.input(Type::tensor(DType::BFloat16, {1, T, D}), "x");
  Value cos = b.input(Type::tensor(DType::BFloat16, {T, D}), "cos");
  Value sin = b.input(Type::tensor(DType::BFloat16, {T, D}), "sin");
  Value s = b.squeeze(x, {0});
  Value c = b.cast(s, DType::Float32);
  Value lo = b.slice_axis(s, 1, 0, D / 2);
  Value hi = b.slice_axis(s, 1, D / 2, D);
  Value rotated = b.cast(b.cat({b.neg(hi), lo}, 1), DType::Float32);
  Value y = b.add(b.mul(c, b.cast(cos, DType::Float32)), b.mul(rotated, b.cast(sin, DType::Float32)));
  return b.finish({{b.cast(y, DType::BFloat16), "q"}});
}

SegmentOptions with(SegmentStrategy strategy, bool nvfuser_rules) {
  SegmentOptions o;
  o.strategy = strategy;
  o.rules.duplicate_cheap_ops = !nvfuser_rules;
  o.rules.cut_before_slice_pad = nvfuser_rules;
  return o;
}

TEST(SeedGolden, OneKernelWhereTheNvfuserGreedyNeedsMore) {
  Fusion f = seed_pattern();
  SegmentedFusion ours = segment_fusion(f, with(SegmentStrategy::Auto, false));
  EXPECT_EQ(ours.num_kernels(), 1);
  EXPECT_TRUE(ours.proven_optimal);
  // The whole fusion reads x, cos and sin once and writes q once.
  EXPECT_EQ(ours.boundary_bytes(), 4 * 8 * 16 * 2);

  SegmentedFusion nvfuser = segment_fusion(f, with(SegmentStrategy::NvfuserGreedy, true));
  EXPECT_EQ(nvfuser.num_kernels(), 2) << dump_segments(nvfuser);
  // The order, not the rule, costs the second kernel: under the same rules the search finds one kernel
  // (the squeeze becomes a view, so the slices read the input).
  SegmentedFusion exact_same_rules = segment_fusion(f, with(SegmentStrategy::Exact, true));
  EXPECT_EQ(exact_same_rules.num_kernels(), 1) << dump_segments(exact_same_rules);
}

TEST(SeedGolden, DumpShowsTheOneKernel) {
  SegmentedFusion s = segment_fusion(seed_pattern(), with(SegmentStrategy::Auto, false));
  std::string dump = dump_segments(s, {.show_time = false});
  EXPECT_NE(dump.find("group 0: pointwise\n"), std::string::npos) << dump;
  EXPECT_EQ(dump.find("group 1"), std::string::npos) << dump;
  EXPECT_NE(dump.find("  inputs: %0 bf16[1,8,16], %1 bf16[8,16], %2 bf16[8,16]\n"), std::string::npos)
      << dump;
  EXPECT_NE(dump.find("kernels: 1\n"), std::string::npos) << dump;
  EXPECT_NE(dump.find("duplicated: %3 = squeeze, %4 = cast"), std::string::npos) << dump;
  EXPECT_EQ(dump.find("search:"), std::string::npos);
  std::string dot = segments_to_dot(s);
  EXPECT_NE(dot.find("subgraph cluster_0"), std::string::npos);
  EXPECT_EQ(dot.find("subgraph cluster_1"), std::string::npos);
}

}  // namespace
}  // namespace seam
