// Every file in tests/data/malformed/ is a distinct way to be wrong. Its first line is
// "# expect: LINE:COL: MESSAGE-PREFIX"; parsing must throw seam::Error whose message is
// "PATH:" followed by text that contains the expectation.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "support/error.h"
#include "text/parser.h"

namespace seam {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> malformed_files() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(fs::path(SEAM_TEST_DATA_DIR) / "malformed"))
    if (entry.path().extension() == ".seam") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::string expectation_of(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::string first_line;
  std::getline(in, first_line);
  const std::string marker = "# expect: ";
  if (first_line.rfind(marker, 0) != 0) return "";
  return first_line.substr(marker.size());
}

TEST(Malformed, AtLeastFortyDistinctFiles) {
  std::vector<fs::path> files = malformed_files();
  EXPECT_GE(files.size(), 40u);
  std::set<std::string> expectations;
  for (const fs::path& file : files) {
    std::string expected = expectation_of(file);
    EXPECT_FALSE(expected.empty()) << file << " lacks a '# expect: ' first line";
    EXPECT_TRUE(expectations.insert(expected).second) << file << " repeats the expectation " << expected;
  }
}

TEST(Malformed, EachFileFailsWhereItsCommentSays) {
  for (const fs::path& file : malformed_files()) {
    std::string expected = expectation_of(file);
    std::string message;
    try {
      parse_fusion_file(file.string());
      ADD_FAILURE() << file << " parsed without error";
      continue;
    } catch (const Error& e) {
      message = e.what();
    }
    const std::string prefix = file.string() + ":";
    EXPECT_EQ(message.rfind(prefix, 0), 0u) << file << ": message does not start with the path: " << message;
    EXPECT_NE(message.find(prefix + expected), std::string::npos)
        << file << "\n  expected: " << expected << "\n  got:      " << message;
  }
}

}  // namespace
}  // namespace seam
