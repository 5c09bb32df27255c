#include "exec/cuda_executable.h"

#include <algorithm>
#include <optional>

#include "codegen/embedded_headers.h"
#include "codegen/kernel_printer.h"
#include "exec/cuda_plan_cache.h"
#include "exec/cuda_run_checks.h"
#include "exec/cuda_run_io.h"
#include "exec/cuda_step_launcher.h"
#include "plan/dump.h"
#include "runtime/cuda_driver.h"
#include "runtime/device.h"
#include "runtime/event_timer.h"
#include "support/error.h"

namespace seam {

CompileRequest cuda_compile_request(const std::vector<CompiledStep>& steps, const std::string& fusion_name,
                                    const std::string& arch) {
  return cuda_compile_request(print_kernel_program(steps, KernelTarget::Cuda), fusion_name, arch);
}

CompileRequest cuda_compile_request(const KernelProgram& program, const std::string& fusion_name,
                                    const std::string& arch) {
  CompileRequest request;
  request.source = program.source;
  request.program_name = fusion_name + ".cu";
  request.arch = arch;
  for (const EmbeddedHeader& h : embedded_headers()) request.headers.emplace_back(h.name, h.text);
  request.kernel_names = program.distinct_symbols();
  return request;
}

void fit_launch_to_device(LaunchParams& launch) {
  const DriverStatus& status = driver_status();
  SEAM_CHECK(status.available, "the CUDA backend needs a GPU: ", status.reason);
  const DeviceProperties& p = Device::shared().properties();
  launch.sm_count = p.sm_count;
  if (p.compute_major < 9) launch.row_cluster_max = 1;  // thread block clusters: Hopper on
}

int cuda_compute_major() {
  const DriverStatus& status = driver_status();
  SEAM_CHECK(status.available, "the CUDA backend needs a GPU: ", status.reason);
  return Device::shared().properties().compute_major;
}

namespace {

// The CUDA backend's executable: the plans by alignment class (exec/cuda_plan_cache.h), run on the host
// path (inputs uploaded, outputs downloaded) or on caller device memory, each run's steps enqueued by
// exec/cuda_step_launcher.h with its memory from seam's allocator or the caller's scratch
// (exec/device_scratch.h).
class CudaExecutable final : public Executable {
 public:
  CudaExecutable(Fusion fusion, SegmentedFusion segmented, std::vector<std::string> sources,
                 ExecutableOptions options, Device& device, CudaPlan plan)
      : Executable(std::move(fusion), std::move(segmented), plan.steps, std::move(sources),
                   std::move(options)),
        device_(device),
        plans_(segmented_, output_routes_, options_.launch, device, std::move(plan)) {
    module_origin_ = plans_.default_plan().origin;
  }

  std::vector<HostTensor> run(const std::vector<HostTensor>& inputs) override {
    check_inputs(inputs);
    device_.make_current();
    Bindings bindings = upload_inputs(segmented_.fusion, inputs, [&](size_t i) { return input_label(i); });
    const IndexRecord index_error = enqueue(plans_.default_plan(), bindings, nullptr);
    check_cuda(driver().stream_synchronize(nullptr), "cuStreamSynchronize", fusion_.name());
    check_index_error(index_error, fusion_.name());
    return download_outputs(segmented_.fusion, output_routes_, bindings, inputs,
                            [&](Value view) { return materialize_view(view, inputs); });
  }

  std::vector<DeviceTensor> run_device(const std::vector<DeviceTensor>& inputs, CUstream stream) override {
    check_stream(stream, fusion_.name());
    const int alignment = check_device_inputs(inputs);
    device_.make_current();
    Bindings bindings = bind_caller_buffers(segmented_.fusion, output_routes_, inputs, {});
    // A fusion with indexing ops waits for its kernels, so that an index out of range is reported here.
    SEAM_CHECK(
        !is_capturing(stream), "fusion '", fusion_.name(),
        "': run_device allocates its outputs, which a stream being captured into a CUDA graph does not "
        "allow; use run_into with scratch memory");
    if (const IndexRecord index_error = enqueue(plans_.plan_for(alignment), bindings, stream);
        index_error.address) {
      check_cuda(driver().stream_synchronize(stream), "cuStreamSynchronize", fusion_.name());
      check_index_error(index_error, fusion_.name());
    }
    return device_outputs(segmented_.fusion, output_routes_, bindings, inputs);
  }

  void run_into(const std::vector<DeviceTensor>& inputs, const std::vector<DeviceTensor>& outputs,
                CUstream stream, const RunScratch& scratch) override {
    check_stream(stream, fusion_.name());
    check_caller_buffers(inputs, outputs);
    const int alignment = caller_alignment(inputs, outputs);
    device_.make_current();
    Bindings bindings = bind_caller_buffers(segmented_.fusion, output_routes_, inputs, outputs);
    // Captured into a CUDA graph, the run takes all its memory from the caller's scratch (the graph keeps
    // the addresses; seam's pools would hand them to other runs) and does not wait for its kernels.
    const bool capturing = is_capturing(stream);
    SEAM_CHECK(!capturing || scratch.data != 0, "fusion '", fusion_.name(),
               "': the stream is being captured into a CUDA graph, and a captured run must not allocate "
               "seam's memory: pass scratch memory of scratch_bytes() (the Python frontend does)");
    const CudaPlan& plan = plans_.plan_for(alignment);
    std::optional<ScratchArena> arena;
    if (scratch.data != 0) {
      SEAM_CHECK(scratch.bytes >= plan.scratch_bytes, "fusion '", fusion_.name(), "': scratch of ",
                 scratch.bytes, " bytes; this run needs ", plan.scratch_bytes);
      arena.emplace(scratch);
    }
    // As run_device: a fusion with indexing ops waits for its kernels and raises the first index out of
    // range, so that no caller sees outputs computed from a clamped index. Not while captured: the
    // synchronization would invalidate the capture (an index out of range then reads 0, unreported).
    const IndexRecord index_error = enqueue(plan, bindings, stream, arena ? &*arena : nullptr);
    if (index_error.address && !capturing) {
      check_cuda(driver().stream_synchronize(stream), "cuStreamSynchronize", fusion_.name());
      check_index_error(index_error, fusion_.name());
    }
  }

  size_t scratch_bytes() override { return plans_.max_scratch_bytes(); }

  Timing time_gpu(const std::vector<std::vector<HostTensor>>& input_sets, int iterations,
                  bool flush_l2) override {
    SEAM_CHECK(!input_sets.empty(), "timing needs at least one input set");
    device_.make_current();
    std::vector<Bindings> sets;
    for (const auto& inputs : input_sets) {
      check_inputs(inputs);
      sets.push_back(upload_inputs(segmented_.fusion, inputs, [&](size_t i) { return input_label(i); }));
    }
    size_t next = 0;
    Stream stream;
    DeviceBuffer flush;
    std::function<void(CUstream)> before;
    if (flush_l2) {
      const size_t bytes = 2 * static_cast<size_t>(std::max(device_.properties().l2_cache_bytes, 64 << 20));
      flush = DeviceBuffer(device_allocator(), bytes);
      before = [&flush, bytes](CUstream s) {
        check_cuda(driver().memset_d8_async(flush.get(), static_cast<unsigned char>(0), bytes, s),
                   "cuMemsetD8Async");
      };
    }
    const CudaPlan& plan = plans_.default_plan();
    const Timing timing = time_launches([&](CUstream s) { enqueue(plan, sets[next++ % sets.size()], s); },
                                        stream.get(), iterations, 3, before);
    // The timing stream is destroyed now (time_launches waited for it): no run will draw on its
    // workspace or the blocks cached for it again.
    plan.workspaces->drop(stream.get());
    device_allocator().release_stream(stream.get());
    return timing;
  }

 private:
  IndexRecord enqueue(const CudaPlan& plan, Bindings& bindings, CUstream stream,
                      ScratchArena* arena = nullptr) {
    return enqueue_steps(plan, segmented_.fusion, options_.poison_outputs, bindings, stream, arena);
  }

  // Checks count, dtype, shape, strides, device and alignment of device inputs before anything runs;
  // returns the alignment class (bytes, at most max_vector_bytes) that selects the plan.
  int check_device_inputs(const std::vector<DeviceTensor>& inputs) const {
    check_input_count(inputs.size());
    int alignment = plans_.default_alignment();
    for (size_t i = 0; i < inputs.size(); ++i) {
      check_input_buffer(i, inputs[i]);
      alignment = check_on_device(
          inputs[i], device_.properties().ordinal, [&] { return input_label(i); }, alignment);
    }
    return alignment;
  }

  // run_into's buffers (checked by check_caller_buffers) on seam's device; returns their alignment class.
  int caller_alignment(const std::vector<DeviceTensor>& inputs,
                       const std::vector<DeviceTensor>& outputs) const {
    const int ordinal = device_.properties().ordinal;
    int alignment = plans_.default_alignment();
    for (size_t i = 0; i < inputs.size(); ++i)
      alignment = check_on_device(
          inputs[i], ordinal, [&] { return input_label(i); }, alignment);
    for (size_t o = 0; o < outputs.size(); ++o)
      if (output_routes_[o].kind == OutputRoute::Kind::Computed)
        alignment = check_on_device(
            outputs[o], ordinal, [&] { return "output " + std::to_string(o); }, alignment);
    return alignment;
  }

  Device& device_;
  CudaPlanCache plans_;
};

}  // namespace

std::unique_ptr<Executable> compile_cuda_executable(Fusion fusion, SegmentedFusion segmented,
                                                    std::vector<CompiledStep> steps,
                                                    const ExecutableOptions& options) {
  const DriverStatus& status = driver_status();
  SEAM_CHECK(status.available, "the CUDA backend needs a GPU: ", status.reason);
  Device& device = Device::shared();
  device.make_current();
  CudaPlan plan = build_plan(segmented, std::move(steps), device, options.launch.max_vector_bytes);
  std::vector<std::string> sources = plan.texts;
  for (size_t s = 0, t = 0; s < plan.steps.size(); ++s)
    if (!plan.steps[s].library) dump("cuda", plan.symbols[s], sources[t++]);
  return std::make_unique<CudaExecutable>(std::move(fusion), std::move(segmented), std::move(sources),
                                          options, device, std::move(plan));
}

}  // namespace seam
