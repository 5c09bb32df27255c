// The layout of a scan kernel (kir::Kernel::scan; docs/CODEGEN.md, "Scans"): one cumsum, cumprod, cummin
// or cummax from its input operand (any strides) to a contiguous output, written by
// codegen/scan_kernel_printer.h.
//
// The scanned tensor is seen as lines: the elements that share every coordinate but the scanned axis's.
// Line l (row-major over the other axes, l = o * inner + i with o over the axes before the scanned one and
// i over those after it) writes output elements o * extent * inner + i + k * inner, k < extent, and reads
// input elements input_offset(l) + k * axis_stride.
//
// Two kernels:
// - rows (inner == 1 and the line long enough): a block per line, grid-stride over the lines. The line is
//   streamed in chunks of threads * items elements; thread t scans its `items` consecutive elements of a
//   chunk in registers, the threads' totals are scanned across the warp (shuffles) and the block (the
//   warps' totals in shared memory), each thread adds its exclusive prefix and the running total of the
//   earlier chunks, and the chunk's total carries into the next. Any extent fits: a block never holds
//   more than one chunk.
// - lines (any other axis, or short rows): a thread per line walking the axis in order; consecutive
//   threads take consecutive i, so for a contiguous input a warp reads consecutive addresses.
//
// Both kernels combine the running value with each element through one associative step (`combine`), so
// the rows kernel's trees give what a walk in order gives (exactly for minima and maxima).
#pragma once

#include <cstdint>
#include <vector>

#include "ir/dtype.h"

namespace seam::kir {

// How a scan combines its running value with the next element: cumsum, cumprod, cummin, cummax.
enum class ScanCombine { Sum, Prod, Min, Max };

struct ScanLaunch {
  ScanCombine combine = ScanCombine::Sum;
  DType input_dtype = DType::Float32;  // the running value's: reduction_accumulator (lower/reduction_math.h)
  DType output_dtype = DType::Float32;
  int64_t lines = 0;
  int64_t extent = 0;  // elements per line
  int64_t inner = 1;   // the output's stride along the scanned axis
  // The input: its stride along the scanned axis and, per other axis in order, extent and stride (in
  // elements); `contiguous` when the input is laid out like the output (offsets need no unravelling).
  int64_t axis_stride = 1;
  std::vector<int64_t> line_extents, line_strides;
  bool contiguous = true;
  // The rows kernel (above) when > 0: threads per block and elements per thread of a chunk.
  int threads = 0;
  int items = 0;
  // The launch: `block` threads (the rows kernel: `threads`), `blocks` blocks, grid-stride over the work.
  int block = 256;
  int64_t blocks = 1;
  bool rows() const { return threads > 0; }
  int64_t chunk() const { return static_cast<int64_t>(threads) * items; }
};

}  // namespace seam::kir
