#include "exec/row_steps.h"

#include <algorithm>
#include <map>

#include "exec/lowering_options.h"
#include "ir/builder.h"
#include "support/error.h"

namespace seam {

KernelFusion sub_kernel_fusion(const KernelFusion& whole, const std::vector<Value>& outputs,
                               const std::vector<bool>& cut, const std::string& name) {
  const Fusion& f = whole.fusion;
  const size_t n = static_cast<size_t>(f.num_nodes());
  SEAM_ASSERT(whole.sources.size() == n && cut.size() == n);
  auto read_from_memory = [&](int32_t id) {
    return f.node(Value{id}).op == OpKind::Input || cut[static_cast<size_t>(id)];
  };
  std::vector<bool> needed(n, false);
  std::vector<int32_t> work;
  for (Value v : outputs) work.push_back(v.id);
  while (!work.empty()) {
    const int32_t id = work.back();
    work.pop_back();
    if (needed[static_cast<size_t>(id)]) continue;
    needed[static_cast<size_t>(id)] = true;
    if (read_from_memory(id)) continue;
    for (Value operand : f.node(Value{id}).operands) work.push_back(operand.id);
  }

  KernelFusion result{Fusion("unused", {}, {}), {}, {}, {}};
  Builder b(name);
  std::map<int32_t, Value> mapped;
  for (int32_t id = 0; id < f.num_nodes(); ++id) {  // inputs first, in node order
    if (!needed[static_cast<size_t>(id)] || !read_from_memory(id)) continue;
    const Node& node = f.node(Value{id});
    // A cut value is written contiguously by an earlier kernel.
    mapped[id] = b.input(node.type, "", node.op == OpKind::Input ? f.input_strides(Value{id}) : Shape{});
    result.inputs.push_back(whole.sources[static_cast<size_t>(id)]);
  }
  for (int32_t id = 0; id < f.num_nodes(); ++id) {
    if (!needed[static_cast<size_t>(id)] || read_from_memory(id)) continue;
    const Node& node = f.node(Value{id});
    std::vector<Value> operands;
    for (Value operand : node.operands) operands.push_back(mapped.at(operand.id));
    mapped[id] = b.copy(node, std::move(operands));
  }
  std::vector<Value> kernel_outputs;
  for (Value v : outputs) {
    kernel_outputs.push_back(mapped.at(v.id));
    result.outputs.push_back(whole.sources[static_cast<size_t>(v.id)]);
  }
  result.fusion = b.finish(kernel_outputs);
  result.sources.resize(static_cast<size_t>(result.fusion.num_nodes()));
  for (const auto& [id, value] : mapped)
    result.sources[static_cast<size_t>(value.id)] = whole.sources[static_cast<size_t>(id)];
  return result;
}

namespace {

class GroupLowering {
 public:
  GroupLowering(size_t group, const ExecutableOptions& options, std::string prefix, size_t first_index)
      : group_(group), options_(options), prefix_(std::move(prefix)), first_index_(first_index) {}

  std::string next_name() const { return prefix_ + "_k" + std::to_string(first_index_ + steps_.size()); }

  // A row kernel for all of `part`'s outputs.
  void add_row_step(KernelFusion part) {
    RowLoweringOptions lowering = row_lowering_options(options_.launch, next_name());
    RowLowering row = lower_rows(part.fusion, lowering);
    SEAM_ASSERT(!row.misaligned_reduction && row.deferred.empty(), "row kernel ", lowering.kernel_name,
                " cannot write all its outputs");
    steps_.push_back({group_, std::move(part), std::move(row.kernel)});
  }

  void add_pointwise_step(KernelFusion part) {
    kir::Kernel kernel =
        lower_pointwise(part.fusion, pointwise_lowering_options(options_.launch, next_name()));
    steps_.push_back({group_, std::move(part), std::move(kernel)});
  }

  std::vector<CompiledStep> take() { return std::move(steps_); }

 private:
  size_t group_;
  const ExecutableOptions& options_;
  std::string prefix_;
  size_t first_index_;
  std::vector<CompiledStep> steps_;
};

bool is_reduction(const Fusion& f, Value v) { return f.node(v).category() == OpCategory::Reduction; }

// The reductions `values` read through non-reductions (a reduction in `values` reads itself).
std::vector<Value> reductions_read(const Fusion& f, const std::vector<Value>& values) {
  std::vector<bool> seen(static_cast<size_t>(f.num_nodes()), false);
  std::vector<Value> found, work = values;
  while (!work.empty()) {
    Value v = work.back();
    work.pop_back();
    if (seen[static_cast<size_t>(v.id)]) continue;
    seen[static_cast<size_t>(v.id)] = true;
    if (is_reduction(f, v)) {
      found.push_back(v);
      continue;
    }
    for (Value operand : f.node(v).operands) work.push_back(operand);
  }
  std::sort(found.begin(), found.end());
  return found;
}

}  // namespace

std::vector<CompiledStep> lower_row_group(const SegmentedFusion& segmented, size_t group,
                                          const ExecutableOptions& options, const std::string& name_prefix,
                                          size_t first_index) {
  KernelFusion whole = extract_kernel_fusion(segmented, group);
  const Fusion& f = whole.fusion;
  GroupLowering steps(group, options, name_prefix, first_index);
  RowLowering row = lower_rows(f, row_lowering_options(options.launch, steps.next_name()));
  if (!row.misaligned_reduction && row.deferred.empty()) {
    std::vector<CompiledStep> one;
    one.push_back({group, std::move(whole), std::move(row.kernel)});
    return one;
  }

  std::vector<bool> reductions(static_cast<size_t>(f.num_nodes()), false);
  for (int32_t id = 0; id < f.num_nodes(); ++id)
    reductions[static_cast<size_t>(id)] = is_reduction(f, Value{id});
  std::vector<Value> outputs;  // of the pointwise kernel at the end
  if (!row.misaligned_reduction) {
    // One row kernel for what it can write and the reductions the deferred outputs read.
    std::vector<Value> row_outputs;
    for (size_t o = 0; o < f.outputs().size(); ++o) {
      const Value v = f.outputs()[o].value;
      if (std::binary_search(row.deferred.begin(), row.deferred.end(), static_cast<int>(o)))
        outputs.push_back(v);
      else
        row_outputs.push_back(v);
    }
    for (Value r : reductions_read(f, outputs))
      if (std::find(row_outputs.begin(), row_outputs.end(), r) == row_outputs.end()) row_outputs.push_back(r);
    steps.add_row_step(sub_kernel_fusion(whole, row_outputs, std::vector<bool>(reductions.size(), false),
                                         f.name() + "_rows"));
  } else {
    // A row kernel per level of reductions, each reading the earlier levels from memory; the reductions
    // of the group all go to memory, whether the group returns them or not.
    const std::vector<int> level = reduction_levels(f);
    const int deepest = *std::max_element(level.begin(), level.end());
    for (int l = 0; l <= deepest; ++l) {
      std::vector<Value> level_outputs;
      std::vector<bool> cut(level.size(), false);
      for (size_t id = 0; id < level.size(); ++id) {
        if (level[id] == l) level_outputs.push_back(Value{static_cast<int32_t>(id)});
        cut[id] = level[id] >= 0 && level[id] < l;
      }
      steps.add_row_step(
          sub_kernel_fusion(whole, level_outputs, cut, f.name() + "_level" + std::to_string(l)));
    }
    for (const FusionOutput& out : f.outputs())
      if (!is_reduction(f, out.value)) outputs.push_back(out.value);
  }
  if (!outputs.empty())
    steps.add_pointwise_step(sub_kernel_fusion(whole, outputs, reductions, f.name() + "_rest"));
  return steps.take();
}

LaunchConfig row_launch_config(const kir::Kernel& kernel, int sm_count, int max_blocks_per_sm) {
  SEAM_ASSERT(kernel.rows.has_value());
  const kir::RowLaunch& rows = *kernel.rows;
  const int64_t chunks = kernel.total_chunks() - rows.rows;
  int64_t grid = std::max((rows.rows + rows.rows_per_block - 1) / rows.rows_per_block,
                          (chunks + rows.block_size() - 1) / rows.block_size());
  if (max_blocks_per_sm > 0)
    grid = std::min<int64_t>(grid, static_cast<int64_t>(sm_count) * max_blocks_per_sm);
  LaunchConfig config;
  config.grid.x = static_cast<unsigned>(std::max<int64_t>(grid, 1));
  config.block.x = static_cast<unsigned>(rows.block_size());
  return config;
}

}  // namespace seam
