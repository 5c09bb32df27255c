#include "plan/pointwise_plan.h"

#include <algorithm>

#include "lower/invariant_coordinate.h"
#include "plan/chunk_programs.h"
#include "support/error.h"

namespace seam {
namespace {

// The tile of the second-innermost axis ("rows") whose index becomes the outermost of the chunk order,
// or 1: with [B, H, T, D] chunks then run over [T / tile, B, H, tile, D], so every head of a position
// runs close in time and a position's broadcast inputs (RoPE's cos/sin) and expanded sources (GQA's k/v)
// are read while still in L2. Only for slabs (rows x innermost, one [b, h]) of at least
// row_tile_min_bytes: below, row-major order keeps them in L2 anyway and measured a few points faster
// (docs/CODEGEN.md, "Lowering": RoPE at T = 32768 went from 54-72% to 87-94% of the floor; at T = 4096, -2
// points). Tiles of 2 rows measured as fast as or faster than 8 or 32 on every tiled row (docs/CODEGEN.md,
// "Lowering": gemma's 4 MiB slabs -0.6 to -3.9% of the time, T = 32768 -0.3 to -0.4%): the rows of every
// head of two positions read in turn are two whole rows of qkv. Outputs taken in runs (RoPE backward's
// dqkv, which reads [B, H, T, D] gradients) keep tiles of 32 (run_row_tile): there a tile is a run of 32
// rows read from each gradient head, and tiles of 2 measured 1-6% slower (46% on phi-2, whose runs of 10
// chunks then split warps; docs/CODEGEN.md, "Lowering").
// The product of the extents outside the two innermost axes (the slabs of rows x innermost).
int64_t slab_count(const Shape& shape) {
  int64_t outer = 1;
  for (size_t d = 0; d + 2 < shape.size(); ++d) outer *= shape[d];
  return outer;
}

// `tile`: the largest tile tried (options.row_tile, or run_row_tile for an output taken in runs).
int64_t row_tile_for(const Type& type, const LoweringOptions& options, int tile) {
  const Shape& shape = type.shape;
  if (options.row_tile <= 1 || tile <= 1 || shape.size() < 3) return 1;
  const int64_t outer = slab_count(shape);
  const int64_t rows = shape[shape.size() - 2];
  const int64_t slab_bytes = rows * shape.back() * dtype_size(type.dtype);
  if (outer <= 1 || slab_bytes < options.row_tile_min_bytes) return 1;
  for (int64_t t = tile; t > 1; t /= 2)
    if (rows % t == 0 && rows / t >= 2) return t;
  return 1;
}

// 2 for outputs whose rows end inside a 128-byte line (Phi-3.5's head size 96: 192-byte rows), else 1.
// Such a row shares lines with its neighbour in the input the output reads (the next head of qkv), and
// row-major order reads that neighbour only a whole slab later; pairs of rows, every head of the pair of
// positions in turn, read both halves of a line close in time. Measured on W8 forward: +3.5-5% (bench/
// history/); phi-2 (160-byte rows) unchanged. Only for an otherwise row-major order:
// not with runs (branches per row, RoPE backward's q/k/v slots, whose runs pairs of rows split: phi-2
// backward -50%), copies or groups (chosen on the row-major lowering, along any axis, rows included).
int64_t line_sharing_tile(const Type& type, const LoweringOptions& options) {
  const Shape& shape = type.shape;
  if (options.row_tile < 2 || shape.size() < 3) return 1;
  const bool line_sharing = shape.back() * dtype_size(type.dtype) % 128 != 0;
  return line_sharing && slab_count(shape) > 1 && shape[shape.size() - 2] % 2 == 0 ? 2 : 1;
}

int widest_lanes(const Type& type, int max_vector_bytes) {
  if (type.is_scalar || type.rank() == 0 || type.numel() == 0) return 1;
  int lanes = std::max(1, max_vector_bytes / dtype_size(type.dtype));
  while (lanes > 1 && type.shape.back() % lanes != 0) lanes /= 2;
  return lanes;
}

// The largest divisor of n that is at most limit (n, limit >= 1).
int64_t largest_divisor_at_most(int64_t n, int64_t limit) {
  int64_t d = std::min(n, limit);
  while (n % d != 0) --d;
  return d;
}

// The copies for an output lowered in row-major order: the coordinate whose aligned blocks the value
// ignores most, within options.max_copies (the largest divisor of its block within the limit).
void choose_copies(const kir::Block& body, const std::vector<ChunkCoordinate>& coordinates, int max_copies,
                   kir::ChunkOrder& order) {
  if (max_copies <= 1) return;
  for (const ChunkCoordinate& c : coordinates) {
    const int64_t copies = largest_divisor_at_most(invariant_block(body, c.variable, c.extent), max_copies);
    if (copies > order.copies) {
      order.copied_axis = c.axis;
      order.copies = copies;
    }
  }
}

// The group for an output lowered in row-major order: the coordinate (alone on its axis) that the most
// loads do not read, when some do read it (an output the whole body ignores along an axis takes copies
// instead), with the largest divisor of its extent within options.max_group. RoPE's q and k: the head
// axis, cos/sin loaded once per group of heads instead of once per head.
void choose_group(const kir::Block& body, const std::vector<ChunkCoordinate>& coordinates, int max_group,
                  kir::ChunkOrder& order) {
  if (max_group <= 1 || order.copies > 1) return;
  int best_invariant = 0;
  for (const ChunkCoordinate& c : coordinates) {
    const LoadCount loads = loads_invariant_in(body, c.variable);
    if (loads.invariant == 0 || loads.invariant == loads.total) continue;
    const int64_t group = largest_divisor_at_most(c.extent, max_group);
    if (group <= 1) continue;
    if (loads.invariant > best_invariant || (loads.invariant == best_invariant && group > order.group)) {
      best_invariant = loads.invariant;
      order.group_axis = c.axis;
      order.group = group;
    }
  }
}

// The run for an output whose branches (cats and pads on outer axes) change every few chunks of a row:
// RoPE backward's dqkv takes the q, k or v branch per head slot of hs elements, so a warp over a row
// straddles two to four slots and runs each branch in turn. With runs of a slot's chunks, a warp takes
// one slot from several rows. Only for runs of at least a cache line per row, so that each row's part
// of a warp's access stays a whole line.
int64_t choose_run(const kir::Block& body, const std::optional<ChunkCoordinate>& lane, const Type& type,
                   int lanes) {
  constexpr int64_t kWarp = 32, kLineBytes = 128;
  if (!lane || type.rank() < 2 || type.shape[type.rank() - 2] < 2) return 0;
  const int64_t run = branch_invariant_block(body, lane->variable, lane->extent);
  if (run >= lane->extent || run >= kWarp || run * lanes * dtype_size(type.dtype) < kLineBytes) return 0;
  return run;
}

// Lowers a trial of output `o` at the widest width that vectorizes, in `order`.
TrialOutput widest_trial(const Fusion& fusion, int o, OutputSchedule& schedule,
                         const LoweringOptions& options) {
  for (;; schedule.lanes /= 2) {
    if (std::optional<TrialOutput> trial = lower_output_trial(fusion, o, schedule, options))
      return std::move(*trial);
    SEAM_ASSERT(schedule.lanes > 1, "scalar lowering cannot fail to vectorize");
  }
}

// Rows of an innermost extent the widest vector does not divide, long enough that a row's last, partly
// masked chunk costs little (at least 16 vectors), where the widest width dividing the row moves less than
// a quarter vector (4 bytes of 16): ceil(extent / lanes) chunks per row, loads and stores
// masked to the row and unaligned, in row-major order. One lane per thread (the width dividing 50257)
// keeps a quarter of the bytes in flight the memory needs: GPT-2's logits kernels ran at 28% of the copy
// rate.
std::optional<OutputSchedule> ragged_schedule(const Fusion& fusion, int o, const LoweringOptions& options) {
  const Type& t = fusion.type(fusion.outputs()[static_cast<size_t>(o)].value);
  if (!options.unaligned_loads || t.is_scalar || t.rank() == 0 || t.numel() == 0) return std::nullopt;
  OutputSchedule schedule;
  schedule.lanes = std::max(1, options.max_vector_bytes / dtype_size(t.dtype));
  schedule.ragged = true;
  const int64_t row = t.shape.back();
  if (schedule.lanes == 1 || row % schedule.lanes == 0 || row < 16 * schedule.lanes) return std::nullopt;
  // A width that divides the row and moves at least a quarter vector keeps the aligned plan.
  if (4 * widest_lanes(t, options.max_vector_bytes) > schedule.lanes) return std::nullopt;
  if (!lower_output_trial(fusion, o, schedule, options)) return std::nullopt;
  return schedule;
}

OutputSchedule plan_output(const Fusion& fusion, int o, const LoweringOptions& options) {
  const Type& t = fusion.type(fusion.outputs()[static_cast<size_t>(o)].value);
  if (std::optional<OutputSchedule> ragged = ragged_schedule(fusion, o, options)) return *ragged;
  OutputSchedule schedule;
  kir::ChunkOrder& order = schedule.order;
  order.tile = row_tile_for(t, options, options.row_tile);
  schedule.lanes = widest_lanes(t, options.max_vector_bytes);
  const TrialOutput trial = widest_trial(fusion, o, schedule, options);
  // What the row-major lowering shows: values invariant along part of an axis, branches per run.
  choose_copies(trial.body, trial.coordinates, options.max_copies, order);
  const bool light = options.max_group_loaded_bytes <= 0 ||
                     kir::loaded_bytes_on_heaviest_path(trial.body) <= options.max_group_loaded_bytes;
  if (light) choose_group(trial.body, trial.coordinates, options.max_group, order);
  const int64_t first_tile = order.tile;
  if (options.uniform_branches) order.run = choose_run(trial.body, trial.lane, t, schedule.lanes);
  if (order.run > 0) order.tile = row_tile_for(t, options, options.run_row_tile);
  if (order.tile == 1 && order.run == 0 && order.copies == 1 && order.group == 1)
    order.tile = line_sharing_tile(t, options);
  if (order.tile != first_tile || order.copies > 1 || order.run > 0 || order.group > 1) {
    bool lowered = lower_output_trial(fusion, o, schedule, options).has_value();
    if (!lowered && order.group > 1) {  // a group's offsets may defeat a vector proof: drop the group
      order.group = 1;
      lowered = lower_output_trial(fusion, o, schedule, options).has_value();
    }
    if (!lowered) {  // copies or runs can defeat it too (a pad of an empty view): the order that lowered
      order = kir::ChunkOrder{};
      order.tile = first_tile;
      lowered = lower_output_trial(fusion, o, schedule, options).has_value();
    }
    SEAM_ASSERT(lowered, "the first chunk order lowered, so it lowers again");
  }
  return schedule;
}

}  // namespace

std::vector<OutputSchedule> plan_pointwise_outputs(const Fusion& fusion, const LoweringOptions& options) {
  std::vector<OutputSchedule> schedules;
  for (size_t o = 0; o < fusion.outputs().size(); ++o)
    schedules.push_back(plan_output(fusion, static_cast<int>(o), options));
  return schedules;
}

kir::Kernel plan_and_lower_pointwise(const Fusion& fusion, const LoweringOptions& options) {
  return assemble_pointwise_kernel(fusion, options, plan_pointwise_outputs(fusion, options));
}

}  // namespace seam
