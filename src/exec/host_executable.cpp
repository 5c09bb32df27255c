#include "exec/host_executable.h"

#include <map>

#include "codegen/kernel_printer.h"
#include "exec/host_compiler.h"
#include "exec/host_kernel_runner.h"
#include "interp/interpreter.h"
#include "plan/dump.h"
#include "support/error.h"
#include "text/printer.h"

namespace seam {
namespace {

class HostExecutable final : public Executable {
 public:
  HostExecutable(Fusion fusion, SegmentedFusion segmented, std::vector<CompiledStep> steps,
                 std::vector<std::string> sources, ExecutableOptions options,
                 std::shared_ptr<HostModule> module)
      : Executable(std::move(fusion), std::move(segmented), std::move(steps), std::move(sources),
                   std::move(options)),
        module_(std::move(module)) {}

  std::vector<HostTensor> run(const std::vector<HostTensor>& inputs) override {
    check_inputs(inputs);
    const Fusion& f = segmented_.fusion;
    std::map<int32_t, HostTensor> values;  // fusion inputs and values written by kernels
    for (size_t i = 0; i < inputs.size(); ++i) values[f.inputs()[i].id] = inputs[i];
    for (const CompiledStep& step : steps_) {
      std::vector<HostTensor> kernel_inputs;
      for (Value v : step.kernel_fusion.inputs) kernel_inputs.push_back(values.at(v.id));
      std::vector<Type> types;
      for (const FusionOutput& o : step.kernel_fusion.fusion.outputs())
        types.push_back(step.kernel_fusion.fusion.type(o.value));
      std::vector<HostTensor> outputs = step.library
                                            ? interpret(step.kernel_fusion.fusion, kernel_inputs)
                                            : run_host_kernel(*module_, step.kernel, kernel_inputs, types);
      for (size_t o = 0; o < outputs.size(); ++o)
        values[step.kernel_fusion.outputs[o].id] = std::move(outputs[o]);
    }
    std::vector<HostTensor> results;
    for (const FusionOutput& out : f.outputs()) {
      auto it = values.find(out.value.id);
      if (it == values.end())
        results.push_back(materialize_view(out.value, inputs));
      else
        results.push_back(it->second.contiguous());
    }
    return results;
  }

 private:
  std::shared_ptr<HostModule> module_;
};

}  // namespace

std::unique_ptr<Executable> compile_host_executable(Fusion fusion, SegmentedFusion segmented,
                                                    std::vector<CompiledStep> steps,
                                                    const ExecutableOptions& options) {
  std::vector<std::string> sources;
  for (const CompiledStep& step : steps) {
    if (step.library) continue;
    sources.push_back(print_host_kernel(step.kernel));
    dump("host", step.kernel.name, sources.back());
  }
  std::shared_ptr<HostModule> module;
  if (!sources.empty()) module = compile_host_kernels(sources, print_fusion(fusion));
  return std::make_unique<HostExecutable>(std::move(fusion), std::move(segmented), std::move(steps),
                                          std::move(sources), options, std::move(module));
}

}  // namespace seam
