// Lowering of a pointwise kernel (pointwise ops with any movement ops: slice, pad, cat, permute,
// reshape, broadcast, expand, squeeze) to the kernel IR, at the vector widths and chunk orders the plan
// decided (plan/pointwise_plan.h, which lowers trials to decide). Every output element computes the indices
// of the inputs it needs through the movement ops, so the whole group is one launch, with outputs of
// different shapes side by side. Each output is vectorized as wide as index analysis proves legal: a run of
// `lanes` consecutive output elements must map to an aligned, contiguous run of every input it loads (or
// to one element), with pad/cat/slice boundaries on multiples of `lanes`.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ir/fusion.h"
#include "lower/kernel_ir.h"
#include "schedule/launch_params.h"
#include "schedule/pointwise_scheduler.h"

namespace seam {

// The decided knobs of one kernel (schedule/launch_knobs.def: vector width bound, branch-free pieces, row
// tiles, copies, runs, groups, cache hints, reduction loops) and its name. Their defaults are the table's,
// the product's: a test lowering directly runs what Executable::compile runs. The plan stage (src/plan)
// decides the per-kernel values (e.g. max_group, 0 in the table, becomes 1 or 2).
struct LoweringOptions : LaunchParams {
  std::string kernel_name = "seam_kernel";
  // Inlined reductions over at most this many elements (the segmentation's ScheduleLimits): the one limit
  // the segmenter's predicate and the lowering share.
  int64_t max_inlined_reduction = ScheduleLimits{}.max_inlined_reduction;
  // The kernel-IR passes run through this one (KirPassOptions::last): empty runs them all.
  std::string kir_last_pass;
};

// What the plan decided for one output of a pointwise kernel (plan/pointwise_plan.h): the vector width,
// as wide as the index analysis proved, and the chunk order (row tiles, copies, runs, groups).
struct OutputSchedule {
  int lanes = 1;
  kir::ChunkOrder order;
  // Rows whose innermost extent `lanes` does not divide (GPT-2's 50257 logits): ceil(extent / lanes) chunks
  // per row, each chunk's loads and store masked to the lanes inside its row and unaligned (row-major
  // order only; with LaunchParams::unaligned_loads).
  bool ragged = false;
};

// The chunks of an output of `numel` elements and innermost extent `row` at `schedule`.
int64_t output_chunks(int64_t numel, int64_t row, const OutputSchedule& schedule);

// A chunk coordinate of a lowered output: the let variable holding it, its axis and its extent.
struct ChunkCoordinate {
  std::string variable;
  size_t axis;
  int64_t extent;
};

// One output lowered alone, for the plan to read: its body, the chunk coordinates alone on their axes
// (index = the variable) and the vector-axis coordinate (index = variable * lanes).
struct TrialOutput {
  kir::Block body;
  std::vector<ChunkCoordinate> coordinates;
  std::optional<ChunkCoordinate> lane;
};

// Lowers output `o` of `fusion` at `schedule` as a trial; nullopt when a movement op or load breaks the
// vector proof at schedule.lanes.
std::optional<TrialOutput> lower_output_trial(const Fusion& fusion, int o, const OutputSchedule& schedule,
                                              const LoweringOptions& options);

// Output `o` of `fusion` (one kernel: its inputs the buffers and scalars the kernel reads, its outputs the
// buffers it writes, contiguous) lowered at its decided schedule into a chunk program of `kernel`, whose
// parameters declare_kernel_params (lower/kernel_params.h) declared (`input_param`, what it returned);
// names are numbered from `counter`. The plan assembles a kernel's programs (plan/chunk_programs.h). A
// schedule the vector proof rejects is a seam bug; throws seam::Error for ops a pointwise kernel cannot
// run (reductions above the inlining limit, opaque ops).
kir::OutputProgram lower_output_program(const Fusion& fusion, int o, const OutputSchedule& schedule,
                                        const LoweringOptions& options, kir::Kernel& kernel,
                                        const std::vector<int>& input_param, int& counter);

}  // namespace seam
