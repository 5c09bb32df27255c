// The reproductions of issue 18 through the tool: a type past the size limits, a workload past the
// fusion size limit and a fusion past the host memory limit each fail with exit code 1 and a message.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace seam {
namespace {

struct ToolRun {
  int code;
  std::string output;
};

ToolRun run_seam(const std::string& args, const std::string& environment = "") {
  const std::string command = environment + " " + SEAM_TOOL_PATH + " " + args + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  std::string output;
  std::array<char, 4096> buffer;
  size_t n;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) output.append(buffer.data(), n);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

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
    const ToolRun r = run_seam(command + " " + path);
    EXPECT_EQ(r.code, 1) << command << ": " << r.output;
    EXPECT_NE(r.output.find(":2:16: error: type f64[2147483648,1073741824] has too many elements"),
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
  const ToolRun r = run_seam("run " + path, "SEAM_HOST_MEMORY_LIMIT=1M");
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("needs 4194304 bytes of host memory, over the limit of 1048576 bytes"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(run_seam("run " + path, "SEAM_HOST_MEMORY_LIMIT=64M").code, 0);
}

TEST(ToolSizeLimits, AbsurdLayerCountFailsFast) {
  const ToolRun r = run_seam("workload transformer --layers 1000000");
  EXPECT_EQ(r.code, 1) << r.output.substr(0, 500);
  EXPECT_NE(r.output.find("transformer: 1000000 layers of "), std::string::npos) << r.output.substr(0, 500);
  EXPECT_NE(r.output.find("over the fusion size limit of 2^20 values plus outputs"), std::string::npos);
}

}  // namespace
}  // namespace seam
