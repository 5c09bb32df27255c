// The tool under input a new user gives it: hostile paths, missing files, misleading names. Each test is
// a reproduction of a defect once found, kept so that it cannot come back.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <string>

#include "tool_runner.h"

namespace seam {
namespace {

bool graphviz_installed() { return std::filesystem::exists("/usr/bin/dot"); }

// A --draw path is an argument of `dot`, never shell text: quotes and $(...) in it are just characters.
TEST_F(Tool, DrawPathIsNeverRunThroughAShell) {
  const std::string file = write("small.seam", kSmall);
  // Through a shell, `touch` would run in the tool's working directory, which is the test's.
  std::filesystem::remove("seam_pwned_marker");
  const std::string hostile = path("a'$(touch seam_pwned_marker)'.svg");
  Result r = seam_argv({"segment", file, "--draw", hostile});
  EXPECT_FALSE(std::filesystem::exists("seam_pwned_marker")) << "the path was run as a shell command";
  if (graphviz_installed()) {
    EXPECT_EQ(r.code, 0) << r.output;
    EXPECT_TRUE(std::filesystem::exists(hostile)) << r.output;
  } else {
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.output.find("install graphviz"), std::string::npos) << r.output;
  }
  // An apostrophe alone is an ordinary character too.
  Result quote = seam_argv({"segment", file, "--draw", path("it's.dot")});
  EXPECT_EQ(quote.code, 0) << quote.output;
  EXPECT_TRUE(std::filesystem::exists(path("it's.dot")));
}

// The dump and the drawing name the user's values and outputs, and the drawing explains itself.
TEST_F(Tool, SegmentationDumpKeepsTheFilesNames) {
  const std::string file = write("small.seam", kSmall);
  Result r = seam("segment " + file);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("(s) = add"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("-> sum"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("-> t"), std::string::npos) << r.output;
  ASSERT_EQ(seam("segment " + file + " --draw " + path("g.dot")).code, 0);
  std::ifstream dot(path("g.dot"));
  const std::string text((std::istreambuf_iterator<char>(dot)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("legend"), std::string::npos) << text;
  EXPECT_NE(text.find("(s) = add"), std::string::npos) << text;
}

// Every strategy the help names is one the tool accepts, and every option of segment is in the help.
TEST_F(Tool, HelpNamesWhatTheToolAccepts) {
  const std::string file = write("small.seam", kSmall);
  const std::string help = seam("help").output;
  const size_t at = help.find("--strategy auto");
  ASSERT_NE(at, std::string::npos) << help;
  for (const char* strategy : {"auto", "exact", "greedy", "nvfuser-greedy"}) {
    EXPECT_NE(help.find(strategy, at), std::string::npos) << strategy;
    Result r = seam("segment " + file + " --strategy " + strategy);
    EXPECT_EQ(r.code, 0) << strategy << ": " << r.output;
  }
  EXPECT_NE(help.find("--budget"), std::string::npos);
  EXPECT_EQ(seam("segment " + file + " --budget 0.01").code, 0);
  Result wrong = seam("segment " + file + " --strategy nvfuser");
  EXPECT_EQ(wrong.code, 1);
  EXPECT_NE(wrong.output.find("nvfuser-greedy"), std::string::npos) << wrong.output;
}

// A missing expected file stops the run before anything is written, and says which files are missing.
TEST_F(Tool, OutputsAppearCompletelyOrNotAtAll) {
  const std::string file = write("small.seam", kSmall);
  ASSERT_EQ(seam("run " + file + " --seed 1 --out " + path("expected")).code, 0);
  std::filesystem::remove(path("expected/t.npy"));
  Result r = seam("run " + file + " --seed 1 --out " + path("out") + " --expect " + path("expected"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.output.find("output t"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("nothing was run"), std::string::npos) << r.output;
  EXPECT_TRUE(!std::filesystem::exists(path("out")) || std::filesystem::is_empty(path("out")));
}

// A mismatch in one output still compares and reports every output, and the exit code says "differ".
TEST_F(Tool, EveryOutputIsComparedAndReported) {
  const std::string file = write("small.seam", kSmall);
  ASSERT_EQ(seam("run " + file + " --seed 1 --out " + path("one")).code, 0);
  ASSERT_EQ(seam("run " + file + " --seed 2 --out " + path("two")).code, 0);
  std::filesystem::copy_file(path("two/t.npy"), path("one/t.npy"),
                             std::filesystem::copy_options::overwrite_existing);
  Result r = seam("run " + file + " --seed 1 --expect " + path("one"));
  EXPECT_EQ(r.code, 3) << r.output;
  EXPECT_NE(r.output.find("sum.npy: match"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("t.npy: MISMATCH"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("1 of 2 outputs differ"), std::string::npos) << r.output;
}

TEST_F(Tool, OutIsAFileNotADirectory) {
  const std::string file = write("small.seam", kSmall);
  write("afile", "x");
  Result r = seam("run " + file + " --out " + path("afile"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.output.find("is not a directory"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("filesystem"), std::string::npos) << r.output;
}

// Parse errors say "error" once: the tool's prefix, then the location and the message.
TEST_F(Tool, ErrorsSayErrorOnce) {
  const std::string file = write("bad.seam",
                                 "fusion f {\n  %x = input : f32[2]\n  %y = add %x, 1.0 : f32[2]\n"
                                 "  return %y\n}\n");
  Result r = seam("verify " + file);
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(std::regex_search(r.output, std::regex("^seam: error: [^ ]*bad.seam:3:16: "))) << r.output;
  EXPECT_EQ(r.output.find("error: ", r.output.find("bad.seam")), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("const"), std::string::npos) << "literal operands point at const: " << r.output;
}

}  // namespace
}  // namespace seam
