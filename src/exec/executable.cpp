#include "exec/executable.h"

#include <algorithm>
#include <cstring>

#include "exec/cuda_executable.h"
#include "exec/host_executable.h"
#include "exec/lowering_options.h"
#include "exec/matmul_plan.h"
#include "exec/row_steps.h"
#include "interp/interpreter.h"
#include "lower/lower_pointwise.h"
#include "passes/pipeline.h"
#include "schedule/view.h"
#include "support/error.h"

namespace seam {

Backend parse_backend(std::string_view name) {
  if (name == "host") return Backend::Host;
  if (name == "cuda") return Backend::Cuda;
  throw Error(detail::concat("unknown backend '", name, "' (expected interp, host or cuda)"));
}

namespace {

// Whether a kernel's chunks sum several reads: a reduction inside a pointwise kernel is inlined, unrolled
// over its elements (launch parameters follow, choose_launch_params).
bool sums_per_chunk(const Fusion& kernel_fusion) {
  return std::any_of(kernel_fusion.nodes().begin(), kernel_fusion.nodes().end(),
                     [](const Node& node) { return node.category() == OpCategory::Reduction; });
}

// Whether a kernel's chunks compute groups of values (lowering chose ChunkOrder::group > 1 somewhere).
bool grouped(const kir::Kernel& kernel) {
  return std::any_of(kernel.outputs.begin(), kernel.outputs.end(),
                     [](const kir::OutputProgram& o) { return o.order.group > 1; });
}

bool is_row_group(const SegmentGroup& group) {
  return group.kind == SchedulerKind::Reduction || group.kind == SchedulerKind::Normalization;
}

}  // namespace

std::vector<CompiledStep> lower_steps(const SegmentedFusion& segmented, const ExecutableOptions& options) {
  // Chunk groups and the register cap are choices for pointwise kernels: row kernels (and the steps they
  // fall back to) go without them (a row kernel's launch bounds are its block layout's).
  ExecutableOptions row_options = options;
  if (row_options.launch.max_group <= 0) row_options.launch.max_group = 1;
  if (row_options.launch.min_blocks_per_sm < 0) row_options.launch.min_blocks_per_sm = 0;
  std::vector<CompiledStep> steps;
  for (size_t g = 0; g < segmented.groups.size(); ++g) {
    const SegmentGroup& group = segmented.groups[g];
    if (group.kind == SchedulerKind::NoOp) continue;
    if (is_row_group(group)) {
      for (CompiledStep& step :
           lower_row_group(segmented, g, row_options, segmented.fusion.name(), steps.size()))
        steps.push_back(std::move(step));
      continue;
    }
    auto add_pointwise = [&](KernelFusion kernel_fusion) {
      const LaunchParams lowering =
          choose_lowering_params(sums_per_chunk(kernel_fusion.fusion), options.launch);
      kir::Kernel kernel = lower_pointwise(
          kernel_fusion.fusion, pointwise_lowering_options(
                                    lowering, segmented.fusion.name() + "_k" + std::to_string(steps.size())));
      steps.push_back({g, std::move(kernel_fusion), std::move(kernel)});
    };
    if (group.kind == SchedulerKind::Matmul) {
      // Operands the library cannot read in place (a broadcast matrix axis) are written out first.
      KernelFusion product = extract_kernel_fusion(segmented, g);
      std::set<int32_t> copied;
      for (Value view : views_without_gemm_form(product)) {
        add_pointwise(extract_view_copy(segmented, view));
        copied.insert(view.id);
      }
      if (!copied.empty()) product = extract_kernel_fusion(segmented, g, copied);
      CompiledStep step{g, std::move(product), kir::Kernel{}};
      step.library = true;
      steps.push_back(std::move(step));
      continue;
    }
    SEAM_CHECK(group.kind == SchedulerKind::Pointwise, "group ", g, " needs a ", scheduler_name(group.kind),
               " kernel, which this backend cannot generate yet (only pointwise, reduction and normalization "
               "kernels and views)");
    add_pointwise(extract_kernel_fusion(segmented, g));
  }
  for (CompiledStep& step : steps)
    step.params = choose_launch_params(
        {step.kernel.total_chunks(), sums_per_chunk(step.kernel_fusion.fusion),
         kir::loaded_bytes_per_chunk(step.kernel), grouped(step.kernel)},
        is_row_group(segmented.groups[step.group]) ? row_options.launch : options.launch);
  return steps;
}

std::unique_ptr<Executable> Executable::compile(const Fusion& input_fusion,
                                                const ExecutableOptions& options) {
  Fusion fusion = options.run_passes ? run_pipeline(input_fusion, PipelineOptions{}) : input_fusion;
  SegmentedFusion segmented = segment_fusion(fusion, options.segment);
  ExecutableOptions tuned = options;
  if (options.backend == Backend::Cuda) tuned.launch.sm_count = cuda_sm_count();
  std::vector<CompiledStep> steps = lower_steps(segmented, tuned);
  if (options.backend == Backend::Host)
    return compile_host_executable(std::move(fusion), std::move(segmented), std::move(steps), tuned);
  return compile_cuda_executable(std::move(fusion), std::move(segmented), std::move(steps), tuned);
}

Executable::Executable(Fusion fusion, SegmentedFusion segmented, std::vector<CompiledStep> steps,
                       std::vector<std::string> sources, ExecutableOptions options)
    : fusion_(std::move(fusion)),
      segmented_(std::move(segmented)),
      steps_(std::move(steps)),
      sources_(std::move(sources)),
      options_(std::move(options)) {}

std::vector<DeviceTensor> Executable::run_device(const std::vector<DeviceTensor>&, CUstream) {
  throw Error("device tensors need the CUDA backend");
}

Timing Executable::time_gpu(const std::vector<std::vector<HostTensor>>&, int, bool) {
  throw Error("GPU timing needs the CUDA backend");
}

void Executable::check_inputs(const std::vector<HostTensor>& inputs) const {
  const auto& declared = fusion_.inputs();
  SEAM_CHECK(inputs.size() == declared.size(), "fusion ", fusion_.name(), " takes ", declared.size(),
             " inputs, got ", inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Type& t = fusion_.type(declared[i]);
    const HostTensor& x = inputs[i];
    std::string name = "input " + std::to_string(i);
    if (const AttrValue* n = fusion_.node(declared[i]).attrs.find("name"))
      name += " ('" + std::get<std::string>(*n) + "')";
    SEAM_CHECK(x.dtype() == t.dtype && x.shape() == t.shape, name, ": expected ", t.to_string(), ", got ",
               Type::tensor(x.dtype(), x.shape()).to_string());
    if (!t.is_scalar)
      SEAM_CHECK(x.strides() == fusion_.input_strides(declared[i]), name, ": expected strides ",
                 shape_to_string(fusion_.input_strides(declared[i])), ", got ", shape_to_string(x.strides()));
  }
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
