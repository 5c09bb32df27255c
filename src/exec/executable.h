// A fusion compiled for a backend: passes, segmentation, the plan (plan/plan.h: one step per launching
// group), and the backend that runs the plan's steps in order. Outputs that are views of inputs launch
// nothing.
//
//   auto exe = Executable::compile(fusion, {.backend = Backend::Cuda});
//   std::vector<HostTensor> outputs = exe->run(inputs);
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "exec/device_tensor.h"
#include "plan/plan.h"
#include "runtime/event_timer.h"
#include "runtime/module_origin.h"
#include "schedule/launch_params.h"
#include "schedule/view.h"
#include "segment/segment.h"
#include "tensor/host_tensor.h"

namespace seam {

enum class Backend { Host, Cuda };
Backend parse_backend(std::string_view name);  // "host", "cuda"

struct ExecutableOptions {
  Backend backend = Backend::Host;
  bool run_passes = true;
  SegmentOptions segment;
  // Defaults for every kernel's knobs (schedule/launch_knobs.def); the plan adapts them per kernel.
  LaunchParams launch;
  // Fill every output with a pattern before the kernels run, so that unwritten elements are caught.
  bool poison_outputs = false;
  // Take the segmentation of an earlier fusion of the same structure and size class, re-checked for
  // these sizes, instead of searching again (exec/segmentation_cache.h).
  bool reuse_segmentation = true;
};

// A step as the plan decided it (plan/plan.h); the backends add what compiling it showed (registers).
using CompiledStep = PlannedStep;

// How a run hands back one fusion output, decided once per executable: Computed outputs are written by a
// step (into a contiguous buffer), View outputs are strided aliases of a fusion input (an input returned
// unchanged is a view of itself: nothing launches for either), Same outputs repeat an earlier output's
// value.
struct OutputRoute {
  enum class Kind { Computed, View, Same } kind = Kind::Computed;
  size_t input = 0;      // View: the fusion input viewed
  StridedLayout layout;  // View: the output as an alias of that input
  size_t output = 0;     // Same: the earlier output
};

// Caller device memory for Executable::run_into.
struct RunScratch {
  DevicePtr data = 0;
  size_t bytes = 0;
};

class Executable {
 public:
  static std::unique_ptr<Executable> compile(const Fusion& fusion, const ExecutableOptions& options);
  virtual ~Executable() = default;

  // Runs on host tensors laid out as the fusion's inputs declare (checked before anything runs); returns
  // contiguous outputs. The CUDA backend copies inputs to the device and outputs back.
  // Every run method may be called from several threads at once.
  virtual std::vector<HostTensor> run(const std::vector<HostTensor>& inputs) = 0;

  // Runs on tensors already in device memory (CUDA backend): inputs are checked (dtype, shape, strides,
  // device, alignment) before any launch, the launches are enqueued on `stream` without synchronizing,
  // and outputs come back as device tensors: new buffers for computed values, strided aliases of the
  // input memory for views. A less aligned input address selects kernels lowered for that alignment.
  virtual std::vector<DeviceTensor> run_device(const std::vector<DeviceTensor>& inputs, CUstream stream);

  // Runs on caller memory (host memory on the host backend, device memory of seam's device on the CUDA
  // backend, enqueued on `stream` without synchronizing): reads the inputs and writes every Computed
  // output into the caller's buffer in `outputs` (contiguous, of the output's dtype and shape); entries
  // of View and Same outputs are ignored. Everything is checked before anything runs: inputs as for
  // run_device, output buffers for dtype, shape, contiguity, address, alignment and overlap with an
  // input or another output (a kernel would read what it overwrites).
  // With `scratch` (CUDA backend), the run draws its intermediates, its index error record and its
  // workspaces from that caller memory instead of seam's allocator: a run captured into a CUDA graph must
  // allocate nothing of seam's (the graph keeps the addresses, the caller's allocator knows how long it
  // lives). On a stream being captured, scratch is required and the run does not wait for an indexing
  // op's error record (a synchronization capture forbids): an index out of range reads 0, unreported.
  virtual void run_into(const std::vector<DeviceTensor>& inputs, const std::vector<DeviceTensor>& outputs,
                        CUstream stream, const RunScratch& scratch = {}) = 0;
  // Bytes of scratch run_into needs (at least; 0 on the host backend, which takes none).
  virtual size_t scratch_bytes() { return 0; }
  const std::vector<OutputRoute>& output_routes() const { return output_routes_; }

  // GPU time of one run (all launches, inputs already on the device), rotating over the input sets:
  // median, min and max over `iterations` runs bracketed by events. With `flush_l2`, a write of twice
  // the L2 size precedes every run, outside the events (cold-cache timing, as nvFuser's benchmarks do).
  // CUDA backend only.
  virtual Timing time_gpu(const std::vector<std::vector<HostTensor>>& input_sets, int iterations,
                          bool flush_l2 = false);

  // Milliseconds compile() spent per stage: passes, segment, plan (planning and lowering), backend
  // (code generation and the backend's compiler or its binary cache).
  const std::vector<std::pair<std::string, double>>& compile_times() const { return compile_times_; }
  // Where the generated kernels' module came from (runtime/module_origin.h): Loaded or Cache for a size
  // of a class compiled before.
  ModuleOrigin module_origin() const { return module_origin_; }
  // The stages of compile_times() whose work an earlier fusion of the same structure and size class did
  // ("segment": its groups, re-checked for these sizes); their times are the lookup and the check.
  const std::vector<std::string>& reused_stages() const { return reused_stages_; }

  // The declared-input checks of check_inputs, for frontends that read caller memory before a run
  // (api::Executable::run_host): the input count; input i's dtype, shape and strides (a scalar's strides
  // are not compared).
  void check_input_count(size_t count) const;
  void check_input(size_t i, DType dtype, const Shape& shape, const Shape& strides) const;

  const Fusion& fusion() const { return fusion_; }  // after the passes
  const SegmentedFusion& segmented() const { return segmented_; }
  const std::vector<CompiledStep>& steps() const { return steps_; }
  // The generated source of every kernel, in launch order (CUDA C++ or host C++ by backend).
  const std::vector<std::string>& sources() const { return sources_; }

 protected:
  Executable(Fusion fusion, SegmentedFusion segmented, std::vector<CompiledStep> steps,
             std::vector<std::string> sources, ExecutableOptions options);
  // Checks inputs against the fusion's declarations: count, dtype, shape, strides. The one validator of
  // both backends: caller buffers (run_device, run_into) go through check_input_count and
  // check_input_buffer, which calls check_input too.
  void check_inputs(const std::vector<HostTensor>& inputs) const;
  std::string input_label(size_t i) const;  // "input 2 ('cos')"
  // A fusion output that a no-launch group returns: gathered from the input it views.
  HostTensor materialize_view(Value output, const std::vector<HostTensor>& inputs) const;
  // Checks a caller's buffer for input `i` (device memory, or host memory for the host backend's
  // run_into) against the fusion's declaration: dtype, shape, strides (check_input) and, when it has
  // elements, a non-null address aligned to its element size. The buffer check of both validators of
  // caller memory: run_device's inputs and run_into's (check_caller_buffers).
  void check_input_buffer(size_t i, const DeviceTensor& x) const;
  // Checks for run_into that every backend shares: the inputs' count and buffers (check_input_buffer),
  // the Computed outputs' buffers (see run_into).
  void check_caller_buffers(const std::vector<DeviceTensor>& inputs,
                            const std::vector<DeviceTensor>& outputs) const;
  // The fusion input that is `input` (its position in fusion().inputs()).
  size_t input_index(Value input) const;

  Fusion fusion_;
  SegmentedFusion segmented_;
  std::vector<CompiledStep> steps_;
  std::vector<std::string> sources_;
  ExecutableOptions options_;
  std::vector<OutputRoute> output_routes_;  // per output of segmented_.fusion
  std::vector<std::pair<std::string, double>> compile_times_;
  ModuleOrigin module_origin_ = ModuleOrigin::None;
  std::vector<std::string> reused_stages_;

 private:
  OutputRoute route_of(size_t output) const;
};

}  // namespace seam
