#include "codegen/kernel_program.h"

#include <cstdio>
#include <set>

#include "support/hash.h"

namespace seam {
namespace {

// A name no generated identifier contains: the kernel is printed under it, then renamed.
constexpr std::string_view kPlaceholder = "seam_unnamed_kernel_";

std::string replace_all(std::string text, std::string_view from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

}  // namespace

CudaLaunchShape launch_shape(const LaunchParams& params) {
  return CudaLaunchShape{params.block_size, params.min_blocks_per_sm};
}

std::vector<std::string> KernelProgram::distinct_symbols() const {
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const std::string& s : symbols)
    if (!s.empty() && seen.insert(s).second) out.push_back(s);
  return out;
}

KernelProgram print_kernel_program(const std::vector<PlannedStep>& steps, KernelTarget target) {
  KernelProgram program;
  program.symbols.resize(steps.size());
  program.constants.resize(steps.size());
  std::set<std::string> printed;
  for (size_t s = 0; s < steps.size(); ++s) {
    const PlannedStep& step = steps[s];
    if (step.library) continue;
    kir::Kernel kernel = step.kernel;
    kernel.name = std::string(kPlaceholder);
    const ExtentSpelling spelling = extent_spelling(step);
    // Named after the CUDA text on both targets: a host executable's kernels have the names the same
    // plan's CUDA program gives them (Executable::cuda_source).
    PrintedKernel printed_kernel = print_cuda_kernel(kernel, launch_shape(step.params), spelling);
    char hash[17];
    std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(hash64(printed_kernel.text)));
    const std::string symbol = "seam_" + std::string(step_kind_name(step.kind)) + "_" + hash;
    if (target == KernelTarget::Host) printed_kernel = print_host_kernel(kernel, spelling);
    std::string text = replace_all(std::move(printed_kernel.text), kPlaceholder, symbol);
    if (printed.insert(symbol).second) program.source += text + "\n";
    program.texts.push_back(std::move(text));
    program.symbols[s] = symbol;
    program.constants[s] = printed_kernel.constants.pack();
  }
  return program;
}

std::string print_cuda_program(const std::vector<PlannedStep>& steps) {
  return print_kernel_program(steps, KernelTarget::Cuda).source;
}

}  // namespace seam
