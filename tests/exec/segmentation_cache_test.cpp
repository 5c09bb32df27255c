// Segmentation once per structure and size class (exec/segmentation_cache.h): a new size of a known
// class reuses the groups, re-checked for its sizes, and gets what a fresh search gives.
#include "exec/segmentation_cache.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "exec/executable.h"
#include "passes/pipeline.h"
#include "text/parser.h"
#include "workloads/rope.h"
#include "workloads/transformer.h"

namespace seam {
namespace {

std::string scaled_exp(int64_t m, int64_t n) {
  const std::string shape = "[" + std::to_string(m) + "," + std::to_string(n) + "]";
  const std::string row = "[" + std::to_string(m) + ",1]";
  return "fusion scaled_exp {\n  %x = input {name=\"x\"} : f32" + shape + "\n  %sq = mul %x, %x : f32" +
         shape + "\n  %s = sum %sq {axes=[1], keepdim=true} : f32" + row + "\n  %e = exp %x : f32" + shape +
         "\n  %r = rsqrt %s : f32" + row + "\n  %rb = expand %r {shape=" + shape + "} : f32" + shape +
         "\n  %y = mul %e, %rb : f32" + shape + "\n  return y=%y\n}\n";
}

void expect_same_groups(const SegmentedFusion& reused, const SegmentedFusion& fresh,
                        const std::string& what) {
  ASSERT_EQ(reused.groups.size(), fresh.groups.size()) << what;
  for (size_t g = 0; g < fresh.groups.size(); ++g) {
    EXPECT_EQ(reused.groups[g].kind, fresh.groups[g].kind) << what << " group " << g;
    EXPECT_EQ(reused.groups[g].nodes, fresh.groups[g].nodes) << what << " group " << g;
    EXPECT_EQ(reused.groups[g].inputs, fresh.groups[g].inputs) << what << " group " << g;
    EXPECT_EQ(reused.groups[g].outputs, fresh.groups[g].outputs) << what << " group " << g;
    EXPECT_EQ(reused.groups[g].boundary_bytes, fresh.groups[g].boundary_bytes) << what << " group " << g;
  }
}

// Sizes of one class: the first searches, the others reuse, and each gets the groups and boundary bytes
// a fresh search of its own sizes gives.
void check_sweep(const std::vector<Fusion>& fusions) {
  SegmentationCache cache;
  for (size_t i = 0; i < fusions.size(); ++i) {
    const Fusion passed = run_pipeline(fusions[i], PipelineOptions{});
    bool reused = false;
    const SegmentedFusion got = cache.segment(passed, SegmentOptions{}, &reused);
    EXPECT_EQ(reused, i > 0) << fusions[i].name() << " size " << i;
    expect_same_groups(got, segment_fusion(passed), fusions[i].name() + " size " + std::to_string(i));
  }
  EXPECT_EQ(cache.size(), 1u);
}

TEST(SegmentationCache, RowCountsAndLengthsOfOneClass) {
  std::vector<Fusion> fusions;
  for (auto [m, n] :
       std::vector<std::pair<int64_t, int64_t>>{{4, 128}, {7, 128}, {300, 96}, {2, 4096}, {65, 33}})
    fusions.push_back(parse_fusion(scaled_exp(m, n)));
  check_sweep(fusions);
}

// SEAM_DUMP=segments shows a reused segmentation too, saying it was reused.
TEST(SegmentationCache, DumpShowsAReuse) {
  SegmentationCache cache;
  const Fusion first = run_pipeline(parse_fusion(scaled_exp(4, 128)), PipelineOptions{});
  const Fusion second = run_pipeline(parse_fusion(scaled_exp(9, 128)), PipelineOptions{});
  cache.segment(first, SegmentOptions{});
  ASSERT_EQ(setenv("SEAM_DUMP", "kir,segments", 1), 0);
  testing::internal::CaptureStderr();
  bool reused = false;
  cache.segment(second, SegmentOptions{}, &reused);
  const std::string dump = testing::internal::GetCapturedStderr();
  unsetenv("SEAM_DUMP");
  EXPECT_TRUE(reused);
  EXPECT_NE(dump.find("(reused: the segmentation of an earlier size"), std::string::npos) << dump;
  EXPECT_NE(dump.find("f32[9,128]"), std::string::npos) << dump;  // the new sizes' boundaries
}

// A mean divided by the row length, a constant of the fusion: constants are classes too.
TEST(SegmentationCache, ConstantsThatFollowTheSizes) {
  std::vector<Fusion> fusions;
  for (int64_t n : {128, 1000, 77}) {
    const std::string shape = "[5," + std::to_string(n) + "]";
    fusions.push_back(parse_fusion(
        "fusion centered {\n  %x = input {name=\"x\"} : f32" + shape +
        "\n  %s = sum %x {axes=[1], keepdim=true} : f32[5,1]\n  %n = const {value=" + std::to_string(n) +
        "} : i64\n  %mean = div %s, %n : f32[5,1]\n  %mb = expand "
        "%mean {shape=" +
        shape + "} : f32" + shape + "\n  %y = sub %x, %mb : f32" + shape + "\n  return y=%y\n}\n"));
  }
  check_sweep(fusions);
}

TEST(SegmentationCache, RopeSequenceLengths) {
  for (Direction direction : {Direction::Forward, Direction::Backward}) {
    std::vector<Fusion> fusions;
    for (int64_t t : {64, 9, 65, 200}) {
      RopeOptions options;
      options.seq_len = t;
      options.direction = direction;
      fusions.push_back(build_rope(rope_configs().front(), options));
    }
    check_sweep(fusions);
  }
}

TEST(SegmentationCache, TransformerLayerSequenceLengths) {
  std::vector<Fusion> fusions;
  for (int64_t t : {64, 48, 100}) {
    TransformerConfig config;
    config.seq_len = t;
    fusions.push_back(build_transformer_stack(config));
  }
  check_sweep(fusions);
}

// Unit axes and small extents are other classes (the scheduler predicates decide from them), and so are
// other segmentation options: each searches.
TEST(SegmentationCache, OtherClassesAndOptionsSearch) {
  SegmentationCache cache;
  bool reused = true;
  cache.segment(run_pipeline(parse_fusion(scaled_exp(4, 128)), PipelineOptions{}), SegmentOptions{}, &reused);
  EXPECT_FALSE(reused);
  cache.segment(run_pipeline(parse_fusion(scaled_exp(4, 8)), PipelineOptions{}), SegmentOptions{}, &reused);
  EXPECT_FALSE(reused) << "a row of 8 elements is another class (an inlinable reduction)";
  cache.segment(run_pipeline(parse_fusion(scaled_exp(3, 8)), PipelineOptions{}), SegmentOptions{}, &reused);
  EXPECT_TRUE(reused);
  cache.segment(run_pipeline(parse_fusion(scaled_exp(4, 1)), PipelineOptions{}), SegmentOptions{}, &reused);
  EXPECT_FALSE(reused) << "a unit row is another class";
  SegmentOptions greedy;
  greedy.strategy = SegmentStrategy::Greedy;
  cache.segment(run_pipeline(parse_fusion(scaled_exp(8, 128)), PipelineOptions{}), greedy, &reused);
  EXPECT_FALSE(reused) << "other options";
  cache.segment(run_pipeline(parse_fusion(scaled_exp(9, 256)), PipelineOptions{}), SegmentOptions{}, &reused);
  EXPECT_TRUE(reused);
  EXPECT_NE(segmentation_key(parse_fusion(scaled_exp(4, 128)), SegmentOptions{}),
            segmentation_key(parse_fusion(scaled_exp(1, 128)), SegmentOptions{}));
}

// Through Executable::compile: the stage is reported as reused, and the executable is right.
TEST(SegmentationCache, ExecutableReportsTheReusedStage) {
  ExecutableOptions options;
  options.backend = Backend::Host;
  options.run_passes = true;
  auto first = Executable::compile(parse_fusion(scaled_exp(5, 1024)), options);
  auto second = Executable::compile(parse_fusion(scaled_exp(11, 1024)), options);
  EXPECT_EQ(second->reused_stages(), std::vector<std::string>{"segment"});
  options.reuse_segmentation = false;
  auto third = Executable::compile(parse_fusion(scaled_exp(12, 1024)), options);
  EXPECT_TRUE(third->reused_stages().empty());
}

}  // namespace
}  // namespace seam
