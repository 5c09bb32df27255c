#include "exec/executable.h"

#include <algorithm>
#include <chrono>
#include <cstring>

#include "exec/cuda_executable.h"
#include "exec/host_executable.h"
#include "exec/segmentation_cache.h"
#include "passes/pipeline.h"
#include "schedule/view.h"
#include "support/error.h"

namespace seam {

Backend parse_backend(std::string_view name) {
  if (name == "host") return Backend::Host;
  if (name == "cuda") return Backend::Cuda;
  throw Error(detail::concat("unknown backend '", name, "' (expected interp, host or cuda)"));
}

std::unique_ptr<Executable> Executable::compile(const Fusion& input_fusion,
                                                const ExecutableOptions& options) {
  std::vector<std::pair<std::string, double>> times;
  auto start = std::chrono::steady_clock::now();
  auto lap = [&](const char* stage) {
    const auto now = std::chrono::steady_clock::now();
    times.emplace_back(stage, std::chrono::duration<double, std::milli>(now - start).count());
    start = now;
  };
  Fusion fusion = options.run_passes ? run_pipeline(input_fusion, PipelineOptions{}) : input_fusion;
  lap("passes");
  bool segmentation_reused = false;
  SegmentedFusion segmented = options.reuse_segmentation ? SegmentationCache::shared().segment(
                                                               fusion, options.segment, &segmentation_reused)
                                                         : segment_fusion(fusion, options.segment);
  lap("segment");
  ExecutableOptions tuned = options;
  if (options.backend == Backend::Cuda) {
    fit_launch_to_device(tuned.launch);
  }
  std::vector<CompiledStep> steps = plan_fusion(segmented, PlanOptions{tuned.launch, {}}).steps;
  lap("plan");
  std::unique_ptr<Executable> exe =
      options.backend == Backend::Host
          ? compile_host_executable(std::move(fusion), std::move(segmented), std::move(steps), tuned)
          : compile_cuda_executable(std::move(fusion), std::move(segmented), std::move(steps), tuned);
  lap("backend");
  exe->compile_times_ = std::move(times);
  if (segmentation_reused) exe->reused_stages_.push_back("segment");
  return exe;
}

Executable::Executable(Fusion fusion, SegmentedFusion segmented, std::vector<CompiledStep> steps,
                       std::vector<std::string> sources, ExecutableOptions options)
    : fusion_(std::move(fusion)),
      segmented_(std::move(segmented)),
      steps_(std::move(steps)),
      sources_(std::move(sources)),
      options_(std::move(options)) {
  for (size_t o = 0; o < segmented_.fusion.outputs().size(); ++o) output_routes_.push_back(route_of(o));
}

OutputRoute Executable::route_of(size_t output) const {
  const Fusion& f = segmented_.fusion;
  const Value value = f.outputs()[output].value;
  OutputRoute route;
  for (size_t earlier = 0; earlier < output; ++earlier)
    if (f.outputs()[earlier].value == value) {
      route.kind = OutputRoute::Kind::Same;
      route.output = earlier;
      return route;
    }
  if (f.node(value).op == OpKind::Input) {  // returned unchanged (a scalar input too): itself, viewed
    const Type& t = f.type(value);
    route.kind = OutputRoute::Kind::View;
    route.input = input_index(value);
    route.layout = {t.shape, t.is_scalar ? Shape{} : f.input_strides(value), 0};
    return route;
  }
  for (const CompiledStep& step : steps_)
    for (Value written : step.kernel_fusion.outputs)
      if (written == value) return route;  // Computed
  std::optional<StridedLayout> layout = view_of_input(f, value);
  SEAM_ASSERT(layout.has_value(), "output %", value.id, " is neither computed nor a view of an input");
  route.kind = OutputRoute::Kind::View;
  route.input = input_index(viewed_input(f, value));
  route.layout = std::move(*layout);
  return route;
}

size_t Executable::input_index(Value input) const {
  const auto& ins = segmented_.fusion.inputs();
  const size_t index = static_cast<size_t>(std::find(ins.begin(), ins.end(), input) - ins.begin());
  SEAM_ASSERT(index < ins.size(), "%", input.id, " is not a fusion input");
  return index;
}

namespace {

// The bytes [first, last) a tensor's elements occupy; empty for a tensor without elements.
std::pair<uint64_t, uint64_t> byte_span(const DeviceTensor& t) {
  if (t.numel() == 0) return {t.data, t.data};
  uint64_t last = 0;
  for (size_t d = 0; d < t.shape.size(); ++d)
    last +=
        static_cast<uint64_t>(t.shape[d] - 1) * static_cast<uint64_t>(t.strides.empty() ? 0 : t.strides[d]);
  return {t.data, t.data + (last + 1) * static_cast<uint64_t>(dtype_size(t.dtype))};
}

bool overlap(std::pair<uint64_t, uint64_t> a, std::pair<uint64_t, uint64_t> b) {
  return a.first < a.second && b.first < b.second && a.first < b.second && b.first < a.second;
}

// A caller's buffer with elements: a non-null address aligned to its element size. `label()` names it,
// built only for an error.
template <class Label>
void check_buffer_address(uint64_t data, DType dtype, const Label& label) {
  SEAM_CHECK(data != 0, label(), ": null address");
  const int element = dtype_size(dtype);
  SEAM_CHECK(data % static_cast<uint64_t>(element) == 0, label(), ": address 0x", std::hex, data, std::dec,
             " is not aligned to its element size (", element, " bytes)");
}

}  // namespace

void Executable::check_input_buffer(size_t i, const DeviceTensor& x) const {
  const Type& t = segmented_.fusion.type(segmented_.fusion.inputs()[i]);
  check_input(i, x.dtype, x.shape, t.is_scalar ? Shape{} : x.strides);
  if (t.numel() == 0) return;
  check_buffer_address(x.data, t.dtype, [&] { return input_label(i); });
}

void Executable::check_caller_buffers(const std::vector<DeviceTensor>& inputs,
                                      const std::vector<DeviceTensor>& outputs) const {
  const Fusion& f = segmented_.fusion;
  check_input_count(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) check_input_buffer(i, inputs[i]);
  SEAM_CHECK(outputs.size() == f.outputs().size(), "fusion ", f.name(), " has ", f.outputs().size(),
             " outputs, got ", outputs.size(), " output buffers");
  for (size_t o = 0; o < outputs.size(); ++o) {
    if (output_routes_[o].kind != OutputRoute::Kind::Computed) continue;
    const Type& t = f.type(f.outputs()[o].value);
    const DeviceTensor& out = outputs[o];
    SEAM_CHECK(out.dtype == t.dtype && out.shape == t.shape, "output ", o, ": expected a buffer of ",
               t.to_string(), ", got ", Type::tensor(out.dtype, out.shape).to_string());
    SEAM_CHECK(out.strides == contiguous_strides(t.shape), "output ", o,
               ": the buffer must be contiguous, got strides ", shape_to_string(out.strides));
    if (t.numel() == 0) continue;
    check_buffer_address(out.data, t.dtype, [&] { return "output " + std::to_string(o); });
    for (size_t i = 0; i < inputs.size(); ++i)
      SEAM_CHECK(!overlap(byte_span(out), byte_span(inputs[i])), "output ", o, ": the buffer overlaps ",
                 input_label(i), " (a kernel would overwrite what it reads)");
    for (size_t p = 0; p < o; ++p)
      if (output_routes_[p].kind == OutputRoute::Kind::Computed)
        SEAM_CHECK(!overlap(byte_span(out), byte_span(outputs[p])), "output ", o,
                   ": the buffer overlaps output ", p);
  }
}

std::vector<DeviceTensor> Executable::run_device(const std::vector<DeviceTensor>&, CUstream) {
  throw Error("device tensors need the CUDA backend");
}

Timing Executable::time_gpu(const std::vector<std::vector<HostTensor>>&, int, bool) {
  throw Error("GPU timing needs the CUDA backend");
}

std::string Executable::input_label(size_t i) const {
  std::string label = "input " + std::to_string(i);
  if (const AttrValue* n = fusion_.node(fusion_.inputs()[i]).attrs.find("name"))
    label += " ('" + std::get<std::string>(*n) + "')";
  return label;
}

void Executable::check_input_count(size_t count) const {
  SEAM_CHECK(count == fusion_.inputs().size(), "fusion ", fusion_.name(), " takes ", fusion_.inputs().size(),
             " inputs, got ", count);
}

void Executable::check_input(size_t i, DType dtype, const Shape& shape, const Shape& strides) const {
  const Value declared = fusion_.inputs()[i];
  const Type& t = fusion_.type(declared);
  SEAM_CHECK(dtype == t.dtype && shape == t.shape, input_label(i), ": expected ", t.to_string(), ", got ",
             Type::tensor(dtype, shape).to_string());
  if (t.is_scalar) return;
  const Shape expected = fusion_.input_strides(declared);
  SEAM_CHECK(strides == expected, input_label(i), ": expected strides ", shape_to_string(expected), ", got ",
             shape_to_string(strides));
}

void Executable::check_inputs(const std::vector<HostTensor>& inputs) const {
  check_input_count(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i)
    check_input(i, inputs[i].dtype(), inputs[i].shape(), inputs[i].strides());
}

HostTensor Executable::materialize_view(Value output, const std::vector<HostTensor>& inputs) const {
  std::optional<StridedLayout> layout = view_of_input(segmented_.fusion, output);
  SEAM_ASSERT(layout.has_value(), "output %", output.id, " is not a view of an input");
  Value base = viewed_input(segmented_.fusion, output);
  const auto& declared = segmented_.fusion.inputs();
  size_t index = static_cast<size_t>(std::find(declared.begin(), declared.end(), base) - declared.begin());
  SEAM_ASSERT(index < inputs.size());
  const HostTensor& source = inputs[index];
  const int size = dtype_size(source.dtype());
  HostTensor out = HostTensor::zeros(source.dtype(), layout->shape);
  const int64_t n = out.numel();
  Shape idx(layout->shape.size(), 0);
  for (int64_t e = 0; e < n; ++e) {
    int64_t offset = layout->offset;
    for (size_t d = 0; d < idx.size(); ++d) offset += idx[d] * layout->strides[d];
    std::memcpy(out.storage().data() + e * size, source.storage().data() + offset * size,
                static_cast<size_t>(size));
    for (size_t d = idx.size(); d-- > 0;) {
      if (++idx[d] < layout->shape[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

}  // namespace seam
