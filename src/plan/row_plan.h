// The decisions of a row kernel (reductions, normalizations): how a block's threads share rows, and the
// schedules of the chunk programs it carries (plan/pointwise_plan.h). A later reduction scheduler
// (rows per warp, persistent rows, clusters, split rows) adds its own layouts and parameters here.
#pragma once

#include "lower/lower_rows.h"

namespace seam {

// Threads per row and rows per block for `block_size` threads (rounded down to a power of two from 32 to
// 1024): a row's threads consecutive when the reduced axes include the innermost one (coalesced along
// the row), else consecutive threads on consecutive rows, with more threads per row when few rows would
// leave blocks idle.
RowLayout plan_row_layout(const RowShape& shape, int block_size);

// `knobs` with the layout (from knobs.row_block_size) and chunk schedules decided for `fusion`.
RowLoweringOptions plan_row_kernel(const Fusion& fusion, RowLoweringOptions knobs);

// plan_row_kernel, then lower_rows: what the executable does for one row kernel.
RowLowering plan_and_lower_rows(const Fusion& fusion, const RowLoweringOptions& knobs);

}  // namespace seam
