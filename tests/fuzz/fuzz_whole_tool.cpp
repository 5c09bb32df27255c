// libFuzzer target for the whole tool: the bytes choose a random valid fusion (testing/random_fusion.h:
// every dtype, empty tensors, extents near the size limits) and testing/whole_tool_check.h runs it
// through verify, the passes, segmentation, code generation and, for small ones, the host backend
// against the interpreter. A WholeToolFailure, a crash or a sanitizer report is a bug. The host backend
// (a C++ compiler run, about a second) runs for one input in 32, chosen by byte 14, so that the rest
// of the pipeline gets thousands of inputs in a short run.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "support/error.h"
#include "testing/random_fusion.h"
#include "testing/whole_tool_check.h"
#include "text/printer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> bytes(data, size);
  const seam::WholeToolCase c = seam::whole_tool_case_from_bytes(bytes);
  std::optional<seam::Fusion> fusion;
  try {
    fusion.emplace(seam::random_fusion(c.seed, c.options));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "random_fusion(%llu) failed: %s\n", static_cast<unsigned long long>(c.seed),
                 e.what());
    std::abort();
  }
  seam::WholeToolOptions options;
  options.run_host_backend = size > 14 && data[14] % 32 == 0;
  options.segment_time_budget_seconds =
      0.01;  // sanitizers make the search slow; its result is checked anyway
  try {
    seam::check_whole_tool(*fusion, options);
  } catch (const seam::WholeToolFailure& e) {
    std::fprintf(stderr, "%s", e.what());
    std::abort();
  }
  return 0;
}
