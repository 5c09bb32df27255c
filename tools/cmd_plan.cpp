// plan: what the plan stage decided for each kernel; kir: each kernel's kernel IR, optionally as one of
// the kernel-IR or row passes leaves it. Both run the passes, the segmenter and the plan as `seam emit` does.
#include <iostream>

#include "commands.h"
#include "exec/executable.h"
#include "lower/kir_printer.h"
#include "passes/pipeline.h"
#include "plan/plan.h"
#include "segment/segment.h"
#include "support/error.h"

namespace seam::tool {

PlannedFile plan_file(Args& args, const std::string& last_pass) {
  ExecutableOptions options;
  options.segment.strategy = parse_strategy(args.get_or("strategy", "auto"));
  if (args.has("reproducible")) {
    const SegmentStrategy strategy = options.segment.strategy;
    options.segment = reproducible_segment_options();
    options.segment.strategy = strategy;
  }
  read_knob_flags(args, options.launch);
  args.reject_unused();  // first: an unknown option that took FILE as its value is named as such
  const Fusion fusion = run_pipeline(load_fusion(args.positional_at(0, "FILE")));
  const SegmentedFusion segmented = segment_fusion(fusion, options.segment);
  return {fusion.name(), plan_fusion(segmented, PlanOptions{options.launch, last_pass})};
}

std::set<std::string> plan_switches() {
  std::set<std::string> switches = knob_switches();
  switches.insert("reproducible");
  return switches;
}

int cmd_plan(Args& args) {
  std::cout << print_plan(plan_file(args).plan);
  return kExitOk;
}

int cmd_kir(Args& args) {
  const std::string last = args.get_or("pass", "");
  const FusionPlan plan = plan_file(args, last).plan;
  for (const PlannedStep& step : plan.steps) {
    if (step.library) {
      std::cout << "// group " << step.group << ": a library call (no kernel IR)\n\n";
      continue;
    }
    std::cout << "// group " << step.group << "\n" << print_kir(step.kernel) << "\n";
  }
  return kExitOk;
}

}  // namespace seam::tool
