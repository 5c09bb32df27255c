// The subcommands of the seam tool; each returns the process exit code.
#pragma once

#include <set>
#include <string>

#include "args.h"
#include "ir/fusion.h"
#include "plan/plan.h"
#include "schedule/launch_params.h"

namespace seam::tool {

// Exit codes: 0 success, 1 bad input or failure, 2 usage, 3 outputs differ from expected.
inline constexpr int kExitOk = 0, kExitError = 1, kExitUsage = 2, kExitMismatch = 3;

int cmd_print(Args& args);
int cmd_verify(Args& args);
int cmd_run(Args& args);
int cmd_workload(Args& args);
int cmd_pass(Args& args);
int cmd_passes(Args& args);
int cmd_segment(Args& args);
int cmd_emit(Args& args);
// The plan of FILE (the first positional argument) after the passes and the segmenter, with
// --strategy, --reproducible and the knobs read from `args` (which must hold nothing else); `last_pass`
// as PlanOptions::last_pass. Shared by `seam emit`, `seam plan` and `seam kir`.
struct PlannedFile {
  std::string fusion_name;
  FusionPlan plan;
};
PlannedFile plan_file(Args& args, const std::string& last_pass = {});
int cmd_plan(Args& args);
// The switches of `seam plan` and `seam kir`: --reproducible and the bool knobs.
std::set<std::string> plan_switches();
int cmd_kir(Args& args);
// The switches of `seam emit`: --help and the bool knobs of schedule/launch_knobs.def.
std::set<std::string> emit_switches();
// The bool knobs' switches, and every knob of the table read as a flag into `launch` (`seam emit` and
// `seam bench`): a value within its range, or for a bool a switch that sets the opposite of its default.
std::set<std::string> knob_switches();
void read_knob_flags(Args& args, LaunchParams& launch);
int cmd_bench(Args& args);
int cmd_demo(Args& args);

// Reads and parses a fusion file ("-" reads standard input).
Fusion load_fusion(const std::string& path);
// Writes text to a file, or to standard output when path is empty or "-".
void write_text(const std::string& path, const std::string& text);

}  // namespace seam::tool
