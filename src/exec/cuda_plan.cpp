#include "exec/cuda_plan.h"

#include <algorithm>
#include <map>
#include <mutex>

#include "codegen/kernel_printer.h"
#include "exec/cuda_executable.h"
#include "runtime/cubin_info.h"
#include "text/printer.h"

namespace seam {

namespace {

// The loaded program for `request` (arch and source): one this process loaded already while alive,
// else from the kernel cache or NVRTC, loaded now.
std::shared_ptr<const LoadedProgram> load_program(const CompileRequest& request, ModuleOrigin& origin) {
  static std::mutex lock;
  static auto* loaded = new std::map<std::string, std::weak_ptr<const LoadedProgram>>();  // until exit
  const std::string key = request.arch + "\n" + request.source;
  {
    std::lock_guard<std::mutex> guard(lock);
    auto it = loaded->find(key);
    if (it != loaded->end()) {
      if (std::shared_ptr<const LoadedProgram> program = it->second.lock()) {
        origin = ModuleOrigin::Loaded;
        return program;
      }
    }
  }
  bool cache_hit = false;
  CompiledKernel compiled = compile_cuda_cached(request, BinaryCache::shared(), &cache_hit);
  origin = cache_hit ? ModuleOrigin::Cache : ModuleOrigin::Compiled;
  Module module = Module::load(compiled.binary);
  auto program = std::make_shared<const LoadedProgram>(LoadedProgram{std::move(compiled), std::move(module)});
  std::lock_guard<std::mutex> guard(lock);
  std::erase_if(*loaded, [](const auto& entry) { return entry.second.expired(); });
  (*loaded)[key] = program;
  return program;
}

}  // namespace

CudaPlan build_plan(const SegmentedFusion& segmented, std::vector<CompiledStep> steps, const Device& device,
                    int input_alignment) {
  CudaPlan plan;
  plan.steps = std::move(steps);
  const bool generated = std::any_of(plan.steps.begin(), plan.steps.end(),
                                     [](const CompiledStep& step) { return !step.library; });
  KernelProgram program = print_kernel_program(plan.steps, KernelTarget::Cuda);
  plan.constants = std::move(program.constants);
  plan.symbols = program.symbols;
  plan.texts = program.texts;
  // From here on a step's kernel goes by its name in the module, the one profilers show.
  for (size_t s = 0; s < plan.steps.size(); ++s)
    if (!plan.steps[s].library) plan.steps[s].kernel.name = plan.symbols[s];
  if (generated) {
    CompileRequest request = cuda_compile_request(program, segmented.fusion.name(), device.arch_string());
    request.reproducer = print_fusion(segmented.fusion);
    plan.program = load_program(request, plan.origin);
  }
  for (size_t s = 0; s < plan.steps.size(); ++s)
    if (!plan.steps[s].library && plan.program->compiled.is_cubin)
      plan.steps[s].registers =
          cubin_registers(plan.program->compiled.binary, plan.program->compiled.symbol(plan.symbols[s]))
              .value_or(-1);
  size_t workspace_bytes = 0;
  for (size_t s = 0; s < plan.steps.size(); ++s) {
    const CompiledStep& step = plan.steps[s];
    if (step.library) {
      plan.products.push_back(
          std::make_unique<CublasMatmul>(plan_matmul(step.kernel_fusion), input_alignment,
                                         segmented.fusion.name() + " group " + std::to_string(step.group)));
      workspace_bytes = std::max(workspace_bytes, plan.products.back()->workspace_bytes());
      plan.kernels.emplace_back();
      plan.configs.emplace_back();
      plan.checks_indices.push_back(0);
      continue;
    }
    plan.products.emplace_back();
    plan.checks_indices.push_back(kir::checks_indices(step.kernel) ? 1 : 0);
    plan.kernels.push_back(plan.program->module.kernel(plan.program->compiled.symbol(plan.symbols[s])));
    LaunchConfig config;  // decided by the plan (plan_grid)
    config.grid.x = static_cast<unsigned>(step.grid.blocks);
    config.block.x = static_cast<unsigned>(step.grid.block);
    plan.configs.push_back(config);
  }
  // Each step its own part: the counters of one outer-reduction layout lie where another layout keeps
  // its partials, so a shared workspace left one kernel's counters non-zero for the next one's launch.
  size_t kernel_workspace_bytes = 0;
  for (const CompiledStep& step : plan.steps) {
    plan.workspace_offsets.push_back(kernel_workspace_bytes);
    kernel_workspace_bytes += (static_cast<size_t>(step.workspace_bytes) + 255) / 256 * 256;
  }
  plan.workspaces = std::make_unique<StreamWorkspaces>(workspace_bytes, kernel_workspace_bytes);
  return plan;
}

}  // namespace seam
