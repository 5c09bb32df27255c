// The per-kernel knobs: what the plan makes of the table's "per kernel" values (max_group 0,
// chunks_per_thread 0, min_blocks_per_sm -1) from what a kernel does, before and after lowering it.
#pragma once

#include <cstdint>

#include "schedule/launch_params.h"

namespace seam {

// What choose_launch_params needs to know of a kernel.
struct KernelWork {
  int64_t total_chunks = 0;            // work items
  bool sums_per_chunk = false;         // a chunk sums several reads (an inlined reduction, e.g. GQA backward)
  int64_t loaded_bytes_per_chunk = 0;  // on the heaviest path (kir::loaded_bytes_per_chunk)
  bool grouped = false;                // its chunks compute groups of values (kir::ChunkOrder::group > 1)
};

// What lowering needs of one kernel's parameters, chosen before it is lowered: max_group (when 0) is 2
// for kernels that sum per chunk, 1 otherwise. Measured (docs/CODEGEN.md, "The plan"): pairs over the
// batch, which share the chunk's index arithmetic and branch conditions, took GQA backward from 84-88% to
// 87-92% of the floor; forward rows lost 0.5-2 points with groups of 2, 4 or 8. The grouped GQA backward
// body is twice as long: its cold compile rises ~1.7x.
LaunchParams choose_lowering_params(bool sums_per_chunk, const LaunchParams& defaults);

// The parameters for one kernel: the defaults, with min_blocks_per_sm (when -1) the blocks that fit at
// kCappedRegisters (9 of 128 threads) for kernels that sum per chunk and load more per chunk than those
// registers hold (224 bytes), none otherwise. GQA backward (20-36
// loads of 16 bytes per chunk, 58-61 registers, 8 blocks of 128 threads per SM) capped at 56 registers
// runs 9 blocks and gains 2-4 points of the floor, W3-W6 (docs/CODEGEN.md, "The plan"); capped at 48 (10
// blocks) it spills and gains nothing. A kernel below the cap gets slower with it: ptxas then spends up
// to the cap (MHA backward 30 -> 48 registers, -13%; gemma's GQA backward, 12 loads, 40 -> 51). And
// chunks_per_thread (when 0) chosen from the work (a grouped chunk counting as two):
// 2 for kernels that sum per chunk, 1 otherwise (the launch-shape sweep, docs/CODEGEN.md, "Backends":
// GQA backward, 55-60 registers, +2-5 points of the floor with half the grid; forward +1-2 points with
// one chunk per thread). A kernel too small to give every thread of a full wave that many chunks takes
// one chunk per thread, so that it still spreads over every multiprocessor.
LaunchParams choose_launch_params(const KernelWork& work, const LaunchParams& defaults);

}  // namespace seam
