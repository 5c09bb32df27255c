// Lowering of a pointwise kernel (pointwise ops with any movement ops: slice, pad, cat, permute,
// reshape, broadcast, expand, squeeze) to the kernel IR. Every output element computes the indices of the
// inputs it needs through the movement ops, so the whole group is one launch, with outputs of different
// shapes side by side. Each output is vectorized as wide as index analysis proves legal: a run of
// `lanes` consecutive output elements must map to an aligned, contiguous run of every input it loads (or
// to one element), with pad/cat/slice boundaries on multiples of `lanes`.
#pragma once

#include <string>

#include "ir/fusion.h"
#include "lower/kernel_ir.h"
#include "schedule/launch_params.h"

namespace seam {

// The decided knobs of one kernel (schedule/launch_knobs.def: vector width bound, branch-free pieces, row
// tiles, copies, runs, groups, cache hints, reduction loops) and its name. Their defaults are the table's,
// the product's: a test lowering directly runs what Executable::compile runs. The plan stage (src/plan)
// decides the per-kernel values (e.g. max_group, 0 in the table, becomes 1 or 2).
struct LoweringOptions : LaunchParams {
  std::string kernel_name = "seam_kernel";
};

// `fusion` is one kernel: its inputs are the buffers and scalars the kernel reads, its outputs the buffers
// it writes (contiguous). Throws seam::Error for ops a pointwise kernel cannot run (reductions, opaque).
kir::Kernel lower_pointwise(const Fusion& fusion, const LoweringOptions& options);

}  // namespace seam
