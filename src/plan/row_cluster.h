// Rows longer than one block holds well, shared by the blocks of a thread block cluster (Hopper;
// kir::RowLaunch::cluster; docs/CODEGEN.md, "Reductions"). A row that one block keeps in registers
// only with 512-1024 threads, or not at all, leaves one or two blocks per multiprocessor: the row's load,
// its reductions and its stores then take turns instead of overlapping with other rows', which is what
// held softmax over 32768-65536 columns at 58-82% of the copy floor. Split over a cluster, each block
// holds a slice of the row in registers with at most 256 threads, several blocks fit a
// multiprocessor, and the row reductions combine the blocks' values through distributed shared memory.
#pragma once

#include <optional>

#include "plan/row_plan.h"

namespace seam {

// The cluster layout of an inner reduction's rows of `vectors` vectors of `vector` elements, or none
// when no cluster of at most in.cluster_max blocks holds a row in registers: the smallest cluster (a power
// of two) whose blocks hold their slice with at most min(256, in.cluster_above) threads of at most
// kPreferredRowElements elements each; else the fewest threads (up to 1024), then the smallest cluster,
// at that many elements; else at twice as many. With too few rows to fill the multiprocessors, larger
// clusters (as long as every thread keeps a vector). rows_per_block 1, persistent.
std::optional<RowLayout> plan_row_cluster(const RowPlanInput& in, int vector, int64_t vectors);

}  // namespace seam
