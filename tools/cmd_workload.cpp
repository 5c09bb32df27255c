// workload: built-in workloads printed as fusion text.
#include <iostream>

#include "commands.h"
#include "support/error.h"
#include "text/printer.h"
#include "workloads/rope.h"
#include "workloads/transformer.h"

namespace seam::tool {

int cmd_workload(Args& args) {
  const std::string kind = args.positional_at(0, "WORKLOAD (rope or transformer)");
  const std::string out = args.get_or("o", args.get_or("output", ""));
  if (kind == "rope") {
    const std::string config_name = args.get_or("config", "Llama-2-13b-hf");
    RopeOptions options;
    options.batch = args.get_int("batch", 2);
    options.seq_len = args.get_int("seq", 0);
    options.contract = parse_contract(args.get_or("contract", "thunder"));
    options.direction = args.has("backward") ? Direction::Backward : Direction::Forward;
    args.reject_unused();
    write_text(out, print_fusion(build_rope(rope_config(config_name), options)));
    return kExitOk;
  }
  if (kind == "transformer") {
    TransformerConfig config;
    config.layers = args.get_int("layers", config.layers);
    config.batch = args.get_int("batch", config.batch);
    config.seq_len = args.get_int("seq", config.seq_len);
    config.hidden = args.get_int("hidden", config.hidden);
    args.reject_unused();
    write_text(out, print_fusion(build_transformer_stack(config)));
    return kExitOk;
  }
  throw Error(detail::concat("unknown workload '", kind, "' (expected rope or transformer)"));
}

}  // namespace seam::tool
