// The whole-tool fuzz driver (testing/whole_tool_check.h) on fixed seeds, so that a plain test run
// exercises it without libFuzzer, and the regression cases it found.
#include <gtest/gtest.h>

#include "ir/builder.h"
#include "testing/random_fusion.h"
#include "testing/whole_tool_check.h"

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

TEST(WholeTool, SeededCasesWithoutTheHostCompiler) {
  WholeToolOptions options;
  options.run_host_backend = false;
  int interpreted = 0, refused = 0;
  for (uint64_t seed = 0; seed < 120; ++seed) {
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
  for (uint64_t seed = 1000; seed < 1004; ++seed) {
    WholeToolCase c = whole_tool_case_from_seed(seed);
    c.options.huge_extent_probability = 0;  // small enough to run
    expect_passes(random_fusion(c.seed, c.options), options);
  }
}

}  // namespace
}  // namespace seam
