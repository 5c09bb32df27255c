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

namespace seam {

struct LoweringOptions {
  std::string kernel_name = "seam_kernel";
  int max_vector_bytes = 16;  // widest access per thread per output (16: 128-bit loads and stores)
  bool branch_free = true;    // pad and cat pieces as guarded loads and selects, not branches
  int row_tile = 2;           // chunk order tiles the second-innermost axis by this (0: row-major) ...
  int run_row_tile = 32;      // ... or by this for outputs taken in runs (uniform_branches) ...
  int64_t row_tile_min_bytes = 4 << 20;  // ... when one slab of it (rows x innermost) has this many bytes
  int max_copies = 16;  // stores per computed chunk of an output invariant along part of an axis (1: off)
  bool uniform_branches = true;  // chunk order keeping a warp on one side of outer-axis branches
  // Values of an axis per chunk when some loads do not depend on it (RoPE's cos/sin over heads): they
  // are then loaded once per group (1: off; the default until measured on the GPU).
  int max_group = 1;
  // ... and only for outputs whose ungrouped chunk loads at most this many bytes on its heaviest path
  // (kir::loaded_bytes_on_heaviest_path; 0: any): a chunk that already has that much in flight gains
  // nothing from a group but twice the code.
  int64_t max_group_loaded_bytes = 0;
  // Cache hints: loads other chunks repeat (broadcast inputs) kept in L2, stores streamed past it.
  bool keep_reused_loads = false;
  bool streaming_stores = false;
  // Inlined reductions (small sums inside a pointwise kernel: GQA backward's head gradients): 0 writes
  // every term out; n >= 1 puts the terms after the first in a loop unrolled n times (less code to compile).
  int reduction_loop_unroll = 0;
};

// `fusion` is one kernel: its inputs are the buffers and scalars the kernel reads, its outputs the buffers
// it writes (contiguous). Throws seam::Error for ops a pointwise kernel cannot run (reductions, opaque).
kir::Kernel lower_pointwise(const Fusion& fusion, const LoweringOptions& options);

}  // namespace seam
