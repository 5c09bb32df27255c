#include "exec/cuda_executable.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <optional>

#include "codegen/embedded_headers.h"
#include "codegen/kernel_printer.h"
#include "exec/cublas_matmul.h"
#include "exec/index_error.h"
#include "exec/step_observer.h"
#include "plan/dump.h"
#include "runtime/cubin_info.h"
#include "runtime/cuda_driver.h"
#include "runtime/device.h"
#include "runtime/device_allocator.h"
#include "runtime/event_timer.h"
#include "runtime/kernel_cache.h"
#include "runtime/module.h"
#include "schedule/view.h"
#include "support/error.h"
#include "text/printer.h"

namespace seam {

std::string print_cuda_program(const std::vector<CompiledStep>& steps) {
  return print_kernel_program(steps, KernelTarget::Cuda).source;
}

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
  launch.shared_bytes_per_block = std::max(p.max_shared_per_block, p.max_shared_per_block_optin);
  launch.shared_bytes_per_sm = p.max_shared_per_sm;
  if (p.compute_major < 9) launch.row_cluster_max = 1;  // thread block clusters: Hopper on
}

int cuda_compute_major() {
  const DriverStatus& status = driver_status();
  SEAM_CHECK(status.available, "the CUDA backend needs a GPU: ", status.reason);
  return Device::shared().properties().compute_major;
}

namespace {

CachingDeviceAllocator& device_allocator() {
  static CachingDeviceAllocator* allocator =
      new CachingDeviceAllocator(cuda_driver_backend());  // lives until exit
  return *allocator;
}

// The scratch memory of one plan for the runs on one stream. Runs on two streams at once must not share
// it: the library's workspace and the kernels' arrival counters are live for a whole launch.
struct StreamWorkspace {
  CUstream stream = nullptr;
  DeviceBuffer library;  // for the library steps, the largest need
  // For generated kernels with outer reductions (kir::workspace_bytes), the largest need: zeroed when it
  // is created; each launch leaves its counters zero again (the last block resets them) and the steps
  // and runs on one stream are ordered, so they all share it.
  DeviceBuffer kernels;
};

// A plan's workspaces, one per stream, each created on first use on its stream: allocated for that
// stream and zeroed with a memset queued on it, so that it is ready in stream order without a host
// synchronization. Why not a workspace drawn from the allocator per run: that costs a memset launch per
// run; this costs one uncontended lock and a scan of a few entries, no driver call, once the stream has
// its workspace. A plan without workspaces never takes the lock.
class StreamWorkspaces {
 public:
  StreamWorkspaces(size_t library_bytes, size_t kernel_bytes)
      : library_bytes_(library_bytes), kernel_bytes_(kernel_bytes) {}
  bool needed() const { return library_bytes_ > 0 || kernel_bytes_ > 0; }
  size_t library_bytes() const { return library_bytes_; }
  size_t kernel_bytes() const { return kernel_bytes_; }

  const StreamWorkspace& on(CUstream stream) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const std::unique_ptr<StreamWorkspace>& w : workspaces_)
      if (w->stream == stream) return *w;
    auto w = std::make_unique<StreamWorkspace>();
    w->stream = stream;
    if (library_bytes_ > 0) w->library = DeviceBuffer(device_allocator(), library_bytes_, stream);
    if (kernel_bytes_ > 0) {
      w->kernels = DeviceBuffer(device_allocator(), kernel_bytes_, stream);
      check_cuda(driver().memset_d8_async(w->kernels.get(), 0, kernel_bytes_, stream), "cuMemsetD8Async",
                 "clearing the kernels' workspace");
    }
    workspaces_.push_back(std::move(w));
    return *workspaces_.back();
  }

  // Forgets the workspace of a stream about to be destroyed: its memory returns to that stream's pool.
  void drop(CUstream stream) {
    std::lock_guard<std::mutex> lock(mutex_);
    std::erase_if(workspaces_,
                  [&](const std::unique_ptr<StreamWorkspace>& w) { return w->stream == stream; });
  }

 private:
  const size_t library_bytes_;
  const size_t kernel_bytes_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<StreamWorkspace>> workspaces_;  // a few: one per stream that ran the plan
};

// The kernels for one alignment class of the input addresses: vector widths are proven for base
// addresses aligned to `max_vector_bytes`, so a less aligned input gets its own plan (plan_fusion with
// max_vector_bytes at that alignment), compiled on first use and cached per executable: the cache level
// below the binary cache (docs/RUNTIME.md, "Caches").
// A compiled program loaded into the device's context, shared by the executables whose kernels print
// the same text (sizes of one class).
struct LoadedProgram {
  CompiledKernel compiled;
  Module module;
};

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

struct CudaPlan {
  std::vector<CompiledStep> steps;
  std::shared_ptr<const LoadedProgram> program;
  ModuleOrigin origin = ModuleOrigin::None;
  std::vector<std::optional<Kernel>> kernels;           // per step; none for library steps
  std::vector<LaunchConfig> configs;                    // per step, computed once
  std::vector<char> checks_indices;                     // per step: takes the index error record
  std::vector<std::unique_ptr<CublasMatmul>> products;  // per step; library steps only
  std::vector<std::vector<uint64_t>> constants;         // per step: its extents argument (may be empty)
  std::vector<std::string> symbols;                     // per step: its kernel in the module ("": library)
  std::vector<std::string> texts;                       // per generated step: its kernel's source
  std::unique_ptr<StreamWorkspaces> workspaces;         // per stream, for library steps and outer reductions
  std::vector<size_t> workspace_offsets;                // per step: its part of the kernels' workspace
  size_t scratch_bytes = 0;  // caller scratch a run of this plan takes (ScratchArena), set by the executable
};

// Caller scratch memory handed out in order, each piece aligned as seam's allocator aligns its blocks.
class ScratchArena {
 public:
  static constexpr size_t kAlignment = 256;
  static size_t rounded(size_t bytes) {
    return (std::max<size_t>(bytes, 1) + kAlignment - 1) / kAlignment * kAlignment;
  }

  explicit ScratchArena(const RunScratch& scratch) : next_(scratch.data), end_(scratch.data + scratch.bytes) {
    SEAM_CHECK(scratch.data % kAlignment == 0, "scratch memory at 0x", std::hex, scratch.data, std::dec,
               " is not aligned to ", kAlignment, " bytes");
  }
  DevicePtr take(size_t bytes) {
    const DevicePtr piece = next_;
    next_ += static_cast<DevicePtr>(rounded(bytes));
    SEAM_ASSERT(next_ <= end_, "scratch arena overrun: the plan's scratch_bytes undercounts");
    return piece;
  }

 private:
  DevicePtr next_, end_;
};

// The index error record of a run: its address (0: no step checks indices) and, when seam allocated it,
// the buffer that keeps it.
struct IndexRecord {
  DevicePtr address = 0;
  std::shared_ptr<DeviceBuffer> owner;
};

// `input_alignment`: bytes every input address is aligned to in this plan's alignment class.
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
    config.shared_bytes = static_cast<unsigned>(kir::dynamic_shared_bytes(step.kernel));
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

// Device addresses bound to the values of the segmented fusion during one run, by value id (vectors: a
// run binds a few values and is on the per-call path).
class Bindings {
 public:
  explicit Bindings(int32_t values)
      : address_(static_cast<size_t>(values), 0),
        bound_(static_cast<size_t>(values), 0),
        owned_(static_cast<size_t>(values)) {}
  void bind(Value v, DevicePtr address) {
    address_.at(static_cast<size_t>(v.id)) = address;
    bound_[static_cast<size_t>(v.id)] = 1;
  }
  void own(Value v, std::shared_ptr<DeviceBuffer> buffer) {
    bind(v, buffer->get());
    owned_[static_cast<size_t>(v.id)] = std::move(buffer);
  }
  bool is_bound(Value v) const { return bound_.at(static_cast<size_t>(v.id)) != 0; }
  DevicePtr address(Value v) const {
    SEAM_ASSERT(bound_.at(static_cast<size_t>(v.id)), "value %", v.id, " has no device address in this run");
    return address_[static_cast<size_t>(v.id)];
  }
  // The buffer seam allocated for `v` in this run, or null.
  const std::shared_ptr<DeviceBuffer>& owned(Value v) const { return owned_.at(static_cast<size_t>(v.id)); }

 private:
  std::vector<DevicePtr> address_;
  std::vector<char> bound_;
  std::vector<std::shared_ptr<DeviceBuffer>> owned_;  // buffers seam allocated in this run
};

class CudaExecutable final : public Executable {
 public:
  CudaExecutable(Fusion fusion, SegmentedFusion segmented, std::vector<std::string> sources,
                 ExecutableOptions options, Device& device, CudaPlan plan)
      : Executable(std::move(fusion), std::move(segmented), plan.steps, std::move(sources),
                   std::move(options)),
        device_(device) {
    auto owned = std::make_unique<CudaPlan>(std::move(plan));
    owned->scratch_bytes = plan_scratch_bytes(*owned);
    default_plan_ = owned.get();
    module_origin_ = owned->origin;
    plans_.emplace(options_.launch.max_vector_bytes, std::move(owned));
  }

  std::vector<HostTensor> run(const std::vector<HostTensor>& inputs) override {
    check_inputs(inputs);
    device_.make_current();
    Bindings bindings = upload(inputs);
    const IndexRecord index_error = enqueue(default_plan(), bindings, nullptr);
    check_cuda(driver().stream_synchronize(nullptr), "cuStreamSynchronize", fusion_.name());
    check_index_error(index_error);
    return download(bindings, inputs);
  }

  std::vector<DeviceTensor> run_device(const std::vector<DeviceTensor>& inputs, CUstream stream) override {
    check_stream(stream);
    const int alignment = check_device_inputs(inputs);
    device_.make_current();
    const Fusion& f = segmented_.fusion;
    Bindings bindings(f.num_nodes());
    for (size_t i = 0; i < inputs.size(); ++i) bindings.bind(f.inputs()[i], inputs[i].data);
    // A fusion with indexing ops waits for its kernels, so that an index out of range is reported here.
    SEAM_CHECK(
        !is_capturing(stream), "fusion '", fusion_.name(),
        "': run_device allocates its outputs, which a stream being captured into a CUDA graph does not "
        "allow; use run_into with scratch memory");
    if (const IndexRecord index_error = enqueue(plan_for(alignment), bindings, stream); index_error.address) {
      check_cuda(driver().stream_synchronize(stream), "cuStreamSynchronize", fusion_.name());
      check_index_error(index_error);
    }
    std::vector<DeviceTensor> outputs;
    outputs.reserve(output_routes_.size());
    for (size_t o = 0; o < output_routes_.size(); ++o) {
      const OutputRoute& route = output_routes_[o];
      const Value value = f.outputs()[o].value;
      const Type& t = f.type(value);
      switch (route.kind) {
        case OutputRoute::Kind::Same: outputs.push_back(outputs[route.output]); break;
        case OutputRoute::Kind::Computed:
          outputs.push_back({bindings.address(value), t.dtype, t.shape, contiguous_strides(t.shape),
                             bindings.owned(value)});
          break;
        case OutputRoute::Kind::View: {  // a strided alias of the caller's memory, no launch
          const DeviceTensor& base = inputs[route.input];
          outputs.push_back({base.data + static_cast<DevicePtr>(route.layout.offset * dtype_size(t.dtype)),
                             t.dtype, route.layout.shape, route.layout.strides, base.owner});
          break;
        }
      }
    }
    return outputs;
  }

  void run_into(const std::vector<DeviceTensor>& inputs, const std::vector<DeviceTensor>& outputs,
                CUstream stream, const RunScratch& scratch) override {
    check_stream(stream);
    check_caller_buffers(inputs, outputs);
    int alignment = options_.launch.max_vector_bytes;
    for (size_t i = 0; i < inputs.size(); ++i)
      alignment = check_on_device(
          inputs[i], [&] { return input_label(i); }, alignment);
    for (size_t o = 0; o < outputs.size(); ++o)
      if (output_routes_[o].kind == OutputRoute::Kind::Computed)
        alignment = check_on_device(
            outputs[o], [&] { return "output " + std::to_string(o); }, alignment);
    device_.make_current();
    const Fusion& f = segmented_.fusion;
    Bindings bindings(f.num_nodes());
    for (size_t i = 0; i < inputs.size(); ++i) bindings.bind(f.inputs()[i], inputs[i].data);
    // Computed outputs are written straight into the caller's buffers: enqueue allocates only what is
    // not bound yet (intermediates).
    for (size_t o = 0; o < outputs.size(); ++o)
      if (output_routes_[o].kind == OutputRoute::Kind::Computed)
        bindings.bind(f.outputs()[o].value, outputs[o].data);
    // Captured into a CUDA graph, the run takes all its memory from the caller's scratch (the graph keeps
    // the addresses; seam's pools would hand them to other runs) and does not wait for its kernels.
    const bool capturing = is_capturing(stream);
    SEAM_CHECK(!capturing || scratch.data != 0, "fusion '", fusion_.name(),
               "': the stream is being captured into a CUDA graph, and a captured run must not allocate "
               "seam's memory: pass scratch memory of scratch_bytes() (the Python frontend does)");
    const CudaPlan& plan = plan_for(alignment);
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
      check_index_error(index_error);
    }
  }

  size_t scratch_bytes() override {
    std::lock_guard<std::mutex> lock(plans_mutex_);
    size_t bytes = 0;
    for (const auto& [alignment, plan] : plans_) bytes = std::max(bytes, plan->scratch_bytes);
    return bytes;
  }

  Timing time_gpu(const std::vector<std::vector<HostTensor>>& input_sets, int iterations,
                  bool flush_l2) override {
    SEAM_CHECK(!input_sets.empty(), "timing needs at least one input set");
    device_.make_current();
    std::vector<Bindings> sets;
    for (const auto& inputs : input_sets) {
      check_inputs(inputs);
      sets.push_back(upload(inputs));
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
    const Timing timing =
        time_launches([&](CUstream s) { enqueue(default_plan(), sets[next++ % sets.size()], s); },
                      stream.get(), iterations, 3, before);
    // The timing stream is destroyed now (time_launches waited for it): no run will draw on its
    // workspace or the blocks cached for it again.
    default_plan().workspaces->drop(stream.get());
    device_allocator().release_stream(stream.get());
    return timing;
  }

 private:
  // Runs are told apart by their stream's handle (its pool of intermediates, its workspaces).
  void check_stream(CUstream stream) const {
    SEAM_CHECK(!is_per_thread_stream(stream), "fusion '", fusion_.name(),
               "': the per-thread default stream (CU_STREAM_PER_THREAD) is not supported; pass a stream "
               "handle, or 0 for the legacy default stream");
  }

  // Checks count, dtype, shape, strides, device and alignment of device inputs before anything runs;
  // returns the alignment class (bytes, at most max_vector_bytes) that selects the plan.
  int check_device_inputs(const std::vector<DeviceTensor>& inputs) const {
    const Fusion& f = segmented_.fusion;
    check_input_count(inputs.size());
    int alignment = options_.launch.max_vector_bytes;
    for (size_t i = 0; i < inputs.size(); ++i) {
      const Type& t = f.type(f.inputs()[i]);
      const DeviceTensor& x = inputs[i];
      check_input(i, x.dtype, x.shape, t.is_scalar ? Shape{} : x.strides);
      if (t.numel() == 0) continue;
      SEAM_CHECK(x.data != 0, input_label(i), ": null device address");
      const int element = dtype_size(t.dtype);
      SEAM_CHECK(x.data % static_cast<DevicePtr>(element) == 0, input_label(i), ": address 0x", std::hex,
                 x.data, std::dec, " is not aligned to its element size (", element, " bytes)");
      alignment = check_on_device(
          x, [&] { return input_label(i); }, alignment);
    }
    return alignment;
  }

  // Checks that a caller's tensor with elements is memory of seam's device (the device the caller vouches
  // for, else the driver's answer); returns `alignment` narrowed to what its address allows (the
  // alignment class that selects the plan). `label()` names the tensor in an error; it is only built
  // for one, off the per-call path.
  template <class Label>
  int check_on_device(const DeviceTensor& x, const Label& label, int alignment) const {
    if (x.numel() == 0) return alignment;
    const int expected = device_.properties().ordinal;
    if (x.device >= 0) {
      SEAM_CHECK(x.device == expected, label(), ": the tensor is on device ", x.device,
                 ", the executable runs on device ", expected);
    } else {
      int ordinal = -1;
      CUresult r = driver().pointer_get_attribute(&ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, x.data);
      SEAM_CHECK(r == CUDA_SUCCESS && ordinal == expected, label(), ": address 0x", std::hex, x.data,
                 std::dec, " is not memory of device ", expected,
                 r == CUDA_SUCCESS ? "" : " (" + cuda_error_text(r) + ")");
    }
    const int element = dtype_size(x.dtype);
    while (alignment > element && x.data % static_cast<DevicePtr>(alignment) != 0) alignment /= 2;
    return alignment;
  }

  const CudaPlan& default_plan() const { return *default_plan_; }

  static bool is_capturing(CUstream stream) {
    CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
    check_cuda(driver().stream_is_capturing(stream, &status), "cuStreamIsCapturing");
    return status != CU_STREAM_CAPTURE_STATUS_NONE;
  }

  // What a run_into of `plan` draws from caller scratch (the same choices as enqueue): every step output
  // that is neither an input nor a Computed output the caller gives a buffer for, the index error record,
  // the workspaces.
  size_t plan_scratch_bytes(const CudaPlan& plan) const {
    const Fusion& f = segmented_.fusion;
    std::vector<char> bound(static_cast<size_t>(f.num_nodes()), 0);
    for (Value v : f.inputs()) bound[static_cast<size_t>(v.id)] = 1;
    for (size_t o = 0; o < output_routes_.size(); ++o)
      if (output_routes_[o].kind == OutputRoute::Kind::Computed)
        bound[static_cast<size_t>(f.outputs()[o].value.id)] = 1;
    size_t bytes = 0;
    auto take = [&](Value v) {
      if (bound[static_cast<size_t>(v.id)]) return;
      bound[static_cast<size_t>(v.id)] = 1;
      bytes += ScratchArena::rounded(static_cast<size_t>(std::max<int64_t>(f.type(v).bytes(), 1)));
    };
    bool checks_indices = false;
    for (size_t s = 0; s < plan.steps.size(); ++s) {
      const CompiledStep& step = plan.steps[s];
      if (step.library) {
        take(step.kernel_fusion.outputs.at(0));
        continue;
      }
      for (const kir::Param& p : step.kernel.params)
        if (p.kind == kir::Param::Kind::Output)
          take(step.kernel_fusion.outputs[static_cast<size_t>(p.fusion_index)]);
      checks_indices = checks_indices || plan.checks_indices[s];
    }
    if (checks_indices) bytes += ScratchArena::rounded(kir::kIndexErrorWords * sizeof(int64_t));
    if (plan.workspaces->library_bytes() > 0)
      bytes += ScratchArena::rounded(plan.workspaces->library_bytes());
    if (plan.workspaces->kernel_bytes() > 0) bytes += ScratchArena::rounded(plan.workspaces->kernel_bytes());
    return bytes;
  }

  // Runs on several threads may ask at once (the API serializes its runs, direct callers need not).
  const CudaPlan& plan_for(int alignment) {
    if (alignment == options_.launch.max_vector_bytes) return *default_plan_;
    std::lock_guard<std::mutex> lock(plans_mutex_);
    auto it = plans_.find(alignment);
    if (it != plans_.end()) return *it->second;
    ExecutableOptions narrower = options_;
    narrower.launch.max_vector_bytes = alignment;
    auto plan = std::make_unique<CudaPlan>(build_plan(
        segmented_, plan_fusion(segmented_, PlanOptions{narrower.launch, {}}).steps, device_, alignment));
    plan->scratch_bytes = plan_scratch_bytes(*plan);
    return *plans_.emplace(alignment, std::move(plan)).first->second;
  }

  Bindings upload(const std::vector<HostTensor>& inputs) {
    const Driver& cu = driver();
    Bindings bindings(segmented_.fusion.num_nodes());
    for (size_t i = 0; i < inputs.size(); ++i) {
      const auto& storage = inputs[i].storage();
      auto buffer = std::make_shared<DeviceBuffer>(device_allocator(), std::max<size_t>(storage.size(), 1));
      if (!storage.empty())
        check_cuda(cu.memcpy_htod(buffer->get(), storage.data(), storage.size()), "cuMemcpyHtoD",
                   input_label(i));
      bindings.own(segmented_.fusion.inputs()[i], std::move(buffer));
    }
    return bindings;
  }

  // Allocates each step's outputs for `stream` and launches the steps in order on it. Intermediates are
  // returned to the stream's pool of the caching allocator when `bindings` goes away, while the stream
  // may still use them: only later work on the same stream reuses them, after this run's (the stream
  // orders the launches; runs on other streams draw from their own pools). The workspaces are the
  // plan's for this stream. Returns the index error record its kernels write (zeroed on the stream
  // first), or nullptr when none has indexing ops.
  //
  // With `arena` (caller scratch), intermediates, the index error record and the workspaces come from it
  // instead: nothing is allocated, and the kernels' workspace is zeroed on the stream each run.
  IndexRecord enqueue(const CudaPlan& plan, Bindings& bindings, CUstream stream,
                      ScratchArena* arena = nullptr) {
    const Driver& cu = driver();
    const Fusion& f = segmented_.fusion;
    IndexRecord index_error;
    constexpr size_t kIndexErrorBytes = kir::kIndexErrorWords * sizeof(int64_t);
    DevicePtr library_workspace = 0, kernel_workspace = 0;
    if (arena) {
      if (plan.workspaces->library_bytes() > 0)
        library_workspace = arena->take(plan.workspaces->library_bytes());
      if (plan.workspaces->kernel_bytes() > 0) {
        kernel_workspace = arena->take(plan.workspaces->kernel_bytes());
        check_cuda(cu.memset_d8_async(kernel_workspace, 0, plan.workspaces->kernel_bytes(), stream),
                   "cuMemsetD8Async", "clearing the kernels' workspace");
      }
    } else if (plan.workspaces->needed()) {
      const StreamWorkspace& workspace = plan.workspaces->on(stream);
      library_workspace = workspace.library.get();
      kernel_workspace = workspace.kernels.get();
    }
    // An unbound step output: a buffer of seam's for this run, or a piece of the caller's scratch.
    auto allocate = [&](Value v, const Type& t) {
      const size_t bytes = static_cast<size_t>(std::max<int64_t>(t.bytes(), 1));
      if (arena)
        bindings.bind(v, arena->take(bytes));
      else
        bindings.own(v, std::make_shared<DeviceBuffer>(device_allocator(), bytes, stream));
    };
    StepObserver* observer = step_observer();
    for (size_t s = 0; s < plan.steps.size(); ++s) {
      const CompiledStep& step = plan.steps[s];
      if (observer) observer->before_step(s, step, stream);
      if (step.library) {
        enqueue_product(*plan.products[s], library_workspace, step, bindings, stream, allocate);
        if (observer) observer->after_step(s, step, stream, true);
        continue;
      }
      std::vector<DevicePtr> pointers;
      std::vector<void*> args;
      pointers.reserve(step.kernel.params.size() + 2);  // args point into it: no reallocation
      for (const kir::Param& p : step.kernel.params) {
        const size_t i = static_cast<size_t>(p.fusion_index);
        if (p.kind == kir::Param::Kind::Output) {
          const Value v = step.kernel_fusion.outputs[i];
          const Type& t = f.type(v);
          if (!bindings.is_bound(v)) allocate(v, t);  // a caller's buffer is bound already (run_into)
          const DevicePtr out = bindings.address(v);
          if (options_.poison_outputs && t.bytes() > 0)
            check_cuda(cu.memset_d8_async(out, t.dtype == DType::Bool ? 0x01 : 0x7f,
                                          static_cast<size_t>(t.bytes()), stream),
                       "cuMemsetD8Async", "poisoning an output");
          pointers.push_back(out);
        } else {  // inputs and scalars: both are device memory
          pointers.push_back(bindings.address(step.kernel_fusion.inputs[i]));
        }
        args.push_back(&pointers.back());
      }
      if (plan.checks_indices[s]) {  // the last parameter (kernel_ir.h, kIndexErrorWords)
        if (!index_error.address) {
          if (arena) {
            index_error.address = arena->take(kIndexErrorBytes);
          } else {
            index_error.owner = std::make_shared<DeviceBuffer>(device_allocator(), kIndexErrorBytes, stream);
            index_error.address = index_error.owner->get();
          }
          check_cuda(cu.memset_d8_async(index_error.address, 0, kIndexErrorBytes, stream), "cuMemsetD8Async",
                     "clearing the index error record");
        }
        pointers.push_back(index_error.address);
        args.push_back(&pointers.back());
      }
      if (step.workspace_bytes > 0) {  // after it: the workspace (kernel_ir.h, OuterWorkspace)
        pointers.push_back(kernel_workspace + static_cast<DevicePtr>(plan.workspace_offsets[s]));
        args.push_back(&pointers.back());
      }
      // Last: the extents, a struct passed by value (constants_argument_slot).
      if (!plan.constants[s].empty()) args.push_back(const_cast<uint64_t*>(plan.constants[s].data()));
      const bool launched = step.kernel.total_chunks() != 0;
      if (launched) {
        LaunchConfig config = plan.configs[s];
        config.stream = stream;
        launch(const_cast<Kernel&>(*plan.kernels[s]), config, args);
      }
      if (observer) observer->after_step(s, step, stream, launched);
    }
    return index_error;
  }

  // After the stream synchronized: the first index out of range a kernel recorded, as an error.
  void check_index_error(const IndexRecord& index_error) {
    if (!index_error.address) return;
    int64_t record[kir::kIndexErrorWords] = {};
    check_cuda(driver().memcpy_dtoh(record, index_error.address, sizeof record), "cuMemcpyDtoH",
               "reading the index error record");
    throw_if_index_error(record, "fusion '" + fusion_.name() + "'");
  }

  // A library step: its one output allocated like a kernel's (`allocate`), then the library call.
  template <class Allocate>
  void enqueue_product(const CublasMatmul& product, DevicePtr workspace, const CompiledStep& step,
                       Bindings& bindings, CUstream stream, const Allocate& allocate) {
    std::vector<DevicePtr> inputs;
    for (Value v : step.kernel_fusion.inputs) inputs.push_back(bindings.address(v));
    const Value v = step.kernel_fusion.outputs.at(0);
    const Type& t = segmented_.fusion.type(v);
    if (!bindings.is_bound(v)) allocate(v, t);  // a caller's buffer is bound already (run_into)
    const DevicePtr output = bindings.address(v);
    if (options_.poison_outputs && t.bytes() > 0)
      check_cuda(driver().memset_d8_async(output, 0x7f, static_cast<size_t>(t.bytes()), stream),
                 "cuMemsetD8Async", "poisoning an output");
    product.enqueue(inputs, output, workspace, stream);
  }

  std::vector<HostTensor> download(const Bindings& bindings, const std::vector<HostTensor>& inputs) {
    const Driver& cu = driver();
    const Fusion& f = segmented_.fusion;
    std::vector<HostTensor> results;
    for (size_t o = 0; o < output_routes_.size(); ++o) {
      const OutputRoute& route = output_routes_[o];
      const Value value = f.outputs()[o].value;
      if (route.kind == OutputRoute::Kind::Same) {
        results.push_back(results[route.output]);
        continue;
      }
      if (route.kind == OutputRoute::Kind::View && f.node(value).op == OpKind::Input) {  // returned unchanged
        results.push_back(inputs[route.input].contiguous());
        continue;
      }
      if (route.kind == OutputRoute::Kind::View) {
        results.push_back(materialize_view(value, inputs));
        continue;
      }
      const Type& t = f.type(value);
      HostTensor host = HostTensor::zeros(t.dtype, t.shape);
      if (!host.storage().empty())
        check_cuda(cu.memcpy_dtoh(host.storage().data(), bindings.address(value), host.storage().size()),
                   "cuMemcpyDtoH", "fusion output");
      results.push_back(std::move(host));
    }
    return results;
  }

  Device& device_;
  std::map<int, std::unique_ptr<CudaPlan>> plans_;  // by alignment class of the input addresses
  std::mutex plans_mutex_;                          // guards plans_
  const CudaPlan* default_plan_ = nullptr;          // plans_'s entry for max_vector_bytes, never removed
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
