// Runs the built seam tool as a separate process, from an argument vector (never a shell), and a fixture
// with a scratch directory per test.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/process.h"

namespace seam {

struct Result {
  int code;
  std::string output;  // stdout and stderr together
};

// Runs the tool with `args`, after `prefix` (a launcher such as {"env", "NAME=VALUE"}) when given.
inline Result seam_argv(std::vector<std::string> args, std::vector<std::string> prefix = {}) {
  prefix.push_back(SEAM_TOOL_PATH);
  args.insert(args.begin(), prefix.begin(), prefix.end());
  ProcessResult r = run_process(args);
  return {r.exit_code, r.output};
}

// The arguments split at spaces: for the many calls whose paths and values have none.
inline Result seam(const std::string& args) { return seam_argv(split_words(args)); }

// The same with one more environment variable ("NAME=VALUE"), set through env(1).
inline Result seam_with_env(const std::string& assignment, const std::string& args) {
  return seam_argv(split_words(args), {"env", assignment});
}

class Tool : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(::testing::TempDir()) /
           ("seam_tool_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path(name)) << text;
    return path(name);
  }
  std::filesystem::path dir_;
};

inline constexpr const char* kSmall = R"(fusion small {
  %x = input {name="x"} : f32[2,3]
  %y = input {name="y"} : f32[2,3]
  %s = add %x, %y : f32[2,3]
  %t = cast %s {dtype=bf16} : bf16[2,3]
  return sum=%s, t=%t
}
)";

}  // namespace seam
