// Kernels assembled from chunk programs: lowering lowers one output at a time at the schedule the plan
// decided (lower_output_program); the plan puts a kernel's programs together, a pointwise kernel's
// outputs in order and a row kernel's other outputs next to its rows.
#pragma once

#include <vector>

#include "ir/fusion.h"
#include "lower/kernel_ir.h"
#include "lower/lower_pointwise.h"
#include "lower/lower_rows.h"

namespace seam {

// A pointwise kernel: its parameters (every input and output of `fusion`), then one chunk program per
// output at schedules[o].
kir::Kernel assemble_pointwise_kernel(const Fusion& fusion, const LoweringOptions& options,
                                      const std::vector<OutputSchedule>& schedules);

// Adds the chunk programs of `row`'s chunked outputs (RowLowering::chunked) to its kernel, at
// options.chunk_schedules, their parameters numbered as the row kernel's.
void add_row_chunk_programs(const Fusion& fusion, const RowLoweringOptions& options, RowLowering& row);

}  // namespace seam
