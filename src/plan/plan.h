// The plan stage: turns a segmented fusion into launches. Every decision about a kernel is made here and
// recorded in the plan: the kernel fusion of each launching group, its scheduler kind and parameters
// (launch shape, vector width bound, register cap, groups...), the lowered kernel (whose chunk orders and
// row layout the plan reads back), its grid, and library steps with the copy kernels they need. Lowering
// (src/lower) lowers what the plan decided; exec only runs plans (docs/ARCHITECTURE.md).
//
// One launching group is one planned step: the segmenter's predicates accept only groups a single
// launch can compute (schedule/normalization_scheduler.h), and plan_fusion asserts
// `segmented.num_kernels() == plan.steps' groups`. A matrix product's step is a library call, preceded
// by the copies of operands it cannot read in place (PlannedStep::copy_of); those copies belong to the
// product's group and are counted with it. So is a scatter's copy of its data into its output, which
// its kernel then writes into (kir::updates_output_in_place).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lower/kernel_ir.h"
#include "plan/kernel_fusion.h"
#include "schedule/launch_params.h"
#include "segment/segmented_fusion.h"

namespace seam {

// What a planned step runs. Room for more: reduction schedules beyond the row kernel's are further
// kinds with their own parameters.
enum class StepKind : uint8_t {
  Pointwise,  // a chunk kernel (lower/lower_pointwise.h); also a library step's operand copy
  Rows,       // a row kernel (lower/lower_rows.h): reductions, normalizations
  Library,    // a matrix product run by a vendor library (no generated code)
  Scan,       // a scan kernel (lower/lower_scan.h): one cumsum, cumprod, cummin or cummax
  Scatter,    // a scatter kernel (lower/lower_scatter.h), after the copy of its data into its output
};
std::string_view step_kind_name(StepKind kind);  // "pointwise", "rows", "library", "scan", "scatter"

// The launch of a generated kernel: blocks of `block` threads (one dimension each).
struct KernelGrid {
  int64_t blocks = 0;
  int block = 0;
  friend bool operator==(const KernelGrid&, const KernelGrid&) = default;
};

struct PlannedStep {
  size_t group;  // index into the segmented fusion's groups
  StepKind kind = StepKind::Pointwise;
  KernelFusion kernel_fusion;
  kir::Kernel kernel;     // lowered as decided; empty for library steps
  LaunchParams params{};  // the decided knobs of this kernel (schedule/launch_knobs.def)
  KernelGrid grid{};      // for generated kernels (plan_grid)
  int registers = -1;     // per thread, as compiled for the GPU (runtime/cubin_info.h); -1: unknown or host
  // Scratch memory the kernel takes as its last parameter (kir::workspace_bytes: a row kernel's outer
  // reductions), its counter zero before the launch; 0: none.
  int64_t workspace_bytes = 0;
  // A library step (kind Library): on the host the reference implementation, on the GPU cuBLASLt.
  bool library = false;
  // >= 0: a copy kernel writing this value (an operand of the group's product or scan, or a scatter's
  // output, filled with the scatter's data before the scatter kernel writes into it).
  int64_t copy_of = -1;
};

struct PlanOptions {
  // Defaults for every kernel; the plan adapts the per-kernel knobs (choose_launch_params). The alignment
  // class of the input addresses enters as params.max_vector_bytes.
  LaunchParams params;
  // `seam kir --pass`: a kernel-IR pass (lower/kir_pipeline.h) that chunk programs run through, or a row
  // pass (lower/row_pipeline.h) that row kernels run through, the other pipeline whole; "none": neither
  // pipeline; empty: both whole. plan_fusion refuses a name neither pipeline has.
  std::string last_pass;
};

struct FusionPlan {
  std::vector<PlannedStep> steps;  // in launch order
  // Launches of generated kernels and library calls (copies included).
  int launches() const;
};

// Plans every launching group of `segmented`. Throws seam::Error for a group no backend can run yet;
// InternalError when the plan would launch a group in more or fewer steps than the segmenter counted.
FusionPlan plan_fusion(const SegmentedFusion& segmented, const PlanOptions& options);

// The grid of a lowered kernel: a block per block_size * chunks_per_thread chunks (pointwise), or per
// rows_per_block rows or block of chunks (row kernels), capped at max_blocks_per_sm per multiprocessor;
// exactly RowLaunch::partial_blocks for a row kernel with outer reductions.
KernelGrid plan_grid(const kir::Kernel& kernel, const LaunchParams& params);

// The plan as text (SEAM_DUMP=plan): per step its group, kind, kernel, grid, chunk orders or row layout
// and knobs.
std::string print_plan(const FusionPlan& plan);

// One line for `seam emit`'s kernel headers: the launch the step really gets (a row kernel's own block
// layout, not the pointwise knobs).
std::string launch_summary(const PlannedStep& step);

}  // namespace seam
