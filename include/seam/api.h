// seam's public API for frontends (the Python extension, tools): build or parse a fusion, compile it for
// a backend, run it on host buffers or on device memory. It names no internal type, so the stages behind
// it can change without breaking its users.
//
//   seam::api::FusionBuilder b("f");
//   auto x = b.input(seam::api::DType::Float32, {2, 3});
//   auto y = b.op("exp", {x});
//   seam::api::Fusion fusion = b.finish({{"y", y}});
//   seam::api::Executable exe = seam::api::Executable::compile(fusion, {.backend =
//   seam::api::Backend::Host}); exe.run_host({{in_ptr, DType::Float32, {2, 3}, {3, 1}}}, {{out_ptr,
//   DType::Float32, {2, 3}, {3, 1}}});
//
// Every failure caused by the caller (a misused op, a wrong input) throws seam::api::Error with seam's
// message; a bug inside seam throws seam::api::InternalError. Objects are safe to share between threads:
// compilations are serialized; runs of one executable may overlap (on the GPU, give each thread its own
// stream: intermediates and scratch memory are per stream, and runs on one stream are ordered by it).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace seam::api {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};
class InternalError : public std::logic_error {
 public:
  explicit InternalError(const std::string& message) : std::logic_error(message) {}
};
// A host-backend run stopped by request_interrupt before its end: its outputs are incomplete.
class Interrupted : public Error {
 public:
  using Error::Error;
};

enum class DType { Bool, Int32, Int64, Float16, BFloat16, Float32, Float64, Float8E4M3FN, Float8E5M2 };
std::string_view dtype_name(
    DType dtype);  // seam's short names: bool i32 i64 f16 bf16 f32 f64 f8e4m3fn f8e5m2
DType parse_dtype(std::string_view name);  // throws Error for an unknown name
int dtype_size(DType dtype);               // bytes per element

// The type of a value: a tensor (rank 0 allowed) or a scalar (a dtype without extents).
struct ValueType {
  DType dtype = DType::Float32;
  bool is_scalar = false;
  std::vector<int64_t> shape;
  std::string to_string() const;  // "bf16[2,3]", "f32"
};

// A literal that remembers its kind: 2 and 2.0 promote differently.
struct Literal {
  enum class Kind { Bool, Int, Float } kind = Kind::Int;
  int64_t integer = 0;
  double real = 0.0;
  static Literal of_bool(bool v) { return {Kind::Bool, v ? 1 : 0, v ? 1.0 : 0.0}; }
  static Literal of_int(int64_t v) { return {Kind::Int, v, static_cast<double>(v)}; }
  static Literal of_float(double v) { return {Kind::Float, 0, v}; }
};

// An attribute value, by the kinds of the op table's schemas (docs/IR.md).
using Attribute = std::variant<int64_t, std::vector<int64_t>, Literal, DType, bool, std::string>;
using Attributes = std::vector<std::pair<std::string, Attribute>>;

struct Value {
  int id = -1;
};

class Fusion;

// Builds a fusion op by op; each op is checked as it is added (shapes, dtypes, attributes), so a finished
// fusion is well-typed. Ops are named by their keyword in the text format (docs/IR.md).
class FusionBuilder {
 public:
  explicit FusionBuilder(std::string name = "fusion");
  ~FusionBuilder();
  FusionBuilder(FusionBuilder&&) noexcept;
  FusionBuilder& operator=(FusionBuilder&&) noexcept;

  // A tensor input; empty strides mean contiguous row-major. Strides are in elements, >= 0.
  Value input(DType dtype, std::vector<int64_t> shape, std::vector<int64_t> strides = {},
              std::string name = "");
  Value scalar_input(DType dtype, std::string name = "");
  Value constant(Literal value, DType dtype);  // a scalar
  // Any op by keyword ("add", "reshape", "sum", ...). Leaves that create tensors (full, iota) need
  // `declared`, their result type.
  Value op(std::string_view keyword, const std::vector<Value>& operands, const Attributes& attributes = {},
           const std::optional<ValueType>& declared = std::nullopt);
  ValueType type(Value value) const;
  // Finishes the fusion with named outputs (an empty name prints unnamed); the builder is spent.
  Fusion finish(const std::vector<std::pair<std::string, Value>>& outputs);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// An immutable, well-typed fusion; cheap to copy.
class Fusion {
 public:
  static Fusion parse(std::string_view text, std::string_view filename = "<input>");
  std::string text() const;  // the text format (docs/FORMAT.md)
  std::string name() const;
  std::vector<ValueType> input_types() const;
  std::vector<ValueType> output_types() const;

  struct Impl;
  explicit Fusion(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  const Impl& impl() const { return *impl_; }

 private:
  std::shared_ptr<const Impl> impl_;
};

enum class Backend { Host, Cuda };

struct CompileOptions {
  Backend backend = Backend::Host;
};

// A tensor in memory the caller owns: the address of element 0, dtype, extents, strides in elements.
struct TensorRef {
  uint64_t data = 0;
  DType dtype = DType::Float32;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
  // The CUDA device the caller vouches `data` is memory of (as DLPack's device id: a framework's tensor
  // knows it), checked against the executable's device without a driver call; -1: seam asks the driver
  // (cuPointerGetAttribute, about a microsecond per buffer on the per-call path).
  int device = -1;
};

// A result of run_device: device memory seam allocated (`owner` keeps it alive), or, when `input` >= 0, a
// view of that input's memory (nothing launched for it).
struct DeviceResult {
  TensorRef tensor;
  int input = -1;
  std::shared_ptr<void> owner;
};

// How Executable::run_into hands back one fusion output.
struct OutputRoute {
  enum class Kind {
    Computed,  // written into the caller's buffer
    View,      // an alias of an input's memory (an input returned unchanged too): nothing is written
    Same,      // the same value as an earlier output
  } kind = Kind::Computed;
  // Computed: the buffer to pass (dtype, shape, contiguous strides; data 0). View: dtype, shape and
  // strides (in elements) of the alias, and in `data` its offset in elements from the input's element 0.
  TensorRef layout;
  int input = -1;   // View: the input viewed
  int output = -1;  // Same: the earlier output
};

// The bytes of a one-element buffer of `dtype` holding `value`, converted as a cast would (a scalar
// input's buffer); writes dtype_size(dtype) bytes.
void encode_scalar(const Literal& value, DType dtype, void* destination);

// One step of a profiled run: a generated kernel, or a library call (cuBLASLt on the GPU, seam's reference
// on the host; nvFuser calls these non-codegen kernels).
struct StepProfile {
  std::string name;  // the generated kernel's name; a library step: "<op> by cuBLASLt" or "<op> on the host"
  std::string scheduler;  // what planned it: "pointwise", "rows" (reductions, normalizations) or "library"
  int segment = 0;       // the segmentation group the step computes (a library step's copies share its group)
  bool launched = true;  // false: the step had no work (an empty tensor) and launched nothing
  // By the run's timing (RunProfile::timing): the step's kernels' summed GPU durations (cupti), the time
  // between events around the step (events), or the host's wall time of the step (host).
  double time_ms = 0.0;
  double event_time_ms = -1.0;  // CUDA events around the step; -1 on the host backend
  int gpu_kernels =
      -1;              // kernels CUPTI recorded for the step (a library call may launch several); -1: unknown
  int64_t blocks = 0;  // the launch of a generated kernel: blocks of `block` threads; 0 for library steps
  int block = 0;
  int registers = -1;  // per thread, as compiled for the GPU; -1 unknown (the host backend, library steps)
  int64_t input_bytes = 0;   // bytes the step reads (its inputs' sizes)
  int64_t output_bytes = 0;  // bytes it writes
};

// What Executable::run_profiled measured of one run.
struct RunProfile {
  // Where the step times come from: "cupti" (the GPU's own kernel records, as torch.profiler reads them),
  // "events" (CUDA events around each step: CUPTI not loadable, see timing_note) or "host" (the host
  // backend's wall-clock time per step: no GPU involved).
  std::string timing;
  std::string timing_note;         // why not cupti on the CUDA backend; empty otherwise
  int segments = 0;                // launching groups of the segmentation
  std::vector<StepProfile> steps;  // in launch order
  // Wall time of the call on the host, less the time the profiler itself spent waiting for the GPU.
  double host_time_ms = 0.0;
  double kernel_time_ms = 0.0;  // the steps' time_ms summed
  double event_time_ms = -1.0;  // CUDA events around the whole run; -1 on the host backend
  int64_t input_bytes = 0;      // bytes of the fusion's inputs and outputs
  int64_t output_bytes = 0;
  double peak_bandwidth_gbs = 0.0;  // the GPU's theoretical DRAM bandwidth (GB/s); 0 on the host or unknown
};

// Caller device memory for Executable::run_into: an address aligned to 256 bytes and its size.
struct Scratch {
  uint64_t address = 0;
  uint64_t bytes = 0;
};

// A fusion compiled for a backend: passes, segmentation, generated kernels. Inputs must match the
// fusion's input types and strides exactly; a scalar input is a one-element buffer of its dtype.
class Executable {
 public:
  static Executable compile(const Fusion& fusion, const CompileOptions& options);

  std::vector<ValueType> input_types() const;
  std::vector<ValueType> output_types() const;
  Backend backend() const;

  // Runs on host memory: inputs are read, every output is written into the caller's contiguous buffer.
  // On the CUDA backend the data is copied to the device and back.
  void run_host(const std::vector<TensorRef>& inputs, const std::vector<TensorRef>& outputs) const;
  // Like run_host, but evaluated by seam's reference interpreter on the fusion as built (before seam's
  // passes, no generated code): the independent result that validating a backend's outputs compares against.
  void run_reference(const std::vector<TensorRef>& inputs, const std::vector<TensorRef>& outputs) const;
  // Runs on device memory (CUDA backend): checks every input, then enqueues the launches on `stream`
  // (a CUstream; 0 is the legacy default stream) without synchronizing.
  std::vector<DeviceResult> run_device(const std::vector<TensorRef>& inputs, void* stream) const;
  // Runs on the caller's memory and writes into the caller's output buffers: host memory on the host
  // backend, device memory on the CUDA backend (enqueued on `stream`, a CUstream, without
  // synchronizing). `outputs` has an entry per fusion output; those output_routes() marks Computed are
  // written (each a contiguous buffer of the output's dtype and shape, overlapping no input and no other
  // output), the others are ignored and the caller makes them from the routes. Everything is checked
  // before anything runs: inputs as for run_device, output buffers (dtype, shape, strides, address,
  // element alignment, device, overlap). The kernels for the alignment class of all the addresses run.
  //
  // `scratch` (CUDA backend): device memory of the caller's, at least scratch_bytes(), that the run takes
  // its intermediates and workspaces from instead of seam's allocator. A run on a stream being captured
  // into a CUDA graph requires it (seam then allocates nothing and does not synchronize: a fusion with
  // indexing ops reads 0 for an index out of range instead of raising).
  void run_into(const std::vector<TensorRef>& inputs, const std::vector<TensorRef>& outputs,
                void* stream = nullptr, Scratch scratch = {}) const;
  // The bytes of scratch run_into takes (0 on the host backend).
  uint64_t scratch_bytes() const;
  // run_into, timing every step (RunProfile says how); it returns when the run has finished (on the GPU it
  // synchronizes `stream`). With CUPTI each step is waited for before the next launches, so that its
  // kernels are told apart; their durations are the GPU's own. Profiled runs of the process are serialized.
  RunProfile run_profiled(const std::vector<TensorRef>& inputs, const std::vector<TensorRef>& outputs,
                          void* stream = nullptr) const;
  // Per fusion output, how run_into returns it (fixed per executable).
  const std::vector<OutputRoute>& output_routes() const;
  // Per input, the layout run_into and run_device expect (dtype, shape, strides; data 0).
  const std::vector<TensorRef>& input_layouts() const;

  // Milliseconds compile spent per stage ("passes", "segment", "plan", "backend": code generation and the
  // backend's compiler or binary cache).
  std::vector<std::pair<std::string, double>> compile_times() const;
  // Where the generated kernels came from: "compiled" (NVRTC or the host compiler ran), "cache" (the
  // kernel cache's binary), "loaded" (a module this process loaded for another size of the same size
  // class: nothing compiled), "none" (no generated kernel).
  std::string module_origin() const;
  // The compile_times() stages an earlier fusion of the same structure and size class did the work of
  // ("segment": its segmentation, re-checked for these sizes).
  std::vector<std::string> reused_stages() const;
  std::string optimized_fusion() const;      // the fusion after seam's passes (text format)
  std::string segmentation() const;          // kernels, their values, boundary bytes, proven optimal?
  int num_kernels() const;                   // kernels launched per run (library calls included)
  std::string cuda_source() const;           // the CUDA C++ of every kernel, also for a host executable
  std::vector<std::string> sources() const;  // the generated code the backend runs, per kernel

  struct Impl;

 private:
  explicit Executable(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<Impl> impl_;
};

// Stopping long host-backend runs: request_interrupt asks the runs in progress (and the next one to
// start) to stop; each stops within a fraction of a second and throws Interrupted. Async-signal-safe,
// for a SIGINT handler. clear_interrupt withdraws a request no run has seen. GPU launches are not
// stopped.
void request_interrupt() noexcept;
void clear_interrupt() noexcept;
bool interrupt_requested() noexcept;

// Whether the CUDA backend can run here; otherwise the reason.
bool cuda_available();
std::string cuda_unavailable_reason();
int cuda_device_ordinal();  // the device seam's CUDA backend uses (SEAM_DEVICE, default 0)

}  // namespace seam::api
