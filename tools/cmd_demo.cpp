// demo: seam's main job on the default example, end to end on the reference interpreter.
#include <chrono>
#include <cmath>
#include <iostream>

#include "commands.h"
#include "interp/interpreter.h"
#include "ir/verify.h"
#include "passes/pipeline.h"
#include "segment/dump.h"
#include "segment/segment.h"
#include "text/parser.h"
#include "text/printer.h"
#include "workloads/rope.h"

namespace seam::tool {

int cmd_demo(Args& args) {
  const std::string config_name = args.get_or("config", "Llama-2-13b-hf");
  const int64_t seq = args.get_int("seq", 8);
  const int64_t batch = args.get_int("batch", 1);
  args.reject_unused();
  using Clock = std::chrono::steady_clock;
  auto ms = [](Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); };

  const RopeConfig& config = rope_config(config_name);
  RopeOptions options;
  options.batch = batch;
  options.seq_len = seq;
  options.contract = RopeContract::Thunder;
  Fusion fusion = build_rope(config, options);
  const std::string text = print_fusion(fusion);
  std::cout << "# The " << config.name << " RoPE fusion (thunder contract, forward), batch " << batch
            << ", seq " << seq << ":\n"
            << text << "\n";

  auto t0 = Clock::now();
  Fusion reparsed = parse_fusion(text, "<demo>");
  verify(reparsed);
  auto t1 = Clock::now();
  const bool round_trip = print_fusion(reparsed) == text;

  Fusion optimized = run_pipeline(reparsed);
  SegmentedFusion segmented = segment_fusion(optimized);
  auto t2 = Clock::now();
  std::cout << dump_segments(segmented) << "\n";

  std::vector<HostTensor> inputs = random_inputs(reparsed, 1);
  std::vector<HostTensor> outputs = interpret(reparsed, inputs);
  auto t3 = Clock::now();

  std::cout << "# Summary\n";
  std::cout << "values:          " << fusion.num_nodes() << " (" << fusion.inputs().size() << " inputs, "
            << fusion.outputs().size() << " outputs)\n";
  std::cout << "parse + verify:  " << ms(t1 - t0) << " ms, print/parse round trip "
            << (round_trip ? "exact" : "DIFFERS") << "\n";
  std::cout << "passes + segment: " << ms(t2 - t1) << " ms, " << segmented.num_kernels() << " kernel(s), "
            << (segmented.proven_optimal ? "proven optimal" : "not proven optimal") << "\n";
  std::cout << "interpreter:     " << ms(t3 - t2) << " ms\n";
  for (size_t o = 0; o < outputs.size(); ++o) {
    double sum = 0;
    for (int64_t i = 0; i < outputs[o].numel(); ++i) sum += std::fabs(outputs[o].get_double(i));
    std::cout << "output " << fusion.outputs()[o].name << ": "
              << fusion.type(fusion.outputs()[o].value).to_string() << ", mean |x| "
              << sum / std::max<int64_t>(1, outputs[o].numel()) << "\n";
  }
  return round_trip ? kExitOk : kExitError;
}

}  // namespace seam::tool
