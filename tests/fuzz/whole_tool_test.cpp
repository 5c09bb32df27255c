// The whole-tool fuzz driver (testing/whole_tool_check.h) on fixed seeds, so that a plain test run
// exercises it without libFuzzer, and the regression cases it found.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <utility>

#include "ir/builder.h"
#include "testing/random_fusion.h"
#include "testing/whole_tool_check.h"
#include "text/parser.h"

namespace seam {
namespace {

void expect_passes(const Fusion& fusion, const WholeToolOptions& options, WholeToolReport* report = nullptr) {
  try {
    WholeToolReport r = check_whole_tool(fusion, options);
    if (report) *report = r;
  } catch (const WholeToolFailure& e) {
    ADD_FAILURE() << e.what();
  }
}

// SEAM_WHOLE_TOOL_SEEDS=FIRST:COUNT runs other seeds (a longer search without libFuzzer).
std::pair<uint64_t, uint64_t> seed_range(uint64_t first, uint64_t count) {
  if (const char* text = std::getenv("SEAM_WHOLE_TOOL_SEEDS")) {
    const std::string s = text;
    const size_t colon = s.find(':');
    if (colon != std::string::npos)
      return {std::stoull(s.substr(0, colon)), std::stoull(s.substr(colon + 1))};
  }
  return {first, count};
}

TEST(WholeTool, SeededCasesWithoutTheHostCompiler) {
  WholeToolOptions options;
  options.run_host_backend = false;
  int interpreted = 0, refused = 0;
  const auto [first, count] = seed_range(0, 150);
  for (uint64_t seed = first; seed < first + count; ++seed) {
    const WholeToolCase c = whole_tool_case_from_seed(seed);
    WholeToolReport report;
    expect_passes(random_fusion(c.seed, c.options), options, &report);
    interpreted += report.interpreted;
    refused += report.refused_by_host_memory;
  }
  // Both paths are taken: small fusions run on the interpreter, huge ones are refused up front.
  EXPECT_GT(interpreted, 20);
  EXPECT_GT(refused, 5);
}

TEST(WholeTool, SeededCasesOnTheHostBackend) {
  WholeToolOptions options;
  const auto [first, count] = seed_range(1000, 4);
  for (uint64_t seed = first; seed < first + count; ++seed) {
    WholeToolCase c = whole_tool_case_from_seed(seed);
    c.options.huge_extent_probability = 0;  // small enough to run
    expect_passes(random_fusion(c.seed, c.options), options);
  }
}

std::vector<std::filesystem::path> seam_files(const std::string& folder) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(SEAM_FUZZ_DIR) / folder))
    if (entry.path().extension() == ".seam") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

// Every case the fuzzer found and that was fixed passes the whole tool, host backend included.
TEST(WholeTool, Regressions) {
  const std::vector<std::filesystem::path> files = seam_files("regressions");
  EXPECT_FALSE(files.empty());
  WholeToolOptions options;
  options.skip_known_findings = false;
  for (const auto& file : files) {
    SCOPED_TRACE(file.string());
    expect_passes(parse_fusion_file(file.string()), options);
  }
}

// Every known finding (whole_tool_check.h) still reproduces from its file. When this fails, the bug was
// fixed: move the file to regressions/ and drop its kKnownFindings entry.
TEST(WholeTool, KnownFindingsStillReproduce) {
  const std::vector<std::filesystem::path> files = seam_files("findings");
  EXPECT_EQ(files.size(), kKnownFindings.size());
  for (const auto& file : files) {
    SCOPED_TRACE(file.string());
    const Fusion fusion = parse_fusion_file(file.string());
    WholeToolOptions options;
    options.run_host_backend = false;
    EXPECT_NE(check_whole_tool(fusion, options).known, nullptr);
    options.skip_known_findings = false;
    EXPECT_THROW(check_whole_tool(fusion, options), WholeToolFailure);
  }
}

}  // namespace
}  // namespace seam
