#include "plan/plan.h"

#include <algorithm>
#include <initializer_list>
#include <set>

#include "lower/kir_pipeline.h"
#include "lower/kir_printer.h"
#include "lower/lower_pointwise.h"
#include "lower/lower_rows.h"
#include "lower/lower_scan.h"
#include "lower/lower_scatter.h"
#include "lower/row_pipeline.h"
#include "plan/dump.h"
#include "plan/kernel_knobs.h"
#include "plan/matmul_plan.h"
#include "plan/pointwise_plan.h"
#include "plan/row_plan.h"
#include "support/error.h"

namespace seam {

std::string_view step_kind_name(StepKind kind) {
  switch (kind) {
    case StepKind::Pointwise: return "pointwise";
    case StepKind::Rows: return "rows";
    case StepKind::Library: return "library";
    case StepKind::Scan: return "scan";
    case StepKind::Scatter: return "scatter";
  }
  SEAM_ASSERT(false);
}

int FusionPlan::launches() const { return static_cast<int>(steps.size()); }

namespace {

// The one classifier of reductions inside a kernel: a pointwise kernel's chunks then sum several reads
// (a reduction inlined, unrolled over its elements), which its knobs follow (choose_launch_params).
bool sums_per_chunk(const Fusion& kernel_fusion) {
  return std::any_of(kernel_fusion.nodes().begin(), kernel_fusion.nodes().end(),
                     [](const Node& node) { return node.category() == OpCategory::Reduction; });
}

// Whether a kernel's chunks compute groups of values (lowering chose ChunkOrder::group > 1 somewhere).
bool grouped(const kir::Kernel& kernel) {
  return std::any_of(kernel.outputs.begin(), kernel.outputs.end(),
                     [](const kir::OutputProgram& o) { return o.order.group > 1; });
}

bool is_row_group(SchedulerKind kind) {
  return kind == SchedulerKind::Reduction || kind == SchedulerKind::Normalization;
}

// Chunk groups and the register cap are choices for pointwise kernels: a row kernel's chunk programs go
// without them (its launch bounds are its block layout's).
LaunchParams row_knobs(LaunchParams params) {
  if (params.max_group <= 0) params.max_group = 1;
  if (params.min_blocks_per_sm < 0) params.min_blocks_per_sm = 0;
  return params;
}

class Planner {
 public:
  Planner(const SegmentedFusion& segmented, const PlanOptions& options)
      : segmented_(segmented), options_(options) {}

  FusionPlan plan() {
    for (size_t g = 0; g < segmented_.groups.size(); ++g) {
      const SegmentGroup& group = segmented_.groups[g];
      if (group.kind == SchedulerKind::NoOp) continue;
      if (is_row_group(group.kind)) {
        plan_rows(g);
      } else if (group.kind == SchedulerKind::Matmul) {
        plan_product(g);
      } else if (group.kind == SchedulerKind::Scan) {
        plan_scan(g);
      } else if (group.kind == SchedulerKind::Scatter) {
        plan_scatter(g);
      } else {
        SEAM_CHECK(group.kind == SchedulerKind::Pointwise, "group ", g, " needs a ",
                   scheduler_name(group.kind),
                   " kernel, which this backend cannot generate yet (only pointwise, reduction and "
                   "normalization kernels and views)");
        plan_pointwise(g, extract_kernel_fusion(segmented_, g));
      }
    }
    for (PlannedStep& step : plan_.steps) {
      if (step.library) continue;
      const LaunchParams& defaults =
          step.kind == StepKind::Rows ? row_knobs(options_.params) : options_.params;
      step.params =
          choose_launch_params({step.kernel.total_chunks(), sums_per_chunk(step.kernel_fusion.fusion),
                                kir::loaded_bytes_per_chunk(step.kernel), grouped(step.kernel)},
                               defaults);
      step.grid = plan_grid(step.kernel, step.params);
      step.workspace_bytes = kir::workspace_bytes(step.kernel);
      if (dump_enabled("kir")) dump("kir", step.kernel.name, print_kir(step.kernel));
    }
    check_launches();
    if (dump_enabled("plan")) dump("plan", segmented_.fusion.name(), print_plan(plan_));
    return std::move(plan_);
  }

 private:
  std::string next_name() const {
    return segmented_.fusion.name() + "_k" + std::to_string(plan_.steps.size());
  }

  void plan_pointwise(size_t g, KernelFusion kernel_fusion, int64_t copy_of = -1) {
    LoweringOptions lowering;
    static_cast<LaunchParams&>(lowering) =
        choose_lowering_params(sums_per_chunk(kernel_fusion.fusion), options_.params);
    lowering.kernel_name = next_name();
    lowering.max_inlined_reduction = segmented_.limits.max_inlined_reduction;
    if (!is_row_pass(options_.last_pass)) lowering.kir_last_pass = options_.last_pass;
    PlannedStep step{g, StepKind::Pointwise, std::move(kernel_fusion), {}};
    step.kernel = plan_and_lower_pointwise(step.kernel_fusion.fusion, lowering);
    step.copy_of = copy_of;
    plan_.steps.push_back(std::move(step));
  }

  void plan_rows(size_t g) {
    RowLoweringOptions lowering;
    static_cast<LaunchParams&>(lowering) = row_knobs(options_.params);
    lowering.kernel_name = next_name();
    if (!is_kir_pass(options_.last_pass)) lowering.row_last_pass = options_.last_pass;
    PlannedStep step{g, StepKind::Rows, extract_kernel_fusion(segmented_, g), {}};
    RowLowering row = plan_and_lower_rows(step.kernel_fusion.fusion, lowering);
    SEAM_ASSERT(!row.misaligned_reduction && row.deferred.empty(), "row kernel ", lowering.kernel_name,
                " of group ", g,
                " cannot write all its outputs in one launch; the Normalization predicate should have "
                "kept its misaligned reads apart");
    step.kernel = std::move(row.kernel);
    plan_.steps.push_back(std::move(step));
  }

  // Operands the library cannot read in place (a broadcast matrix axis) are written out first, by copy
  // kernels of the same group.
  void plan_product(size_t g) {
    KernelFusion product = extract_kernel_fusion(segmented_, g);
    std::set<int32_t> copied;
    for (Value view : views_without_gemm_form(product)) {
      plan_pointwise(g, extract_view_copy(segmented_, view), view.id);
      copied.insert(view.id);
    }
    if (!copied.empty()) product = extract_kernel_fusion(segmented_, g, copied);
    PlannedStep step{g, StepKind::Library, std::move(product), kir::Kernel{}};
    step.library = true;
    plan_.steps.push_back(std::move(step));
  }

  // Operands `operands` of the group's one node (a scan's, a scatter's), which its kernel reads from
  // memory: a view of an input or of a kernel output (a value of a no-launch group) is written out first,
  // each once, by a copy kernel of the same group, as a product's operands are. A literal stays (the
  // kernel prints it). Returns the kernel fusion that reads the copies.
  KernelFusion with_views_copied(size_t g, KernelFusion kernel, std::initializer_list<size_t> operands) {
    const Node& node = kernel.fusion.node(kernel.fusion.outputs().at(0).value);
    std::set<int32_t> copied;
    for (size_t k : operands) {
      const Value operand = node.operands.at(k);
      const OpKind op = kernel.fusion.node(operand).op;
      if (op == OpKind::Input || op == OpKind::Const) continue;
      const Value view = kernel.sources.at(static_cast<size_t>(operand.id));
      if (copied.insert(view.id).second) plan_pointwise(g, extract_view_copy(segmented_, view), view.id);
    }
    return copied.empty() ? std::move(kernel) : extract_kernel_fusion(segmented_, g, copied);
  }

  void plan_scan(size_t g) {
    KernelFusion scan = with_views_copied(g, extract_kernel_fusion(segmented_, g), {0});
    ScanLoweringOptions lowering;
    lowering.kernel_name = next_name();
    lowering.max_threads = options_.params.row_block_size;
    PlannedStep step{g, StepKind::Scan, std::move(scan), {}};
    step.kernel = lower_scan(step.kernel_fusion.fusion, lowering);
    plan_.steps.push_back(std::move(step));
  }

  // A scatter's data is copied into its output by a copy kernel of the group, then the scatter kernel
  // writes the source there; it reads its index and source from memory (with_views_copied).
  void plan_scatter(size_t g) {
    KernelFusion scatter = extract_kernel_fusion(segmented_, g);
    const Node& node = scatter.fusion.node(scatter.fusion.outputs().at(0).value);
    const Value data = scatter.sources.at(static_cast<size_t>(node.operands.at(0).id));
    scatter = with_views_copied(g, std::move(scatter), {1, 2});
    const Value output = scatter.outputs.at(0);
    plan_pointwise(g, extract_copy_into(segmented_, data, output), output.id);
    ScatterLoweringOptions lowering;
    lowering.kernel_name = next_name();
    lowering.block = options_.params.block_size;
    PlannedStep step{g, StepKind::Scatter, std::move(scatter), {}};
    step.kernel = lower_scatter(step.kernel_fusion.fusion, lowering);
    plan_.steps.push_back(std::move(step));
  }

  // The segmenter's count of kernels is the plan's: one step per launching group, plus the copies that
  // a product's group plans before its library call and a scatter's group before its kernel.
  void check_launches() const {
    int group_steps = 0;
    for (const PlannedStep& step : plan_.steps) group_steps += step.copy_of < 0;
    SEAM_ASSERT(group_steps == segmented_.num_kernels(), "fusion ", segmented_.fusion.name(),
                ": the segmenter counts ", segmented_.num_kernels(), " kernels, the plan launches ",
                group_steps, " steps for them (copies of product operands aside)");
  }

  const SegmentedFusion& segmented_;
  const PlanOptions& options_;
  FusionPlan plan_;
};

}  // namespace

FusionPlan plan_fusion(const SegmentedFusion& segmented, const PlanOptions& options) {
  const std::string& last = options.last_pass;
  if (!last.empty() && last != "none" && !is_kir_pass(last) && !is_row_pass(last)) {
    std::string names;
    for (const KirPass& pass : kir_pipeline()) names += std::string(pass.name) + ", ";
    for (const RowPass& pass : row_pipeline()) names += std::string(pass.name) + ", ";
    throw Error(detail::concat("unknown pass '", last, "' (kernel-IR and row passes: ", names, "or none)"));
  }
  return Planner(segmented, options).plan();
}

KernelGrid plan_grid(const kir::Kernel& kernel, const LaunchParams& params) {
  int64_t blocks = 0;
  int block = params.block_size;
  if (kernel.scan) return KernelGrid{kernel.scan->blocks, kernel.scan->block};
  if (kernel.scatter) return KernelGrid{kernel.scatter->blocks, kernel.scatter->block};
  if (kernel.rows && !kernel.rows->outer.empty()) {
    // The workspace holds a row of partials per block, and the last block sums exactly those.
    return KernelGrid{kernel.rows->partial_blocks, kernel.rows->block_size()};
  }
  if (kernel.rows) {
    const kir::RowLaunch& rows = *kernel.rows;
    block = rows.block_size();
    const int64_t chunks = kernel.total_chunks() - rows.rows;
    blocks = std::max((rows.rows + rows.rows_per_block - 1) / rows.rows_per_block * rows.cluster,
                      (chunks + block - 1) / block);
  } else {
    const int64_t per_block = static_cast<int64_t>(block) * std::max(1, params.chunks_per_thread);
    blocks = (kernel.total_chunks() + per_block - 1) / per_block;
  }
  if (params.max_blocks_per_sm > 0)
    blocks = std::min<int64_t>(blocks,
                               static_cast<int64_t>(std::max(1, params.sm_count)) * params.max_blocks_per_sm);
  // A row kernel over clusters launches whole clusters.
  if (kernel.rows && kernel.rows->cluster > 1) {
    const int64_t cluster = kernel.rows->cluster;
    blocks = std::max<int64_t>(blocks / cluster, 1) * cluster;
  }
  return KernelGrid{std::max<int64_t>(blocks, 1), block};
}

std::string launch_summary(const PlannedStep& step) {
  if (step.kind == StepKind::Scan) {
    const kir::ScanLaunch& s = *step.kernel.scan;
    return "scan kernel: " + std::to_string(s.lines) + " lines of " + std::to_string(s.extent) +
           (s.rows() ? ", a block of " + std::to_string(s.threads) + " threads per line in chunks of " +
                           std::to_string(s.chunk())
                     : ", a thread per line") +
           ", grid " + std::to_string(step.grid.blocks) + " x " + std::to_string(step.grid.block);
  }
  if (step.kind == StepKind::Scatter) {
    const kir::ScatterLaunch& s = *step.kernel.scatter;
    return "scatter kernel: a thread per index element (" + std::to_string(s.elements) + "), grid " +
           std::to_string(step.grid.blocks) + " x " + std::to_string(step.grid.block);
  }
  if (step.kind != StepKind::Rows) return step.params.to_string();
  const kir::RowLaunch& rows = *step.kernel.rows;
  return "row kernel: block " + std::to_string(rows.block_size()) + " (" +
         std::to_string(rows.rows_per_block) + " rows x " + std::to_string(rows.threads_per_row) +
         " threads), grid " + std::to_string(step.grid.blocks) + " blocks" +
         (rows.cluster > 1 ? " in clusters of " + std::to_string(rows.cluster) : "") +
         (step.params.max_blocks_per_sm > 0
              ? " (<= " + std::to_string(step.params.max_blocks_per_sm) + " blocks/SM)"
              : "") +
         (rows.min_blocks_per_sm > 0
              ? ", launch bounds for " + std::to_string(rows.min_blocks_per_sm) + " blocks/SM"
              : ", no register cap") +
         ", lanes " + (rows.lanes_contiguous ? "contiguous" : "strided") +
         (rows.load_ahead ? ", next rows loaded ahead into registers" : "");
}

std::string print_plan(const FusionPlan& plan) {
  std::string out;
  for (size_t s = 0; s < plan.steps.size(); ++s) {
    const PlannedStep& step = plan.steps[s];
    out += "step " + std::to_string(s) + ": group " + std::to_string(step.group) + ", " +
           std::string(step_kind_name(step.kind));
    if (step.copy_of >= 0) out += ", copy of %" + std::to_string(step.copy_of);
    if (step.library) {
      out += ", " + std::string(op_name(step.kernel_fusion.fusion.nodes().back().op)) + " by the library\n";
      continue;
    }
    out += ", kernel " + step.kernel.name + ", grid " + std::to_string(step.grid.blocks) + " x " +
           std::to_string(step.grid.block) + "\n";
    if (step.kernel.scan || step.kernel.scatter) out += "  " + launch_summary(step) + "\n";
    if (step.kernel.rows)
      out += "  rows " + std::to_string(step.kernel.rows->rows) + " x " +
             std::to_string(step.kernel.rows->reduced) + ", " +
             std::to_string(step.kernel.rows->rows_per_block) + " rows x " +
             std::to_string(step.kernel.rows->threads_per_row) + " threads per block" +
             (step.kernel.rows->load_ahead ? ", next rows loaded ahead into registers" : "") + "\n";
    if (step.workspace_bytes > 0)
      out += "  outer reductions " + std::to_string(step.kernel.rows->outer.size()) + ", workspace " +
             std::to_string(step.workspace_bytes) + " bytes\n";
    for (const kir::OutputProgram& o : step.kernel.outputs)
      out += "  output p" + std::to_string(o.param) + ": " + std::to_string(o.chunks) + " chunks of " +
             std::to_string(o.lanes) + " lanes" + (o.ragged ? " (ragged rows)" : "") + ", tile " +
             std::to_string(o.order.tile) + ", copies " + std::to_string(o.order.copies) + ", run " +
             std::to_string(o.order.run) + ", group " + std::to_string(o.order.group) + "\n";
    out += "  knobs: " + knobs_to_string(step.params) + "\n";
  }
  return out;
}

}  // namespace seam
