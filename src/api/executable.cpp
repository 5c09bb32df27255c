// Executable of the public API: compiles through seam's exec layer (Executable::compile, run, run_device)
// and moves data between the caller's buffers and seam's tensors.
#include "exec/executable.h"

#include <cstring>
#include <mutex>

#include "api/api_internal.h"
#include "api/executable_impl.h"
#include "api/step_profiler.h"
#include "exec/cuda_executable.h"
#include "plan/plan.h"
#include "runtime/cuda_driver.h"
#include "runtime/device.h"
#include "segment/dump.h"
#include "text/printer.h"

namespace seam::api {

namespace {

std::string input_label(const seam::Fusion& fusion, size_t i) {
  std::string label = "input " + std::to_string(i);
  if (const seam::AttrValue* n = fusion.node(fusion.inputs()[i]).attrs.find("name"))
    label += " ('" + std::get<std::string>(*n) + "')";
  return label;
}

}  // namespace

void Executable::Impl::describe() {
  const seam::Fusion& f = fusion();
  for (seam::Value v : f.inputs()) {
    const seam::Type& t = f.type(v);
    input_layouts.push_back(
        {0, from_seam(t.dtype), t.shape, t.is_scalar ? seam::Shape{} : f.input_strides(v)});
  }
  const auto& exec_routes = exe->output_routes();
  for (size_t o = 0; o < exec_routes.size(); ++o) {
    const seam::OutputRoute& r = exec_routes[o];
    const seam::Type& t = f.type(f.outputs()[o].value);
    OutputRoute route;
    switch (r.kind) {
      case seam::OutputRoute::Kind::Computed:
        route.layout = {0, from_seam(t.dtype), t.shape, seam::contiguous_strides(t.shape)};
        break;
      case seam::OutputRoute::Kind::View:
        route.kind = OutputRoute::Kind::View;
        route.layout = {static_cast<uint64_t>(r.layout.offset), from_seam(t.dtype), r.layout.shape,
                        r.layout.strides};
        route.input = static_cast<int>(r.input);
        break;
      case seam::OutputRoute::Kind::Same:
        route.kind = OutputRoute::Kind::Same;
        route.layout = {0, from_seam(t.dtype), t.shape, seam::contiguous_strides(t.shape)};
        route.output = static_cast<int>(r.output);
        break;
    }
    routes.push_back(std::move(route));
  }
}

void Executable::Impl::check_input(size_t i, const TensorRef& ref) const {
  const seam::Fusion& f = fusion();
  const seam::Type& t = f.type(f.inputs()[i]);
  exe->check_input(i, to_seam(ref.dtype), ref.shape, ref.strides);
  SEAM_CHECK(!t.is_scalar || ref.strides.empty(), input_label(f, i), ": expected strides [], got ",
             seam::shape_to_string(ref.strides));  // a scalar has none (the executable's check skips them)
  SEAM_CHECK(ref.data != 0 || t.numel() == 0, input_label(f, i), ": null address");
}

void Executable::Impl::check_inputs(const std::vector<TensorRef>& inputs) const {
  exe->check_input_count(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) check_input(i, inputs[i]);
}

void run_on_host_copies(const seam::Fusion& f, const std::vector<TensorRef>& inputs,
                        const std::vector<TensorRef>& outputs, const HostEvaluation& evaluate) {
  SEAM_CHECK(outputs.size() == f.outputs().size(), "fusion ", f.name(), " has ", f.outputs().size(),
             " outputs, got ", outputs.size(), " buffers");
  for (size_t o = 0; o < outputs.size(); ++o) {
    const seam::Type& t = f.type(f.outputs()[o].value);
    const TensorRef& ref = outputs[o];
    const seam::Type got = seam::Type::tensor(to_seam(ref.dtype), ref.shape);
    SEAM_CHECK(got.dtype == t.dtype && got.shape == t.shape, "output ", o, ": expected a buffer of ",
               t.to_string(), ", got ", got.to_string());
    SEAM_CHECK(ref.strides == seam::contiguous_strides(t.shape), "output ", o,
               ": the buffer must be contiguous, got strides ", seam::shape_to_string(ref.strides));
    SEAM_CHECK(ref.data != 0 || t.numel() == 0, "output ", o, ": null address");
  }
  std::vector<seam::HostTensor> host;
  host.reserve(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const seam::Type& t = f.type(f.inputs()[i]);
    seam::HostTensor x = t.is_scalar ? seam::HostTensor::zeros(t.dtype, {})
                                     : seam::HostTensor::zeros_strided(t.dtype, t.shape, inputs[i].strides);
    if (!x.storage().empty())
      std::memcpy(x.storage().data(), reinterpret_cast<const void*>(inputs[i].data), x.storage().size());
    host.push_back(std::move(x));
  }
  std::vector<seam::HostTensor> results = evaluate(host);
  for (size_t o = 0; o < outputs.size(); ++o) {
    const seam::HostTensor result =
        results[o].is_contiguous() ? std::move(results[o]) : results[o].contiguous();
    SEAM_ASSERT(result.shape() == outputs[o].shape, "output ", o, " came back as ", result.type_string());
    const size_t bytes =
        static_cast<size_t>(result.numel()) * static_cast<size_t>(dtype_size(outputs[o].dtype));
    if (bytes != 0) std::memcpy(reinterpret_cast<void*>(outputs[o].data), result.storage().data(), bytes);
  }
}

Executable Executable::compile(const Fusion& fusion, const CompileOptions& options) {
  return guarded([&] {
    seam::ExecutableOptions exec_options;
    exec_options.backend = options.backend == Backend::Cuda ? seam::Backend::Cuda : seam::Backend::Host;
    auto impl = std::make_shared<Impl>();
    impl->backend = options.backend;
    impl->exe = seam::Executable::compile(fusion.impl().fusion, exec_options);
    impl->built = std::make_shared<const seam::Fusion>(fusion.impl().fusion);
    impl->describe();
    return Executable(std::move(impl));
  });
}

std::vector<ValueType> Executable::input_types() const {
  std::vector<ValueType> types;
  for (seam::Value v : impl_->fusion().inputs()) types.push_back(from_seam(impl_->fusion().type(v)));
  return types;
}

std::vector<ValueType> Executable::output_types() const {
  std::vector<ValueType> types;
  for (const seam::FusionOutput& out : impl_->fusion().outputs())
    types.push_back(from_seam(impl_->fusion().type(out.value)));
  return types;
}

Backend Executable::backend() const { return impl_->backend; }

void Executable::run_host(const std::vector<TensorRef>& inputs, const std::vector<TensorRef>& outputs) const {
  guarded([&] {
    impl_->check_inputs(inputs);
    run_on_host_copies(impl_->fusion(), inputs, outputs,
                       [&](const std::vector<seam::HostTensor>& host) { return impl_->exe->run(host); });
  });
}

std::vector<DeviceResult> Executable::run_device(const std::vector<TensorRef>& inputs, void* stream) const {
  return guarded([&] {
    SEAM_CHECK(impl_->backend == Backend::Cuda,
               "run_device needs an executable compiled for the CUDA backend");
    impl_->check_inputs(inputs);
    std::vector<seam::DeviceTensor> device;
    device.reserve(inputs.size());
    for (const TensorRef& ref : inputs)
      device.push_back(
          {static_cast<seam::DevicePtr>(ref.data), to_seam(ref.dtype), ref.shape, ref.strides, nullptr});
    std::vector<seam::DeviceTensor> outs = impl_->exe->run_device(device, static_cast<CUstream>(stream));
    std::vector<DeviceResult> results;
    results.reserve(outs.size());
    for (seam::DeviceTensor& out : outs) {
      DeviceResult r;
      r.tensor = {static_cast<uint64_t>(out.data), from_seam(out.dtype), out.shape, out.strides};
      if (out.owner) {
        r.owner = std::move(out.owner);
      } else {  // caller memory: the input whose elements it views
        for (size_t i = 0; i < inputs.size() && r.input < 0; ++i) {
          const TensorRef& in = inputs[i];
          int64_t span = 1;
          for (size_t d = 0; d < in.shape.size(); ++d) span += (in.shape[d] - 1) * in.strides[d];
          const uint64_t end = in.data + static_cast<uint64_t>(span * dtype_size(in.dtype));
          if (out.data >= in.data && out.data < std::max(end, in.data + 1)) r.input = static_cast<int>(i);
        }
        SEAM_ASSERT(r.input >= 0, "an output without its own memory views no input");
      }
      results.push_back(std::move(r));
    }
    return results;
  });
}

namespace {

seam::DeviceTensor to_exec(const TensorRef& ref) {
  return {static_cast<seam::DevicePtr>(ref.data),
          to_seam(ref.dtype),
          ref.shape,
          ref.strides,
          nullptr,
          ref.device};
}

}  // namespace

void Executable::run_into(const std::vector<TensorRef>& inputs, const std::vector<TensorRef>& outputs,
                          void* stream, Scratch scratch) const {
  guarded([&] {
    std::vector<seam::DeviceTensor> in, out;
    in.reserve(inputs.size());
    out.reserve(outputs.size());
    for (const TensorRef& ref : inputs) in.push_back(to_exec(ref));
    for (const TensorRef& ref : outputs) out.push_back(to_exec(ref));
    impl_->exe->run_into(in, out, static_cast<CUstream>(stream),
                         seam::RunScratch{scratch.address, static_cast<size_t>(scratch.bytes)});
  });
}

uint64_t Executable::scratch_bytes() const {
  return guarded([&] { return static_cast<uint64_t>(impl_->exe->scratch_bytes()); });
}

RunProfile Executable::run_profiled(const std::vector<TensorRef>& inputs,
                                    const std::vector<TensorRef>& outputs, void* stream) const {
  return guarded([&] {
    // CUPTI records every kernel of the process: one profiled run at a time.
    static std::mutex profiling;
    std::lock_guard<std::mutex> lock(profiling);
    const bool cuda = impl_->backend == Backend::Cuda;
    if (cuda) seam::Device::shared().make_current();
    const auto cu_stream = static_cast<CUstream>(stream);
    std::unique_ptr<StepProfiler> profiler = StepProfiler::make(cuda);
    profiler->start(cu_stream);
    {
      seam::ObserveSteps observing(profiler.get());
      run_into(inputs, outputs, stream);
    }
    return profiler->finish(impl_->exe->segmented(), cu_stream);
  });
}

const std::vector<OutputRoute>& Executable::output_routes() const { return impl_->routes; }

const std::vector<TensorRef>& Executable::input_layouts() const { return impl_->input_layouts; }

void encode_scalar(const Literal& value, DType dtype, void* destination) {
  guarded([&] {
    seam::HostTensor x = seam::HostTensor::zeros(to_seam(dtype), {});
    x.set(0, value.kind == Literal::Kind::Float ? seam::Scalar::of_real(value.real)
                                                : seam::Scalar::of_int(value.integer));
    std::memcpy(destination, x.storage().data(), x.storage().size());
  });
}

std::vector<std::pair<std::string, double>> Executable::compile_times() const {
  return impl_->exe->compile_times();
}

std::vector<std::string> Executable::reused_stages() const { return impl_->exe->reused_stages(); }

std::string Executable::module_origin() const {
  return std::string(seam::module_origin_name(impl_->exe->module_origin()));
}

std::string Executable::optimized_fusion() const {
  return guarded([&] { return seam::print_fusion(impl_->fusion()); });
}

std::string Executable::segmentation() const {
  return guarded([&] { return seam::dump_segments(impl_->exe->segmented(), {.show_time = false}); });
}

int Executable::num_kernels() const { return impl_->exe->segmented().num_kernels(); }

std::string Executable::cuda_source() const {
  return guarded([&] {
    if (impl_->backend == Backend::Cuda) return seam::print_cuda_program(impl_->exe->steps());
    return seam::print_cuda_program(seam::plan_fusion(impl_->exe->segmented(), seam::PlanOptions{}).steps);
  });
}

std::vector<std::string> Executable::sources() const { return impl_->exe->sources(); }

void request_interrupt() noexcept { seam::request_host_interrupt(); }
void clear_interrupt() noexcept { seam::clear_host_interrupt(); }
bool interrupt_requested() noexcept { return seam::host_interrupt_requested(); }

bool cuda_available() {
  return guarded([] { return seam::driver_status().available && seam::driver_status().device_count > 0; });
}

std::string cuda_unavailable_reason() {
  return guarded([]() -> std::string {
    const seam::DriverStatus& s = seam::driver_status();
    if (!s.available) return s.reason;
    if (s.device_count == 0) return "the CUDA driver sees no device";
    return "";
  });
}

int cuda_device_ordinal() {
  return guarded([] { return seam::Device::default_ordinal(); });
}

}  // namespace seam::api
