// The launch parameters of a generated kernel: a plain, printable struct chosen per kernel from the
// segment (its size) and the input signature (the alignment class of the input addresses), so that a
// kernel's shape can be read in `seam emit` and reproduced by hand.
#pragma once

#include <cstdint>
#include <string>

namespace seam {

struct LaunchParams {
  int block_size = 256;          // threads per block
  int chunks_per_thread = 2;     // independent chunks per thread per grid-stride iteration (bytes in flight)
  int max_blocks_per_sm = 0;     // grid cap per multiprocessor; 0: one block per block_size*chunks chunks
  int max_vector_bytes = 16;     // widest access; the alignment class of the input addresses bounds it
  bool branch_free = true;       // pad/cat pieces as guarded loads and selects (LoweringOptions::branch_free)
  int row_tile = 32;             // rows per tile of the chunk order (LoweringOptions::row_tile; 0: row-major)
  int max_copies = 16;           // stores per computed chunk of an expanded output (LoweringOptions; 1: off)
  bool uniform_branches = true;  // warps on one side of outer-axis branches (LoweringOptions)
  int sm_count = 132;  // multiprocessors of the target (an H200 by default; the CUDA backend sets it)

  std::string to_string() const;  // "block 256, chunks/thread 2, grid uncapped, vectors <= 16 B"
  friend bool operator==(const LaunchParams&, const LaunchParams&) = default;
};

// The parameters for a kernel of `total_chunks` work items: the defaults, except that a kernel too small
// to give every thread of a full wave `chunks_per_thread` chunks takes one chunk per thread, so that it
// still spreads over every multiprocessor (measured: bench/RESULTS.md, launch-shape sweep).
LaunchParams choose_launch_params(int64_t total_chunks, const LaunchParams& defaults);

}  // namespace seam
