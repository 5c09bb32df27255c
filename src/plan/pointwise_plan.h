// The decisions of a pointwise kernel: per output, the widest vector width the index analysis proves
// and the chunk order (row tiles, copies, runs, groups), chosen from trial lowerings
// (lower_output_trial) and recorded as OutputSchedules at which each output is lowered
// (plan/chunk_programs.h).
#pragma once

#include <vector>

#include "ir/fusion.h"
#include "lower/lower_pointwise.h"

namespace seam {

// One schedule per output of `fusion`, from the knobs in `options` (max_vector_bytes, row_tile,
// run_row_tile, row_tile_min_bytes, max_copies, uniform_branches, max_group, max_group_loaded_bytes).
std::vector<OutputSchedule> plan_pointwise_outputs(const Fusion& fusion, const LoweringOptions& options);

// plan_pointwise_outputs, then the kernel assembled from its outputs lowered at them: what the executable
// does for one pointwise kernel.
kir::Kernel plan_and_lower_pointwise(const Fusion& fusion, const LoweringOptions& options);

}  // namespace seam
