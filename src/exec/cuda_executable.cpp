#include "exec/cuda_executable.h"

#include <map>

#include "codegen/embedded_headers.h"
#include "codegen/kernel_printer.h"
#include "exec/row_steps.h"
#include "runtime/cuda_driver.h"
#include "runtime/device.h"
#include "runtime/device_allocator.h"
#include "runtime/event_timer.h"
#include "runtime/kernel_cache.h"
#include "runtime/module.h"
#include "support/error.h"
#include "text/printer.h"

namespace seam {

std::string print_cuda_program(const std::vector<CompiledStep>& steps, const CudaLaunchShape& shape) {
  std::string source;
  for (const CompiledStep& step : steps) source += print_cuda_kernel(step.kernel, shape) + "\n";
  return source;
}

namespace {

CachingDeviceAllocator& device_allocator() {
  static CachingDeviceAllocator* allocator = new CachingDeviceAllocator(cuda_driver_backend());  // lives until exit
  return *allocator;
}

class CudaExecutable final : public Executable {
 public:
  CudaExecutable(Fusion fusion, SegmentedFusion segmented, std::vector<CompiledStep> steps,
                 std::vector<std::string> sources, ExecutableOptions options, Device& device,
                 std::optional<Module> module, std::vector<Kernel> kernels)
      : Executable(std::move(fusion), std::move(segmented), std::move(steps), std::move(sources),
                   std::move(options)),
        device_(device),
        module_(std::move(module)),
        kernels_(std::move(kernels)) {}

  std::vector<HostTensor> run(const std::vector<HostTensor>& inputs) override {
    check_inputs(inputs);
    device_.make_current();
    DeviceRun state = prepare(inputs);
    launch_all(state, nullptr);
    check_cuda(driver().stream_synchronize(nullptr), "cuStreamSynchronize", fusion_.name());
    return download(state, inputs);
  }

  Timing time_gpu(const std::vector<std::vector<HostTensor>>& input_sets, int iterations) override {
    SEAM_CHECK(!input_sets.empty(), "timing needs at least one input set");
    device_.make_current();
    std::vector<DeviceRun> states;
    for (const auto& inputs : input_sets) {
      check_inputs(inputs);
      states.push_back(prepare(inputs));
    }
    size_t next = 0;
    Stream stream;
    return time_launches([&](CUstream s) { launch_all(states[next++ % states.size()], s); }, stream.get(),
                         iterations, 3);
  }

 private:
  // Device buffers and prepared launch arguments of one run.
  struct DeviceRun {
    std::map<int32_t, DeviceBuffer> buffers;
    std::vector<std::vector<uint64_t>> pointers;  // per step: the device addresses its args point to
    std::vector<std::vector<void*>> args;
    std::vector<LaunchConfig> configs;
  };

  DeviceRun prepare(const std::vector<HostTensor>& inputs) {
    const Driver& cu = driver();
    const Fusion& f = segmented_.fusion;
    DeviceRun state;
    for (size_t i = 0; i < inputs.size(); ++i) {
      const auto& storage = inputs[i].storage();
      DeviceBuffer buffer(device_allocator(), std::max<size_t>(storage.size(), 1));
      if (!storage.empty())
        check_cuda(cu.memcpy_htod(buffer.get(), storage.data(), storage.size()), "cuMemcpyHtoD", "fusion input");
      state.buffers.emplace(f.inputs()[i].id, std::move(buffer));
    }
    const int sm_count = device_.properties().sm_count;
    state.pointers.resize(steps_.size());
    state.args.resize(steps_.size());
    for (size_t s = 0; s < steps_.size(); ++s) {
      const CompiledStep& step = steps_[s];
      std::vector<uint64_t>& pointers = state.pointers[s];
      std::vector<void*>& args = state.args[s];
      pointers.reserve(step.kernel.params.size());  // args point into it: no reallocation
      for (const kir::Param& p : step.kernel.params) {
        const size_t i = static_cast<size_t>(p.fusion_index);
        if (p.kind == kir::Param::Kind::Output) {
          Value v = step.kernel_fusion.outputs[i];
          const Type& t = f.type(v);
          DeviceBuffer out(device_allocator(), static_cast<size_t>(std::max<int64_t>(t.bytes(), 1)));
          if (options_.poison_outputs)
            check_cuda(cu.memset_d8(out.get(), t.dtype == DType::Bool ? 0x01 : 0x7f, static_cast<size_t>(t.bytes())),
                       "cuMemsetD8", "poisoning an output");
          pointers.push_back(out.get());
          state.buffers[v.id] = std::move(out);
          args.push_back(&pointers.back());
        } else {
          pointers.push_back(state.buffers.at(step.kernel_fusion.inputs[i].id).get());
          args.push_back(&pointers.back());
        }
      }
      const int64_t chunks = step.kernel.total_chunks();
      const int block = options_.block_size;
      const int64_t per_block = static_cast<int64_t>(block) * std::max(1, options_.chunks_per_thread);
      int64_t grid = (chunks + per_block - 1) / per_block;
      if (options_.max_blocks_per_sm > 0)
        grid = std::min<int64_t>(grid, static_cast<int64_t>(sm_count) * options_.max_blocks_per_sm);
      LaunchConfig config;
      config.grid.x = static_cast<unsigned>(std::max<int64_t>(grid, 1));
      config.block.x = static_cast<unsigned>(block);
      if (step.kernel.rows) config = row_launch_config(step.kernel, sm_count, options_.max_blocks_per_sm);
      state.configs.push_back(config);
    }
    return state;
  }

  void launch_all(DeviceRun& state, CUstream stream) {
    for (size_t s = 0; s < steps_.size(); ++s) {
      if (steps_[s].kernel.total_chunks() == 0) continue;
      LaunchConfig config = state.configs[s];
      config.stream = stream;
      launch(kernels_[s], config, state.args[s]);
    }
  }

  std::vector<HostTensor> download(DeviceRun& state, const std::vector<HostTensor>& inputs) {
    const Driver& cu = driver();
    const Fusion& f = segmented_.fusion;
    std::vector<HostTensor> results;
    for (const FusionOutput& out : f.outputs()) {
      auto it = state.buffers.find(out.value.id);
      if (it == state.buffers.end()) {
        results.push_back(materialize_view(out.value, inputs));
        continue;
      }
      if (f.node(out.value).op == OpKind::Input) {  // returned unchanged
        size_t input = static_cast<size_t>(std::find(f.inputs().begin(), f.inputs().end(), out.value) - f.inputs().begin());
        results.push_back(inputs[input].contiguous());
        continue;
      }
      const Type& t = f.type(out.value);
      HostTensor host = HostTensor::zeros(t.dtype, t.shape);
      if (!host.storage().empty())
        check_cuda(cu.memcpy_dtoh(host.storage().data(), it->second.get(), host.storage().size()), "cuMemcpyDtoH",
                   "fusion output");
      results.push_back(std::move(host));
    }
    return results;
  }

 private:
  Device& device_;
  std::optional<Module> module_;
  std::vector<Kernel> kernels_;
};

}  // namespace

std::unique_ptr<Executable> compile_cuda_executable(Fusion fusion, SegmentedFusion segmented,
                                                    std::vector<CompiledStep> steps,
                                                    const ExecutableOptions& options) {
  const DriverStatus& status = driver_status();
  SEAM_CHECK(status.available, "the CUDA backend needs a GPU: ", status.reason);
  Device& device = Device::shared();
  device.make_current();
  std::vector<std::string> sources;
  for (const CompiledStep& step : steps)
    sources.push_back(print_cuda_kernel(step.kernel, CudaLaunchShape{options.block_size, options.chunks_per_thread}));
  std::optional<Module> module;
  std::vector<Kernel> kernels;
  if (!steps.empty()) {
    CompileRequest request;
    request.source = print_cuda_program(steps, CudaLaunchShape{options.block_size, options.chunks_per_thread});
    request.program_name = fusion.name() + ".cu";
    request.arch = device.arch_string();
    for (const EmbeddedHeader& h : embedded_headers()) request.headers.emplace_back(h.name, h.text);
    for (const CompiledStep& step : steps) request.kernel_names.push_back(step.kernel.name);
    request.reproducer = print_fusion(fusion);
    CompiledKernel compiled = compile_cuda_cached(request, BinaryCache::shared());
    module = Module::load(compiled.binary);
    for (const CompiledStep& step : steps) kernels.push_back(module->kernel(compiled.symbol(step.kernel.name)));
  }
  return std::make_unique<CudaExecutable>(std::move(fusion), std::move(segmented), std::move(steps),
                                          std::move(sources), options, device, std::move(module),
                                          std::move(kernels));
}

}  // namespace seam
