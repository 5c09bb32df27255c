#include "testing/whole_tool_check.h"

#include <cstdlib>
#include <iterator>
#include <optional>
#include <random>

#include "codegen/kernel_printer.h"
#include "exec/cuda_executable.h"
#include "exec/executable.h"
#include "interp/compare.h"
#include "interp/interpreter.h"
#include "ir/verify.h"
#include "passes/pipeline.h"
#include "plan/plan.h"
#include "segment/dump.h"
#include "segment/segment.h"
#include "support/checked_math.h"
#include "support/error.h"
#include "text/parser.h"
#include "text/printer.h"

namespace seam {

// None open: the last one (the cost model and a group's boundary bytes counting a repeated view that is
// no box differently) is fixed and replayed from tests/fuzz/regressions/.
const std::vector<KnownFinding> kKnownFindings = {};

namespace {

// Thrown out of a stage when it hit a known finding and the options say to skip those.
struct KnownFindingHit {
  const KnownFinding* finding;
};

const KnownFinding* known_finding(std::string_view stage, std::string_view message) {
  for (const KnownFinding& k : kKnownFindings)
    if (stage == k.stage && message.find(k.fragment) != std::string_view::npos) return &k;
  return nullptr;
}

bool g_skip_known_findings = true;  // set from the options for the duration of check_whole_tool

void check_stages(const Fusion& fusion, const WholeToolOptions& options, WholeToolReport& report);

[[noreturn]] void fail(std::string_view stage, const std::string& what, const Fusion& fusion) {
  throw WholeToolFailure(
      detail::concat(stage, ": ", what, "\n--- fusion ---\n", print_fusion(fusion), "--- end ---\n"));
}

// Runs one stage: any exception escaping it is a finding (a verified fusion must get through every
// stage; seam::Error here would be a user-facing rejection of valid input).
template <typename Body>
auto run_stage(std::string_view stage, const Fusion& fusion, Body body) -> decltype(body()) {
  try {
    return body();
  } catch (const WholeToolFailure&) {
    throw;
  } catch (const InternalError& e) {
    if (const KnownFinding* k = known_finding(stage, e.what()); k && g_skip_known_findings)
      throw KnownFindingHit{k};
    fail(stage, detail::concat("internal error: ", e.what()), fusion);
  } catch (const Error& e) {
    fail(stage, detail::concat("seam::Error on a verified fusion: ", e.what()), fusion);
  } catch (const std::exception& e) {
    fail(stage, detail::concat("unexpected exception: ", e.what()), fusion);
  }
}

// Sets SEAM_HOST_MEMORY_LIMIT for the scope, restoring the previous value.
class ScopedHostMemoryLimit {
 public:
  explicit ScopedHostMemoryLimit(int64_t bytes) {
    if (const char* old = std::getenv(kName)) previous_ = old;
    setenv(kName, std::to_string(bytes).c_str(), 1);
  }
  ~ScopedHostMemoryLimit() {
    if (previous_)
      setenv(kName, previous_->c_str(), 1);
    else
      unsetenv(kName);
  }
  ScopedHostMemoryLimit(const ScopedHostMemoryLimit&) = delete;
  ScopedHostMemoryLimit& operator=(const ScopedHostMemoryLimit&) = delete;

 private:
  static constexpr const char* kName = "SEAM_HOST_MEMORY_LIMIT";
  std::optional<std::string> previous_;
};

// The bytes of every value, as the interpreter keeps them (a lower bound of what it allocates).
int64_t value_bytes(const Fusion& fusion) {
  int64_t total = 0;
  for (const Node& node : fusion.nodes()) total += node.type.bytes();  // <= 2^20 values of <= 2^40 bytes
  return total;
}

Tolerance tolerance_for(DType dtype) {
  switch (dtype) {
    case DType::BFloat16: return {1.6e-2, 1e-5};
    case DType::Float16: return {1e-3, 1e-5};
    case DType::Float32: return {1e-5, 1e-5};
    case DType::Float64: return {1e-7, 1e-7};
    default: return {0, 0};
  }
}

void check_against_interpreter(const Fusion& fusion, const WholeToolOptions& options,
                               WholeToolReport& report) {
  const std::vector<HostTensor> inputs =
      run_stage("interpreter inputs", fusion, [&] { return random_inputs(fusion, options.input_seed); });
  const std::vector<HostTensor> expected =
      run_stage("interpreter", fusion, [&] { return interpret(fusion, inputs); });
  report.interpreted = true;
  if (!options.run_host_backend) return;
  const std::vector<HostTensor> actual = run_stage("host backend", fusion, [&] {
    ExecutableOptions exe_options;
    exe_options.backend = Backend::Host;
    exe_options.poison_outputs = true;
    exe_options.segment.time_budget_seconds = options.segment_time_budget_seconds;
    return Executable::compile(fusion, exe_options)->run(inputs);
  });
  if (actual.size() != expected.size())
    fail("host backend", detail::concat(actual.size(), " outputs, the interpreter has ", expected.size()),
         fusion);
  const std::vector<Comparison> comparisons = run_stage(
      "comparison", fusion, [&] { return compare_outputs(fusion, inputs, actual, expected, tolerance_for); });
  for (size_t o = 0; o < actual.size(); ++o) {
    const Comparison& c = comparisons[o];
    if (!c.ok)
      fail("host backend", detail::concat("output ", o, " differs from the interpreter: ", c.message),
           fusion);
  }
}

// A fusion whose values pass the budget must be refused by the interpreter with a message before it
// allocates anything big (the budget stands in for this machine's memory).
void check_refused_by_host_memory(const Fusion& fusion, int64_t budget, WholeToolReport& report) {
  ScopedHostMemoryLimit limit(budget);
  try {
    interpret(fusion, random_inputs(fusion, 1));
  } catch (const InternalError& e) {
    fail("host memory limit", detail::concat("internal error: ", e.what()), fusion);
  } catch (const Error& e) {
    if (std::string_view(e.what()).find("host memory") == std::string_view::npos)
      fail("host memory limit", detail::concat("refused for another reason: ", e.what()), fusion);
    report.refused_by_host_memory = true;
    return;
  }
  fail("host memory limit",
       detail::concat("the interpreter ran ", value_bytes(fusion), " bytes of values under a limit of ",
                      budget),
       fusion);
}

}  // namespace

WholeToolCase whole_tool_case_from_bytes(std::span<const uint8_t> bytes) {
  auto byte = [&](size_t i) -> uint8_t { return i < bytes.size() ? bytes[i] : 0; };
  WholeToolCase c;
  RandomFusionOptions& o = c.options;
  const uint8_t flags = byte(0);
  o.pointwise = flags & 1;
  o.movement = flags & 2;
  o.reductions = flags & 4;
  o.opaque = flags & 8;
  o.leaves = flags & 16;
  o.scalar_inputs = flags & 32;
  o.strided_inputs = flags & 64;
  o.special_values = flags & 128;
  o.num_ops = byte(1) % 33;
  o.max_rank = byte(2) % 5;
  o.max_extent = 1 + byte(3) % 8;
  o.zero_extent_probability = (byte(4) % 8) / 16.0;
  o.huge_extent_probability = byte(5) < 128 ? 0.0 : (1 + byte(5) % 8) / 32.0;
  for (size_t i = 0; i < 8; ++i) c.seed |= uint64_t{byte(6 + i)} << (8 * i);
  // Byte 14 picks the host-backend runs (fuzz_whole_tool.cpp); bits of byte 15 turn on ops added since
  // (bit 0 is set in the checked-in corpus), so that earlier inputs and the seeds' 14 bytes decode as before.
  o.scatters = byte(15) & 2;
  return c;
}

WholeToolCase whole_tool_case_from_seed(uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint8_t> bytes(14);
  for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng() >> 56);
  bytes[0] |= 1 | 2;  // pointwise and movement ops always: most of what the tool does
  return whole_tool_case_from_bytes(bytes);
}

WholeToolReport check_whole_tool(const Fusion& fusion, const WholeToolOptions& options) {
  WholeToolReport report;
  g_skip_known_findings = options.skip_known_findings;
  try {
    check_stages(fusion, options, report);
  } catch (const KnownFindingHit& hit) {
    report.known = hit.finding;
  }
  return report;
}

namespace {
void check_stages(const Fusion& fusion, const WholeToolOptions& options, WholeToolReport& report) {
  run_stage("verify", fusion, [&] { verify(fusion); });
  run_stage("print and parse", fusion, [&] {
    const std::string printed = print_fusion(fusion);
    const std::string reprinted = print_fusion(parse_fusion(printed, "printed"));
    if (reprinted != printed) fail("print and parse", "print(parse(print(f))) != print(f)", fusion);
  });
  const Fusion optimized = run_stage("passes", fusion, [&] {
    Fusion out = run_pipeline(fusion);
    verify(out);
    return out;
  });
  SegmentOptions segment_options;
  segment_options.time_budget_seconds = options.segment_time_budget_seconds;
  const SegmentedFusion segmented =
      run_stage("segment", optimized, [&] { return segment_fusion(optimized, segment_options); });
  run_stage("segment dump", optimized, [&] {
    const std::string dump = dump_segments(segmented);
    if (segmented.boundary_bytes() < 0)
      fail("segment dump", detail::concat("negative boundary bytes ", segmented.boundary_bytes()), optimized);
    if (dump.empty()) fail("segment dump", "empty dump", optimized);
  });
  report.kernels = segmented.num_kernels();
  run_stage("emit", optimized, [&] {
    const std::vector<PlannedStep> steps = plan_fusion(segmented, PlanOptions{}).steps;
    const KernelProgram cuda = print_kernel_program(steps, KernelTarget::Cuda);
    const KernelProgram host = print_kernel_program(steps, KernelTarget::Host);
    for (size_t s = 0, t = 0; s < steps.size(); ++s) {
      if (steps[s].library) continue;
      if (cuda.texts.at(t).empty() || host.texts.at(t).empty() ||
          print_cuda_kernel(steps[s].kernel, launch_shape(steps[s].params)).empty())
        fail("emit", detail::concat("group ", steps[s].group, " printed no source"), optimized);
      ++t;
    }
  });
  if (value_bytes(fusion) <= options.max_interpreted_bytes)
    check_against_interpreter(fusion, options, report);
  else
    check_refused_by_host_memory(fusion, options.max_interpreted_bytes, report);
}
}  // namespace

std::string host_backend_disagreement(const Fusion& fusion) {
  WholeToolOptions options;
  options.segment_time_budget_seconds = 1.0;
  try {
    if (!check_whole_tool(fusion, options).interpreted)
      return fusion.name() + ": the host backend did not run";
  } catch (const WholeToolFailure& e) {
    return e.what();
  }
  return "";
}

}  // namespace seam
