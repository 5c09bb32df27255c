// Size-limit overflows through the tool: a type past the size limits, a workload past the
// fusion size limit and a fusion past the host memory limit each fail with exit code 1 and a message.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tool_runner.h"

namespace seam {
namespace {

std::string write_file(const std::string& name, const std::string& text) {
  const std::filesystem::path path = std::filesystem::path(::testing::TempDir()) / ("seam_limits_" + name);
  std::ofstream(path) << text;
  return path.string();
}

TEST(ToolSizeLimits, TheIssuesTensorFailsCleanlyInEveryCommand) {
  // f64[2^31, 2^30]: 2^64 bytes, once wrapped to 0 (`run` crashed, `segment` printed "boundary bytes: 0").
  const std::string path = write_file("issue.seam", R"(fusion f {
  %x = input : f64[2147483648,1073741824]
  %y = neg %x : f64[2147483648,1073741824]
  return %y
}
)");
  for (const std::string command : {"verify", "run", "segment", "emit"}) {
    const Result r = seam(command + " " + path);
    EXPECT_EQ(r.code, 1) << command << ": " << r.output;
    EXPECT_NE(r.output.find(":2:16: type f64[2147483648,1073741824] has too many elements"),
              std::string::npos)
        << command << ": " << r.output;
  }
}

TEST(ToolSizeLimits, LegalTensorTooLargeForHostMemory) {
  // 4 MiB of values under a 1 MiB limit: refused before anything is allocated.
  const std::string path = write_file("big.seam", R"(fusion big {
  %x = input {name="x"} : f32[1048576]
  %y = neg %x : f32[1048576]
  return %y
}
)");
  const Result r = seam_with_env("SEAM_HOST_MEMORY_LIMIT=1M", "run " + path);
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("needs 4194304 bytes of host memory, over the limit of 1048576 bytes"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(seam_with_env("SEAM_HOST_MEMORY_LIMIT=64M", "run " + path).code, 0);
}

TEST(ToolSizeLimits, AbsurdLayerCountFailsFast) {
  const Result r = seam("workload transformer --layers 1000000");
  EXPECT_EQ(r.code, 1) << r.output.substr(0, 500);
  EXPECT_NE(r.output.find("transformer: 1000000 layers of "), std::string::npos) << r.output.substr(0, 500);
  EXPECT_NE(r.output.find("over the fusion size limit of 2^20 values plus outputs"), std::string::npos);
}

}  // namespace
}  // namespace seam
