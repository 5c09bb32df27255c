// `seam bench`: what it reports without a GPU (--dry-run), its JSON, its options, and its one-line error
// when there is no GPU. The timing itself runs on the GPU machine (bench/README.md).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "runtime/cuda_driver.h"
#include "tool_runner.h"

namespace seam {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// A fusion that returns one of its inputs: the floor counts that tensor once.
constexpr const char* kReturnsInput = R"(fusion passthrough {
  %x = input {name="x"} : bf16[4,1024]
  %s = sum %x {axes=[1], keepdim=true} : bf16[4,1]
  return x=%x, s=%s
}
)";

TEST_F(Tool, BenchDryRunReportsKernelsByteFloorAndPlan) {
  const std::string file = write("small.seam", kSmall);
  Result r = seam("bench " + file + " --dry-run");
  ASSERT_EQ(r.code, 0) << r.output;
  // Inputs 2 x 6 f32 = 48 bytes, outputs 6 f32 + 6 bf16 = 36.
  EXPECT_NE(r.output.find("fusion small, 1 kernel(s), byte floor 84 bytes (inputs 48, outputs 36)"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("step 0: group 0, pointwise, kernel small_k0"), std::string::npos) << r.output;
  const std::string passthrough = write("passthrough.seam", kReturnsInput);
  Result p = seam("bench " + passthrough + " --dry-run");
  ASSERT_EQ(p.code, 0) << p.output;
  EXPECT_NE(p.output.find("byte floor 8200 bytes (inputs 8192, outputs 8)"), std::string::npos) << p.output;
  EXPECT_NE(p.output.find("rows 4 x 1024"), std::string::npos) << p.output;
}

TEST_F(Tool, BenchJsonIsOneObjectPerFileAndLine) {
  const std::string a = write("small.seam", kSmall), b = write("passthrough.seam", kReturnsInput);
  Result r = seam("bench " + a + " " + b + " --dry-run --json");
  ASSERT_EQ(r.code, 0) << r.output;
  const std::vector<std::string> lines = lines_of(r.output);
  ASSERT_EQ(lines.size(), 2u) << r.output;
  for (const std::string& line : lines) {
    EXPECT_EQ(line.front(), '{') << line;
    EXPECT_EQ(line.back(), '}') << line;
    for (const char* key :
         {"\"file\": ", "\"fusion\": ", "\"dry_run\": true", "\"kernels\": 1",
          "\"floor_bytes\": ", "\"inputs\": [", "\"outputs\": [", "\"steps\": [{\"kind\": "})
      EXPECT_NE(line.find(key), std::string::npos) << key << " in " << line;
    // Nothing was timed, so no timing key appears.
    EXPECT_EQ(line.find("events_us"), std::string::npos) << line;
  }
  EXPECT_NE(lines[0].find("\"file\": \"" + a + "\""), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find("\"floor_bytes\": 84, \"input_bytes\": 48, \"output_bytes\": 36"),
            std::string::npos)
      << lines[0];
  EXPECT_NE(lines[0].find("{\"name\": \"t\", \"type\": \"bf16[2,3]\"}"), std::string::npos) << lines[0];
  EXPECT_NE(lines[1].find("\"kind\": \"rows\""), std::string::npos) << lines[1];
  EXPECT_NE(lines[1].find("\"reduced\": 1024"), std::string::npos) << lines[1];
}

TEST_F(Tool, BenchWithoutAGpuIsAOneLineErrorSayingWhy) {
  const std::string file = write("small.seam", kSmall);
  Result r = seam("bench " + file + " --iterations 3");
  const DriverStatus& status = driver_status();
  if (status.available) {  // on the GPU machine: the table instead
    EXPECT_EQ(r.code, 0) << r.output;
    EXPECT_NE(r.output.find("| file | kernels | floor MB |"), std::string::npos) << r.output;
    return;
  }
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_EQ(r.output,
            "seam: error: seam bench needs a GPU (--dry-run plans without one): " + status.reason + "\n");
}

TEST_F(Tool, BenchOptionsAreChecked) {
  const std::string file = write("small.seam", kSmall);
  Result none = seam("bench --dry-run");
  EXPECT_EQ(none.code, 1);
  EXPECT_NE(none.output.find("bench needs at least one FILE"), std::string::npos) << none.output;
  Result zero = seam("bench " + file + " --iterations 0");
  EXPECT_EQ(zero.code, 1);
  EXPECT_NE(zero.output.find("--iterations must be from 1"), std::string::npos) << zero.output;
  Result two = seam("bench " + file + " " + file + " --out " + path("o"));
  EXPECT_EQ(two.code, 1);
  EXPECT_NE(two.output.find("give one FILE"), std::string::npos) << two.output;
  Result typo = seam("bench " + file + " --iteration 3");
  EXPECT_EQ(typo.code, 1);
  EXPECT_NE(typo.output.find("unknown option --iteration"), std::string::npos) << typo.output;
  // Every file is read before anything is timed: a bad one is reported, GPU or not.
  Result missing = seam("bench " + file + " " + path("nope.seam"));
  EXPECT_EQ(missing.code, 1);
  EXPECT_NE(missing.output.find("nope.seam"), std::string::npos) << missing.output;
}

}  // namespace
}  // namespace seam
