#include "exec/host_executable.h"

#include <algorithm>
#include <cstring>
#include <map>

#include "codegen/kernel_printer.h"
#include "codegen/kernel_program.h"
#include "exec/host_compiler.h"
#include "exec/host_interrupt.h"
#include "exec/host_kernel_runner.h"
#include "exec/host_library_step.h"
#include "exec/index_error.h"
#include "exec/step_observer.h"
#include "plan/dump.h"
#include "support/error.h"
#include "text/printer.h"

namespace seam {
namespace {

class HostExecutable final : public Executable {
 public:
  HostExecutable(Fusion fusion, SegmentedFusion segmented, std::vector<CompiledStep> steps,
                 std::vector<std::string> sources, ExecutableOptions options,
                 std::shared_ptr<HostModule> module, KernelProgram program, ModuleOrigin origin)
      : Executable(std::move(fusion), std::move(segmented), std::move(steps), std::move(sources),
                   std::move(options)),
        module_(std::move(module)),
        program_(std::move(program)) {
    module_origin_ = origin;
  }

  std::vector<HostTensor> run(const std::vector<HostTensor>& inputs) override {
    check_inputs(inputs);
    const Fusion& f = segmented_.fusion;
    std::map<int32_t, HostTensor> values;  // fusion inputs and values written by kernels
    for (size_t i = 0; i < inputs.size(); ++i) values[f.inputs()[i].id] = inputs[i];
    StepObserver* observer = step_observer();
    for (size_t s = 0; s < steps_.size(); ++s) {
      const CompiledStep& step = steps_[s];
      if (observer) observer->before_step(s, step, nullptr);
      std::vector<HostTensor> kernel_inputs;
      for (Value v : step.kernel_fusion.inputs) kernel_inputs.push_back(values.at(v.id));
      std::vector<Type> types;
      for (const FusionOutput& o : step.kernel_fusion.fusion.outputs())
        types.push_back(step.kernel_fusion.fusion.type(o.value));
      // A scatter kernel starts from its data's copy, which the step before wrote (plan/plan.h).
      std::vector<HostTensor> initial;
      if (!step.library && kir::updates_output_in_place(step.kernel))
        initial.push_back(values.at(step.kernel_fusion.outputs.at(0).id));
      std::vector<HostTensor> outputs =
          step.library ? run_library_step_on_host(step, kernel_inputs)
                       : run_host_kernel(*module_, step.kernel, kernel_inputs, types, program_.constants[s],
                                         program_.symbols[s], initial);
      for (size_t o = 0; o < outputs.size(); ++o)
        values[step.kernel_fusion.outputs[o].id] = std::move(outputs[o]);
      if (observer) observer->after_step(s, step, nullptr, true);
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

  void run_into(const std::vector<DeviceTensor>& inputs, const std::vector<DeviceTensor>& outputs, CUstream,
                const RunScratch&) override {
    check_caller_buffers(inputs, outputs);
    const Fusion& f = segmented_.fusion;
    // The memory of every value a step reads or writes: the caller's inputs and output buffers, and
    // intermediates held in `scratch` for this run.
    std::vector<std::byte*> address(static_cast<size_t>(f.num_nodes()), nullptr);
    std::vector<HostTensor> scratch;
    scratch.reserve(steps_.size() * 2);
    for (size_t i = 0; i < inputs.size(); ++i)
      address[static_cast<size_t>(f.inputs()[i].id)] = reinterpret_cast<std::byte*>(inputs[i].data);
    std::vector<char> caller_owned(address.size(), 0);
    for (size_t o = 0; o < outputs.size(); ++o) {
      if (output_routes_[o].kind != OutputRoute::Kind::Computed) continue;
      const size_t id = static_cast<size_t>(f.outputs()[o].value.id);
      address[id] = reinterpret_cast<std::byte*>(outputs[o].data);
      caller_owned[id] = 1;
    }
    auto destination = [&](Value v) {
      const size_t id = static_cast<size_t>(v.id);
      if (!caller_owned[id] && !address[id]) {
        scratch.push_back(HostTensor::zeros(f.type(v).dtype, f.type(v).shape));
        address[id] = scratch.back().storage().data();
      }
      return address[id];
    };
    auto run_step = [&](size_t s) {
      const CompiledStep& step = steps_[s];
      const Fusion& kf = step.kernel_fusion.fusion;
      if (step.library) {  // on host tensors laid out as the kernel fusion declares
        std::vector<HostTensor> kernel_inputs;
        for (size_t k = 0; k < step.kernel_fusion.inputs.size(); ++k) {
          const Value declared = kf.inputs()[k];
          const Type& t = kf.type(declared);
          HostTensor x = t.is_scalar
                             ? HostTensor::zeros(t.dtype, {})
                             : HostTensor::zeros_strided(t.dtype, t.shape, kf.input_strides(declared));
          const std::byte* from = address[static_cast<size_t>(step.kernel_fusion.inputs[k].id)];
          SEAM_ASSERT(from != nullptr || x.storage().empty(), "a library step reads an unbound value");
          if (!x.storage().empty()) std::memcpy(x.storage().data(), from, x.storage().size());
          kernel_inputs.push_back(std::move(x));
        }
        std::vector<HostTensor> results = run_library_step_on_host(step, kernel_inputs);
        for (size_t o = 0; o < results.size(); ++o) {
          const HostTensor result =
              results[o].is_contiguous() ? std::move(results[o]) : results[o].contiguous();
          std::byte* to = destination(step.kernel_fusion.outputs[o]);
          if (!result.storage().empty()) std::memcpy(to, result.storage().data(), result.storage().size());
        }
        return;
      }
      std::vector<void*> args;
      args.reserve(step.kernel.params.size());
      for (const kir::Param& p : step.kernel.params) {
        const size_t i = static_cast<size_t>(p.fusion_index);
        if (p.kind == kir::Param::Kind::Output) {
          const Value v = step.kernel_fusion.outputs.at(i);
          std::byte* to = destination(v);
          // Poisoned, as run_host_kernel does, so that an element the kernel fails to write shows; a
          // scatter kernel writes into its data's copy, which the step before wrote there.
          const Type& t = f.type(v);
          if (kir::updates_output_in_place(step.kernel)) {
            SEAM_ASSERT(to != nullptr || t.bytes() == 0, "kernel ", step.kernel.name,
                        " updates an unwritten value");
          } else if (t.bytes() > 0)
            std::memset(to, t.dtype == DType::Bool ? 0x01 : 0x7f, static_cast<size_t>(t.bytes()));
          args.push_back(to);
        } else {
          std::byte* from = address[static_cast<size_t>(step.kernel_fusion.inputs.at(i).id)];
          SEAM_ASSERT(from != nullptr || f.type(step.kernel_fusion.inputs[i]).numel() == 0, "kernel ",
                      step.kernel.name, " reads an unbound value");
          args.push_back(from);
        }
      }
      // After the parameters, as on the GPU (kir::trailing_slots): the record a kernel with checked
      // indices writes the first bad one to (thrown after it), then the workspace, its counter zero.
      int64_t index_error[kir::kIndexErrorWords] = {};
      const bool checks = kir::checks_indices(step.kernel);
      if (checks) args.push_back(index_error);
      std::vector<float> workspace(static_cast<size_t>(step.workspace_bytes) / sizeof(float), 0.0f);
      if (!workspace.empty()) args.push_back(workspace.data());
      if (!program_.constants[s].empty()) args.push_back(program_.constants[s].data());  // the extents, last
      module_->entry(program_.symbols[s])(args.data());
      throw_if_host_interrupted("kernel " + step.kernel.name);
      if (checks) throw_if_index_error(index_error, "kernel " + step.kernel.name);
    };
    StepObserver* observer = step_observer();
    for (size_t s = 0; s < steps_.size(); ++s) {
      if (observer) observer->before_step(s, steps_[s], nullptr);
      run_step(s);
      if (observer) observer->after_step(s, steps_[s], nullptr, true);
    }
  }

 private:
  std::shared_ptr<HostModule> module_;
  KernelProgram program_;  // per step: its kernel's name in the module and its extents argument
};

// Host kernels compile at -O0, which is quick: most fusions are small and the test suites compile
// thousands of modules. A fusion with a value of 2^22 elements or more (a broadcast counts its
// expanded elements) runs long enough for -O2's longer compile to pay: several times faster kernels.
bool worth_optimizing(const Fusion& fusion) {
  for (int32_t id = 0; id < fusion.num_nodes(); ++id) {
    const Type& t = fusion.node(Value{id}).type;
    if (!t.is_scalar && t.numel() >= (int64_t{1} << 22)) return true;
  }
  return false;
}

}  // namespace

std::unique_ptr<Executable> compile_host_executable(Fusion fusion, SegmentedFusion segmented,
                                                    std::vector<CompiledStep> steps,
                                                    const ExecutableOptions& options) {
  KernelProgram program = print_kernel_program(steps, KernelTarget::Host);
  std::vector<std::string> sources = program.texts;
  // From here on a step's kernel goes by its name in the module (codegen/kernel_program.h).
  for (size_t s = 0, t = 0; s < steps.size(); ++s) {
    if (steps[s].library) continue;
    steps[s].kernel.name = program.symbols[s];
    dump("host", steps[s].kernel.name, sources[t++]);
  }
  std::shared_ptr<HostModule> module;
  ModuleOrigin origin = ModuleOrigin::None;
  if (!sources.empty())
    module = compile_host_kernels({program.source}, print_fusion(fusion), &origin, worth_optimizing(fusion));
  return std::make_unique<HostExecutable>(std::move(fusion), std::move(segmented), std::move(steps),
                                          std::move(sources), options, std::move(module), std::move(program),
                                          origin);
}

}  // namespace seam
