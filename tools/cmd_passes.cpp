// pass and passes: the pre-segmentation pipeline, whole or one pass alone.
#include <iostream>

#include "commands.h"
#include "passes/pipeline.h"
#include "text/printer.h"

namespace seam::tool {

int cmd_pass(Args& args) {
  args.reject_unused();
  const PassInfo& pass = get_pass(args.positional_at(0, "PASS"));
  Fusion fusion = load_fusion(args.positional_at(1, "FILE"));
  std::cout << print_fusion(run_pass_checked(pass, fusion));
  return kExitOk;
}

int cmd_passes(Args& args) {
  const bool each = args.has("each");
  args.reject_unused();
  Fusion fusion = load_fusion(args.positional_at(0, "FILE"));
  PipelineOptions options;
  if (each) {
    options.after_pass = [](const PassInfo& pass, const Fusion& after) {
      std::cout << "# after " << pass.name << " (" << after.num_nodes() << " values)\n"
                << print_fusion(after);
    };
  }
  Fusion result = run_pipeline(fusion, options);
  if (!each) std::cout << print_fusion(result);
  return kExitOk;
}

}  // namespace seam::tool
