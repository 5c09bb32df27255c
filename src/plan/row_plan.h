// The decisions of a row kernel (reductions, normalizations): how a block's threads share rows, how wide
// a row loop's vectors are, whether a thread's share of a row stays in registers (persistent), and the
// schedules of the chunk programs it carries (plan/pointwise_plan.h). docs/CODEGEN.md, "Row kernels",
// says why each choice is made.
#pragma once

#include "lower/lower_rows.h"

namespace seam {

// What the layout depends on besides the shape: the knobs (row_block_size, max_vector_bytes: the
// alignment class of the addresses, sm_count) and the bytes a vector of the row's elements loads from
// the inputs a persistent kernel keeps in registers, per element of the vector.
struct RowPlanInput {
  RowShape shape;
  int block_size = 256;
  int max_vector_bytes = 16;
  int sm_count = 132;
  int smallest_element_bytes = 4;    // of the tensors read or written per element of a row
  int cached_bytes_per_element = 0;  // summed over the inputs read per element of a row
  bool persistent = true;            // LaunchParams::row_persistent
  bool peel = true;                  // LaunchParams::row_peel (plan/row_peel.h)
  bool peel_columns = false;         // peeled by columns (kir::RowLaunch::peel_columns): outer reductions
  int cluster_max = 8;               // LaunchParams::row_cluster_max (plan/row_cluster.h)
  int cluster_above = 1024;          // LaunchParams::row_cluster_above
  int outer_reductions = 0;          // lower/outer_reductions.h: an f32 accumulator per element each
  bool load_ahead = false;           // LaunchParams::row_load_ahead
  int outer_share = 0;               // LaunchParams::row_outer_share (0: the plan's)
  int outer_threads_per_sm = 0;      // LaunchParams::row_outer_threads_per_sm (0: the plan's)
};

// A persistent row kernel's share of a row per thread: up to this many elements (64: eight 16-byte
// vectors of bf16, what runs RMSNorm at 90-96% of the copy floor), else up to twice as many, else the
// row is streamed (each pass reads it again). Registers a thread keeps for everything but its share.
constexpr int64_t kPreferredRowElements = 64;
constexpr int64_t kReservedRegisters = 40;

// Whole units of `b` that hold `a` (vectors per thread, threads per row); a, b > 0.
inline int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// The layout for `in` at vector width `vector` (a divisor of the innermost reduced extent, or 1).
// Inner reductions: vectors of `vector` elements; threads per row the fewest (at least 8, or one per
// vector of a shorter row) whose share
// is at most kPreferredRowElements elements (else twice that) and whose cached bytes fit the registers a
// thread of its block has (65536 per multiprocessor over the block, at most 255, less
// kReservedRegisters): persistent; else streamed by 1024 threads. More threads per row when there are
// too few rows to fill the GPU; rows_per_block filling `block_size`.
// Outer reductions: consecutive threads on consecutive rows, streamed.
// With outer reductions next to the row reductions (normalization backward), their accumulators count
// with the cached bytes, the share is the longest of 64, 32 or 16 elements whose registers leave room
// for two blocks per multiprocessor (an estimate, not measured on the GPU yet), and the grid is fixed
// (RowLayout::partial_blocks): as many blocks as the multiprocessors hold at once by the registers the layout
// expects, at most one per row group, each looping over its rows and leaving one workspace row of partials.
// The knobs row_outer_share and row_outer_threads_per_sm set the share and the threads per
// multiprocessor (whole blocks, at least one) instead. With row_load_ahead (registers: the caches counted
// twice) a layout whose blocks loop over several row groups loads the next group into a second set of
// registers before the current group's reductions (kir::RowLaunch::load_ahead). `peel`: vectors aligned to
// memory (plan/row_peel.h), a row then spans up to peeled_vectors of them; with outer reductions peeled by
// columns instead (their accumulators are per column: kir::RowLaunch::peel_columns); never with clusters.
RowLayout plan_row_layout(const RowPlanInput& in, int vector, bool peel = false);

// The widest vector the shapes and the alignment class allow: 16 bytes of the row's smallest element,
// halved until it divides the innermost reduced extent (1 for outer reductions).
int plan_row_vector(const RowPlanInput& in);

RowPlanInput row_plan_input(const Fusion& fusion, const LaunchParams& knobs);

// `knobs` with the layout (at `vector` elements) and chunk schedules decided for `fusion`.
RowLoweringOptions plan_row_kernel(const Fusion& fusion, RowLoweringOptions knobs, int vector,
                                   bool peel = false);

// The plan and lowering of one row kernel: peeled when plan_row_peel says so and every load and store
// takes it, else the widest vector that divides the row first, narrower when a load or store of the
// fusion cannot use it (a strided or unaligned input).
RowLowering plan_and_lower_rows(const Fusion& fusion, const RowLoweringOptions& knobs);

}  // namespace seam
