// The segmenter's figure of merit: the seam regions of Llama, Qwen2 and GPT-2 training steps at the GPU
// benchmark's shapes (bench/model_regions/, made by bench/model_regions.py), re-segmented with budgets
// in states (the same result under any load), and the bytes their kernels move per step compared with
// bench/model_regions/golden.txt: a change may lower them (then lower the file), never raise them.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "passes/pipeline.h"
#include "segment/segment.h"
#include "text/parser.h"

namespace seam {
namespace {

const std::string kRegionsDir = std::string(SEAM_TEST_DATA_DIR) + "/../../bench/model_regions";

struct StepTotals {
  int64_t regions = 0, kernels = 0, bytes = 0, floor = 0;
};

// "file count" lines of <model>/regions.txt, '#' comments skipped.
std::vector<std::pair<std::string, int>> manifest(const std::string& model) {
  std::ifstream in(kRegionsDir + "/" + model + "/regions.txt");
  EXPECT_TRUE(in.good()) << "no manifest for " << model;
  std::vector<std::pair<std::string, int>> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string file;
    int count = 0;
    fields >> file >> count;
    EXPECT_GT(count, 0) << line;
    rows.emplace_back(file, count);
  }
  return rows;
}

StepTotals segment_step(const std::string& model) {
  StepTotals t;
  for (const auto& [file, count] : manifest(model)) {
    Fusion fusion = run_pipeline(parse_fusion_file(kRegionsDir + "/" + model + "/" + file));
    SegmentedFusion s = segment_fusion(fusion, reproducible_segment_options());
    t.regions += count;
    t.kernels += int64_t{s.num_kernels()} * count;
    t.bytes += s.boundary_bytes() * count;
    t.floor += s.floor_bytes * count;
  }
  return t;
}

// model -> bytes per step, from golden.txt ("model bytes" lines)
std::map<std::string, int64_t> golden() {
  std::ifstream in(kRegionsDir + "/golden.txt");
  EXPECT_TRUE(in.good()) << "no golden.txt in " << kRegionsDir;
  std::map<std::string, int64_t> bounds;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string model;
    int64_t bytes = 0;
    fields >> model >> bytes;
    bounds[model] = bytes;
  }
  return bounds;
}

class ModelRegions : public ::testing::TestWithParam<std::string> {};

TEST_P(ModelRegions, BytesPerStepStayWithinTheGoldenBound) {
  const std::string model = GetParam();
  const auto bounds = golden();
  ASSERT_TRUE(bounds.count(model)) << model << " has no line in golden.txt";
  const int64_t golden_bytes = bounds.at(model);
  const StepTotals t = segment_step(model);
  std::printf("%s: %lld regions, %lld kernels, %.3f GB moved (golden %.3f GB), floor estimate %.3f GB\n",
              model.c_str(), static_cast<long long>(t.regions), static_cast<long long>(t.kernels),
              t.bytes / 1e9, golden_bytes / 1e9, t.floor / 1e9);
  EXPECT_GT(t.regions, 0);
  EXPECT_LE(t.bytes, golden_bytes) << model << ": the step's kernels move more bytes than golden.txt allows";
  EXPECT_LE(t.floor, t.bytes) << model << ": the floor estimate is above what the segmentation moves";
  if (t.bytes < golden_bytes)
    std::printf("%s: below the golden bound; lower golden.txt to %lld bytes\n", model.c_str(),
                static_cast<long long>(t.bytes));
}

INSTANTIATE_TEST_SUITE_P(TrainingSteps, ModelRegions, ::testing::Values("llama", "qwen2", "gpt2"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace seam
