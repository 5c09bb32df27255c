// segment: partition a fusion into kernels and show the result; emit: the generated code per kernel.
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "codegen/kernel_printer.h"
#include "commands.h"
#include "exec/cuda_executable.h"
#include "exec/executable.h"
#include "passes/pipeline.h"
#include "runtime/cubin_info.h"
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
  SegmentOptions options;
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

int cmd_emit(Args& args) {
  ExecutableOptions options;
  options.segment.strategy = parse_strategy(args.get_or("strategy", "auto"));
  const std::string target = args.get_or("target", "cuda");
  const auto compile_arch = args.get("compile");
  options.launch.block_size = static_cast<int>(args.get_int("block", options.launch.block_size));
  options.launch.chunks_per_thread =
      static_cast<int>(args.get_int("chunks-per-thread", options.launch.chunks_per_thread));
  options.launch.max_group = static_cast<int>(args.get_int("max-group", options.launch.max_group));
  options.launch.max_group_loaded_bytes =
      args.get_int("max-group-loaded-bytes", options.launch.max_group_loaded_bytes);
  options.launch.min_blocks_per_sm =
      static_cast<int>(args.get_int("min-blocks-per-sm", options.launch.min_blocks_per_sm));
  if (args.has("loads-not-kept")) options.launch.keep_reused_loads = false;
  if (args.has("streaming-stores")) options.launch.streaming_stores = true;
  options.launch.reduction_loop_unroll =
      static_cast<int>(args.get_int("reduction-loop-unroll", options.launch.reduction_loop_unroll));
  args.reject_unused();
  SEAM_CHECK(options.launch.block_size >= 32 && options.launch.block_size <= 1024 &&
                 options.launch.block_size % 32 == 0,
             "--block must be a multiple of 32 from 32 to 1024, got ", options.launch.block_size);
  SEAM_CHECK(options.launch.chunks_per_thread >= 0 && options.launch.chunks_per_thread <= 16,
             "--chunks-per-thread must be 0 (per kernel) to 16, got ", options.launch.chunks_per_thread);
  SEAM_CHECK(options.launch.min_blocks_per_sm >= -1 && options.launch.min_blocks_per_sm <= 32,
             "--min-blocks-per-sm must be -1 (per kernel), 0 (no register cap) or up to 32, got ",
             options.launch.min_blocks_per_sm);
  SEAM_CHECK(options.launch.max_group_loaded_bytes >= 0,
             "--max-group-loaded-bytes must be 0 (any chunk) or more, got ",
             options.launch.max_group_loaded_bytes);
  SEAM_CHECK(options.launch.max_group >= 0 && options.launch.max_group <= 16,
             "--max-group must be 0 (per kernel) to 16, got ", options.launch.max_group);
  SEAM_CHECK(options.launch.reduction_loop_unroll >= 0 && options.launch.reduction_loop_unroll <= 64,
             "--reduction-loop-unroll must be 0 (terms written out) to 64, got ",
             options.launch.reduction_loop_unroll);
  SEAM_CHECK(target == "cuda" || target == "host", "--target must be cuda or host, got '", target, "'");
  SEAM_CHECK(!compile_arch || target == "cuda", "--compile needs --target cuda");
  Fusion fusion = run_pipeline(load_fusion(args.positional_at(0, "FILE")));
  SegmentedFusion segmented = segment_fusion(fusion, options.segment);
  std::vector<CompiledStep> steps = lower_steps(segmented, options);
  std::cout << "// " << steps.size() << " kernel(s) for fusion " << fusion.name() << "\n";
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
    std::cout << "\n// launch: " << step.params.to_string() << "\n";
    std::cout << (target == "cuda" ? print_cuda_kernel(step.kernel, launch_shape(step.params))
                                   : print_host_kernel(step.kernel));
  }
  if (compile_arch) print_compile_summary(steps, *compile_arch, fusion.name());
  return kExitOk;
}

}  // namespace seam::tool
