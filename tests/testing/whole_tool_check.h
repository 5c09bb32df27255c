// The whole-tool fuzz driver: a random valid fusion (every dtype, empty tensors, extents near the size
// limits) through what `seam` does with it: verify, print and parse, the passes, segmentation and its
// dump, lowering and the printed CUDA and host source (no NVRTC), and, when its values are small, the
// host backend against the interpreter. When they are not, the interpreter must refuse it up front
// under a small host memory limit. Shared by the libFuzzer target (tests/fuzz/fuzz_whole_tool.cpp,
// bytes) and a seeded ctest (tests/fuzz/whole_tool_test.cpp).
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "ir/fusion.h"
#include "testing/random_fusion.h"

namespace seam {

// A finding: a stage crashed with an unexpected exception, rejected a verified fusion, broke a
// round trip or disagreed with the interpreter. The message names the stage and the fusion's text.
class WholeToolFailure : public std::runtime_error {
 public:
  explicit WholeToolFailure(const std::string& message) : std::runtime_error(message) {}
};

struct WholeToolOptions {
  bool run_host_backend = true;               // compile with the system C++ compiler (about a second)
  int64_t max_interpreted_bytes = 1 << 16;    // bigger fusions must be refused by the interpreter instead
  double segment_time_budget_seconds = 0.05;  // the exact search's; a case costs at most about this
  uint64_t input_seed = 1;
  // Findings already reported and being fixed elsewhere (kKnownFindings) end the case quietly instead
  // of failing it, so that CI's fuzz run looks for new ones; false shows them.
  bool skip_known_findings = true;
};

// Message fragments of known findings, each with where it is tracked. A case that hits one stops there.
struct KnownFinding {
  const char* stage;
  const char* fragment;
  const char* note;
};
extern const std::vector<KnownFinding> kKnownFindings;

// What the fuzzer's bytes (or a seed) decode to: generator options and a seed.
struct WholeToolCase {
  RandomFusionOptions options;
  uint64_t seed = 0;
};
WholeToolCase whole_tool_case_from_bytes(std::span<const uint8_t> bytes);
WholeToolCase whole_tool_case_from_seed(uint64_t seed);

// What happened, for statistics: whether the host backend ran and how many kernels there were.
struct WholeToolReport {
  bool interpreted = false;
  bool refused_by_host_memory = false;
  int kernels = 0;
  const KnownFinding* known = nullptr;  // the known finding that ended the case early
};

// Throws WholeToolFailure on a finding.
WholeToolReport check_whole_tool(const Fusion& fusion, const WholeToolOptions& options = {});

// For tests of hand-written fusions: empty when check_whole_tool (a 1 s segmenting budget) finds nothing
// and the host backend ran and agreed with the interpreter; otherwise what went wrong, for the message.
std::string host_backend_disagreement(const Fusion& fusion);

}  // namespace seam
