// segment: partition a fusion into kernels and show the result; emit: the generated code per kernel.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "codegen/kernel_printer.h"
#include "commands.h"
#include "exec/cuda_executable.h"
#include "exec/executable.h"
#include "passes/pipeline.h"
#include "plan/plan.h"
#include "runtime/cubin_info.h"
#include "schedule/launch_params.h"
#include "segment/dump.h"
#include "segment/segment.h"
#include "support/error.h"
#include "support/hash.h"
#include "support/process.h"

namespace seam::tool {
namespace {

// Writes Graphviz text to OUT.dot, or renders OUT.svg with `dot` when it is installed.
void draw(const SegmentedFusion& segmented, const std::string& path) {
  const std::string dot = segments_to_dot(segmented);
  const bool svg = path.size() > 4 && path.substr(path.size() - 4) == ".svg";
  if (!svg) {
    write_text(path, dot);
    return;
  }
  const std::string dot_path = path.substr(0, path.size() - 4) + ".dot";
  write_text(dot_path, dot);
  // A path that starts with '-' would read as an option to `dot`.
  auto as_operand = [](const std::string& p) { return p.starts_with("-") ? "./" + p : p; };
  ProcessResult rendered;
  try {
    rendered = run_process({"dot", "-Tsvg", as_operand(dot_path), "-o", as_operand(path)});
  } catch (const Error& e) {
    throw Error(
        detail::concat(e.what(), " (install graphviz, or pass a .dot path); the graph is in ", dot_path));
  }
  SEAM_CHECK(rendered.exit_code == 0, "Graphviz `dot` could not draw ", path, " (exit ", rendered.exit_code,
             "): ", rendered.output, "the graph is in ", dot_path);
}

// Compiles the kernels as the CUDA backend would (one NVRTC program, no GPU needed) and prints what
// ptxas made of them: registers per thread bound occupancy (docs/DEBUGGING.md).
void print_compile_summary(const std::vector<CompiledStep>& steps, const std::string& arch,
                           const std::string& name) {
  CompileRequest request = cuda_compile_request(steps, name, arch);
  if (request.kernel_names.empty()) return;
  CompiledKernel compiled = compile_cuda(request);
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(hash64(compiled.binary)));
  // Two versions of the generated code are the same machine code when these lines match (NVRTC is
  // deterministic); the time is on its own line so that snapshots can drop it.
  std::cout << "\n// " << (compiled.is_cubin ? "cubin" : "PTX") << " for " << arch << ": "
            << compiled.binary.size() << " bytes, hash " << hash << "\n";
  std::cout << "// NVRTC " << nvrtc_version()
            << " compile time: " << static_cast<int>(compiled.compile_ms + 0.5) << " ms\n";
  for (const std::string& kernel : request.kernel_names) {
    std::optional<int> registers =
        compiled.is_cubin ? cubin_registers(compiled.binary, compiled.symbol(kernel)) : std::nullopt;
    std::cout << "//   " << kernel << ": "
              << (registers ? std::to_string(*registers) + " registers per thread"
                            : "registers unknown (PTX)")
              << "\n";
  }
}

}  // namespace

int cmd_segment(Args& args) {
  SegmentOptions options = args.has("reproducible") ? reproducible_segment_options() : SegmentOptions{};
  options.strategy = parse_strategy(args.get_or("strategy", "auto"));
  options.time_budget_seconds = args.get_double("budget", options.time_budget_seconds);
  const bool no_passes = args.has("no-passes");
  const auto draw_path = args.get("draw");
  args.reject_unused();
  Fusion fusion = load_fusion(args.positional_at(0, "FILE"));
  if (!no_passes) fusion = run_pipeline(fusion);
  SegmentedFusion segmented = segment_fusion(fusion, options);
  std::cout << dump_segments(segmented);
  if (draw_path) draw(segmented, *draw_path);
  return kExitOk;
}

std::set<std::string> knob_switches() {
  std::set<std::string> switches;
  for (const KnobInfo& knob : launch_knobs())
    if (knob.is_bool()) switches.insert(knob.flag);
  return switches;
}

std::set<std::string> emit_switches() {
  std::set<std::string> switches = knob_switches();
  switches.insert("help");
  return switches;
}

void read_knob_flags(Args& args, LaunchParams& launch) {
  for (const KnobInfo& knob : launch_knobs()) {
    if (knob.is_bool()) {
      if (args.has(knob.flag)) knob.set(launch, knob.default_value ? 0 : 1);
    } else if (args.get(knob.flag)) {
      set_knob(launch, knob.name, args.get_int(knob.flag, knob.default_value));
    }
  }
  SEAM_CHECK(launch.block_size % 32 == 0, "--block must be a multiple of 32 from 32 to 1024, got ",
             launch.block_size);
}

std::string emit_knob_help() {
  std::string out =
      "seam emit FILE [--target cuda|host] [--compile ARCH] [KNOBS]\n\nknobs (schedule/launch_knobs.def; "
      "defaults are the product's):\n";
  for (const KnobInfo& knob : launch_knobs()) {
    std::string flag = "  --" + std::string(knob.flag) + (knob.is_bool() ? "" : " N");
    flag.resize(std::max<size_t>(flag.size() + 1, 30), ' ');
    out += flag + knob.help;
    if (!knob.is_bool())
      out += " [" + std::to_string(knob.min) + ".." + std::to_string(knob.max) + ", default " +
             std::to_string(knob.default_value) + "]";
    out += "\n";
  }
  return out;
}

int cmd_emit(Args& args) {
  if (args.has("help")) {
    std::cout << emit_knob_help();
    return kExitOk;
  }
  const std::string target = args.get_or("target", "cuda");
  const auto compile_arch = args.get("compile");
  SEAM_CHECK(target == "cuda" || target == "host", "--target must be cuda or host, got '", target, "'");
  SEAM_CHECK(!compile_arch || target == "cuda", "--compile needs --target cuda");
  PlannedFile planned = plan_file(args);
  const std::vector<CompiledStep>& steps = planned.plan.steps;
  std::cout << "// " << steps.size() << " kernel(s) for fusion " << planned.fusion_name << "\n";
  const KernelProgram program =
      print_kernel_program(steps, target == "cuda" ? KernelTarget::Cuda : KernelTarget::Host);
  size_t text = 0;
  for (const CompiledStep& step : steps) {
    if (step.library) {
      std::cout << "\n// group " << step.group << ": " << op_name(step.kernel_fusion.fusion.nodes().back().op)
                << ", run by a library routine (no generated code)\n";
      continue;
    }
    std::cout << "\n// group " << step.group << ":";
    if (const auto& rows = step.kernel.rows) {
      std::cout << " row kernel, " << rows->rows << " rows of " << rows->reduced << " reduced elements, "
                << rows->rows_per_block << " rows x " << rows->threads_per_row << " threads per block";
      if (!step.kernel.outputs.empty()) std::cout << ", plus";
    }
    if (!step.kernel.outputs.empty()) {
      std::cout << " " << step.kernel.outputs.size() << " chunked output(s), lanes";
      for (const kir::OutputProgram& p : step.kernel.outputs)
        std::cout << " " << p.lanes
                  << (p.order.copies > 1 ? " x" + std::to_string(p.order.copies) + " copies" : "")
                  << (p.order.run > 0 ? " (runs of " + std::to_string(p.order.run) + " chunks)" : "")
                  << (p.order.group > 1 ? " (groups of " + std::to_string(p.order.group) + " on axis " +
                                              std::to_string(p.order.group_axis) + ")"
                                        : "");
    }
    std::cout << "\n// launch: " << launch_summary(step) << "\n";
    std::cout << program.texts[text++];
  }
  if (compile_arch) print_compile_summary(steps, *compile_arch, planned.fusion_name);
  return kExitOk;
}

}  // namespace seam::tool
