#include "plan/row_plan.h"

#include <algorithm>

#include "lower/expression_emitter.h"
#include "lower/outer_reductions.h"
#include "lower/row_peel.h"
#include "plan/chunk_programs.h"
#include "plan/pointwise_plan.h"
#include "plan/row_cluster.h"
#include "plan/row_peel.h"

namespace seam {
namespace {

int64_t power_of_two_at_least(int64_t n) {
  int64_t p = 1;
  while (p < n) p *= 2;
  return p;
}

int element_bytes(DType dtype) { return static_cast<int>(dtype_size(dtype)); }

// The grid of a row kernel with outer reductions: the blocks the multiprocessors hold at once (by the
// registers the layout expects a thread to use, 64 when streamed), at most one per group of rows; sets
// the layout's blocks per multiprocessor.
int64_t plan_partial_blocks(const RowPlanInput& in, RowLayout& layout, int64_t bytes_per_iteration) {
  const int64_t block = static_cast<int64_t>(layout.rows_per_block) * layout.threads_per_row;
  const int64_t registers =
      layout.iterations > 0
          ? std::min<int64_t>(255, layout.iterations * bytes_per_iteration / 4 + kReservedRegisters)
          : 64;
  const int64_t per_sm = std::clamp<int64_t>(
      in.outer_threads_per_sm > 0 ? in.outer_threads_per_sm / block : 65536 / (block * registers), 1,
      std::max<int64_t>(1, 2048 / block));
  layout.min_blocks_per_sm = static_cast<int>(per_sm);
  const int64_t groups = ceil_div(std::max<int64_t>(in.shape.rows, 1), layout.rows_per_block);
  return std::max<int64_t>(1, std::min(groups, static_cast<int64_t>(std::max(1, in.sm_count)) * per_sm));
}

// Registers for the next row group (kir::RowLaunch::load_ahead) when its blocks loop over several.
bool plan_load_ahead(const RowPlanInput& in, const RowLayout& layout) {
  if (!in.load_ahead || layout.iterations == 0 || layout.partial_blocks == 0 || layout.peel ||
      layout.cluster > 1)
    return false;
  return ceil_div(std::max<int64_t>(in.shape.rows, 1), layout.rows_per_block) > layout.partial_blocks;
}

}  // namespace

RowPlanInput row_plan_input(const Fusion& fusion, const LaunchParams& knobs) {
  RowPlanInput in;
  in.shape = row_shape(fusion);
  in.block_size = knobs.row_block_size;
  in.max_vector_bytes = knobs.max_vector_bytes;
  in.sm_count = knobs.sm_count;
  in.persistent = knobs.row_persistent;
  in.load_ahead = knobs.row_load_ahead;
  in.outer_share = knobs.row_outer_share;
  in.outer_threads_per_sm = knobs.row_outer_threads_per_sm;
  in.outer_reductions = static_cast<int>(outer_reductions(fusion, in.shape).size());
  // Outer reductions keep one workspace column per element of a row, summed by whole blocks: rows peeled
  // by columns (the same columns in a thread's vectors of every row) and no cluster next to them.
  in.peel = knobs.row_peel;
  in.peel_columns = in.outer_reductions > 0;
  in.cluster_max = in.outer_reductions == 0 ? knobs.row_cluster_max : 1;
  in.cluster_above = knobs.row_cluster_above;
  const int64_t elements = in.shape.rows * in.shape.reduced;
  int smallest = 0;
  auto per_element = [&](const Type& t) { return !t.is_scalar && t.numel() == elements && elements > 0; };
  for (Value v : fusion.inputs()) {
    const Type& t = fusion.type(v);
    if (!per_element(t)) continue;
    in.cached_bytes_per_element += element_bytes(t.dtype);
    smallest = smallest == 0 ? element_bytes(t.dtype) : std::min(smallest, element_bytes(t.dtype));
  }
  for (const FusionOutput& out : fusion.outputs()) {
    const Type& t = fusion.type(out.value);
    if (per_element(t))
      smallest = smallest == 0 ? element_bytes(t.dtype) : std::min(smallest, element_bytes(t.dtype));
  }
  in.smallest_element_bytes = smallest == 0 ? 4 : smallest;
  return in;
}

int plan_row_vector(const RowPlanInput& in) {
  const RowShape& rs = in.shape;
  if (!rs.inner_reduced || rs.shape.empty() || rs.reduced == 0) return 1;
  int vector = std::max(1, std::min(in.max_vector_bytes, 16) / in.smallest_element_bytes);
  while (vector > 1 && rs.shape.back() % vector != 0) vector /= 2;
  return vector;
}

RowLayout plan_row_layout(const RowPlanInput& in, int vector, bool peel) {
  const RowShape& rs = in.shape;
  int64_t block = 32;
  while (block * 2 <= std::min(in.block_size, 1024)) block *= 2;
  const int64_t rows = std::max<int64_t>(rs.rows, 1), reduced = std::max<int64_t>(rs.reduced, 1);
  RowLayout layout;
  layout.lanes_contiguous = rs.inner_reduced;
  if (!rs.inner_reduced) {
    int64_t rows_per_block = std::min(block, power_of_two_at_least(rows));
    int64_t per_row = block / rows_per_block;
    // Few rows with long reductions: more threads per row, so that more blocks have work.
    constexpr int64_t kEnoughBlocks = 128;
    while (rows_per_block > 32 && ceil_div(rows, rows_per_block) < kEnoughBlocks && per_row < reduced) {
      rows_per_block /= 2;
      per_row *= 2;
    }
    layout.rows_per_block = static_cast<int>(rows_per_block);
    layout.threads_per_row = static_cast<int>(per_row);
    return layout;
  }
  layout.vector = vector;
  layout.peel = peel;
  layout.peel_columns = peel && in.peel_columns;
  const int64_t vectors = peel ? peeled_vectors(reduced, vector, in.peel_columns) : reduced / vector;
  // Registers a thread spends per iteration on its cached share of the row (twice with the next row
  // group's loads in flight: load_ahead with outer reductions).
  const int cached_copies = in.load_ahead && in.outer_reductions > 0 ? 2 : 1;
  const int64_t bytes_per_iteration =
      static_cast<int64_t>(vector) * (cached_copies * in.cached_bytes_per_element + 4 * in.outer_reductions);
  // At least 8 threads per row, or one per vector of a shorter row.
  const int64_t min_per_row = std::min<int64_t>(8, power_of_two_at_least(vectors));
  // The block a row layout runs in: rows share `block` threads, a long row takes a block of its own.
  auto block_for = [&](int64_t per_row) { return std::max<int64_t>(per_row, block); };
  // Whether a thread's cached share fits its registers next to what the rest of the kernel needs.
  auto fits = [&](int64_t per_row, int64_t iterations) {
    const int64_t registers = std::min<int64_t>(255, 65536 / block_for(per_row));
    return iterations * bytes_per_iteration / 4 + kReservedRegisters <= registers;
  };
  // The fewest threads per row whose share is at most `elements` elements in registers.
  auto fewest_threads = [&](int64_t elements) -> int64_t {
    for (int64_t per_row = min_per_row; per_row <= 1024; per_row *= 2) {
      const int64_t iterations = ceil_div(vectors, per_row);
      if (iterations * vector <= elements && fits(per_row, iterations)) return per_row;
    }
    return 0;
  };
  int64_t per_row = 0;
  if (in.persistent && in.outer_reductions > 0 && in.outer_share > 0)
    per_row = fewest_threads(in.outer_share);
  // With outer reductions a thread also holds an accumulator per element: the longest share (64, 32 or
  // 16 elements) whose registers leave room for two blocks per multiprocessor, so that one block's
  // loads overlap another's reductions (its block loops over many rows: nothing else hides them).
  for (int64_t elements = kPreferredRowElements;
       in.persistent && in.outer_reductions > 0 && per_row == 0 && elements >= kPreferredRowElements / 4;
       elements /= 2) {
    const int64_t fewest = fewest_threads(elements);
    if (fewest > 0 && ceil_div(vectors, fewest) * bytes_per_iteration / 4 + kReservedRegisters <=
                          65536 / (2 * block_for(fewest)))
      per_row = fewest;
  }
  if (per_row == 0 && in.persistent) per_row = fewest_threads(kPreferredRowElements);
  // A row one block holds at the preferred share stays in that block (softmax over 32768 in 512
  // threads: 95% of the floor on the H200, 74% over 2 x 256); a longer one (65536: 72% over 4 x 256)
  // or one needing more threads than `cluster_above` goes over a cluster of blocks.
  const bool preferred_share = per_row > 0;
  if (per_row == 0 && in.persistent) per_row = fewest_threads(2 * kPreferredRowElements);
  if (in.persistent && (!preferred_share || per_row > in.cluster_above))
    if (std::optional<RowLayout> clustered = plan_row_cluster(in, vector, vectors)) {
      clustered->peel = peel;
      return *clustered;
    }
  const bool persistent = per_row > 0;
  if (!persistent) per_row = 1024;  // streamed: as many threads as a block has
  // Too few rows to give every multiprocessor a few warps: spread each row over more threads.
  const int64_t threads_wanted = static_cast<int64_t>(in.sm_count) * 256;
  while (per_row < 1024 && per_row < vectors && rows * per_row < threads_wanted) per_row *= 2;
  layout.iterations = persistent ? static_cast<int>(ceil_div(vectors, per_row)) : 0;
  layout.threads_per_row = static_cast<int>(per_row);
  layout.rows_per_block = static_cast<int>(std::max<int64_t>(1, block / per_row));
  // A block of at least a warp: short rows share it.
  while (static_cast<int64_t>(layout.rows_per_block) * per_row < 32) layout.rows_per_block *= 2;
  if (in.outer_reductions > 0) layout.partial_blocks = plan_partial_blocks(in, layout, bytes_per_iteration);
  layout.load_ahead = plan_load_ahead(in, layout);
  return layout;
}

RowLoweringOptions plan_row_kernel(const Fusion& fusion, RowLoweringOptions knobs, int vector, bool peel) {
  knobs.layout = plan_row_layout(row_plan_input(fusion, knobs), vector, peel);
  knobs.chunk_schedules.clear();
  if (!row_chunked_outputs(fusion).empty()) {
    LoweringOptions chunks;
    static_cast<LaunchParams&>(chunks) = knobs;
    chunks.kernel_name = knobs.kernel_name;
    knobs.chunk_schedules = plan_pointwise_outputs(row_chunk_fusion(fusion), chunks);
  }
  return knobs;
}

namespace {

RowLowering lower_row_kernel(const Fusion& fusion, const RowLoweringOptions& planned) {
  RowLowering row = lower_rows(fusion, planned);
  add_row_chunk_programs(fusion, planned, row);
  return row;
}

}  // namespace

RowLowering plan_and_lower_rows(const Fusion& fusion, const RowLoweringOptions& knobs) {
  if (const int peeled = plan_row_peel(row_plan_input(fusion, knobs))) {
    try {
      return lower_row_kernel(fusion, plan_row_kernel(fusion, knobs, peeled, true));
    } catch (const NotVectorizable&) {  // a strided load or a movement op the peel cannot take
    }
  }
  for (int vector = plan_row_vector(row_plan_input(fusion, knobs));; vector /= 2) {
    try {
      return lower_row_kernel(fusion, plan_row_kernel(fusion, knobs, vector));
    } catch (const NotVectorizable&) {
      if (vector == 1) throw;
    }
  }
}

}  // namespace seam
