// The launch parameters of a generated kernel: a plain, printable struct chosen per kernel from the
// segment (its size) and the input signature (the alignment class of the input addresses), so that a
// kernel's shape can be read in `seam emit` and reproduced by hand.
#pragma once

#include <cstdint>
#include <string>

namespace seam {

// The registers per thread that kernels summing per chunk are capped at (see choose_launch_params), and
// the bytes of loads in flight they hold: the bound below which a chunk is "light" (groups, no cap).
inline constexpr int kCappedRegisters = 56;
inline constexpr int64_t kCappedRegisterBytes = kCappedRegisters * 4;
inline constexpr int kRegistersPerSm = 65536;

struct LaunchParams {
  int block_size = 128;  // threads per block of pointwise kernels
  // Chunks per thread: the grid has one thread per chunks_per_thread chunks, each thread looping over its
  // chunks grid-stride (one loop body, so code size and NVRTC time do not grow with it). 0: chosen per
  // kernel by choose_launch_params.
  int chunks_per_thread = 0;
  int max_blocks_per_sm = 0;  // grid cap per multiprocessor; 0: one block per block_size*chunks chunks
  // __launch_bounds__'s second argument: ptxas caps the registers so that this many blocks fit on a
  // multiprocessor (more warps in flight for register-heavy kernels, at the risk of spills); 0: no cap,
  // -1: chosen per kernel by choose_launch_params.
  int min_blocks_per_sm = -1;
  int max_vector_bytes = 16;  // widest access; the alignment class of the input addresses bounds it
  bool branch_free = true;    // pad/cat pieces as guarded loads and selects (LoweringOptions::branch_free)
  int row_tile = 2;           // rows per tile of the chunk order (LoweringOptions::row_tile; 0: row-major)
  int run_row_tile = 32;      // ... of outputs taken in runs (LoweringOptions::run_row_tile)
  int64_t row_tile_min_bytes = 4 << 20;  // ... for slabs of at least this size (LoweringOptions)
  int max_copies = 16;           // stores per computed chunk of an expanded output (LoweringOptions; 1: off)
  bool uniform_branches = true;  // warps on one side of outer-axis branches (LoweringOptions)
  // Values of an axis per chunk, loads that ignore it read once (LoweringOptions::max_group; 1: off).
  // 0: chosen per kernel by choose_lowering_params.
  int max_group = 0;
  // Groups only for chunks that load at most this many bytes ungrouped (LoweringOptions; 0: any). GQA
  // backward with 8 queries per group (18 loads of 16 bytes per chunk) runs as fast ungrouped once its
  // registers are capped (bench/RESULTS.md, session 6), with half the code to compile.
  int64_t max_group_loaded_bytes = kCappedRegisterBytes;
  bool keep_reused_loads = true;  // reused loads evict-last in L2 (LoweringOptions)
  bool streaming_stores = false;  // stores evict-first (LoweringOptions)
  // Inlined reductions' terms after the first in a loop unrolled this often; 0: written out. Halves
  // NVRTC time on GQA backward (W5/W6 ~300 -> ~150 ms) but costs 4-9% of its GPU time (bench/RESULTS.md,
  // session 5), so written out by default.
  int reduction_loop_unroll = 0;
  int row_block_size = 256;  // threads per block of row kernels (reductions; RowLoweringOptions)
  int sm_count = 132;        // multiprocessors of the target (an H200 by default; the CUDA backend sets it)

  std::string to_string() const;  // "block 128, chunks/thread 1, grid uncapped, vectors <= 16 B, ..."
  friend bool operator==(const LaunchParams&, const LaunchParams&) = default;
};

// What choose_launch_params needs to know of a kernel.
struct KernelWork {
  int64_t total_chunks = 0;            // work items
  bool sums_per_chunk = false;         // a chunk sums several reads (an inlined reduction, e.g. GQA backward)
  int64_t loaded_bytes_per_chunk = 0;  // on the heaviest path (kir::loaded_bytes_per_chunk)
  bool grouped = false;                // its chunks compute groups of values (kir::ChunkOrder::group > 1)
};

// What lowering needs of one kernel's parameters, chosen before it is lowered: max_group (when 0) is 2
// for kernels that sum per chunk, 1 otherwise. Measured (bench/RESULTS.md, session 5): pairs over the
// batch, which share the chunk's index arithmetic and branch conditions, took GQA backward from 84-88% to
// 87-92% of the floor; forward rows lost 0.5-2 points with groups of 2, 4 or 8. The grouped GQA backward
// body is twice as long: its cold compile rises ~1.7x.
LaunchParams choose_lowering_params(bool sums_per_chunk, const LaunchParams& defaults);

// The parameters for one kernel: the defaults, with min_blocks_per_sm (when -1) the blocks that fit at
// kCappedRegisters (9 of 128 threads) for kernels that sum per chunk and load more per chunk than those
// registers hold (224 bytes), none otherwise. GQA backward (20-36
// loads of 16 bytes per chunk, 58-61 registers, 8 blocks of 128 threads per SM) capped at 56 registers
// runs 9 blocks and gains 2-4 points of the floor, W3-W6 (bench/RESULTS.md, session 6); capped at 48 (10
// blocks) it spills and gains nothing. A kernel below the cap gets slower with it: ptxas then spends up
// to the cap (MHA backward 30 -> 48 registers, -13%; gemma's GQA backward, 12 loads, 40 -> 51). And
// chunks_per_thread (when 0) chosen from the work (a grouped chunk counting as two):
// 2 for kernels that sum per chunk, 1 otherwise (the launch-shape sweep of bench/RESULTS.md, session 4:
// GQA backward, 55-60 registers, +2-5 points of the floor with half the grid; forward +1-2 points with
// one chunk per thread). A kernel too small to give every thread of a full wave that many chunks takes
// one chunk per thread, so that it still spreads over every multiprocessor.
LaunchParams choose_launch_params(const KernelWork& work, const LaunchParams& defaults);

}  // namespace seam
