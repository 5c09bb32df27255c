// The driver of a row kernel's lowering (lower/lower_rows.h): the launch the layout asks for, the body
// from RowEmitter (lower/row_emitter.h) and the row passes on it; the plan adds the chunk programs of
// other outputs (plan/chunk_programs.h).
#include "lower/lower_rows.h"

#include <algorithm>

#include "lower/kernel_params.h"
#include "lower/outer_reductions.h"
#include "lower/row_emitter.h"
#include "lower/row_peel.h"
#include "lower/row_pipeline.h"
#include "support/error.h"

namespace seam {

void RowEmitter::lower(kir::Block& body, kir::Block& finish, int64_t row_bound) {
  row_bound_ = std::max<int64_t>(row_bound, 1);
  blocks_.push_back(&body);
  memo_.emplace_back();
  index_rows();
  try {
    const std::vector<std::vector<Value>> levels = reduction_levels();
    for (size_t l = 0; l < levels.size(); ++l) {
      next_level_ = l + 1 < levels.size() ? &levels[l + 1] : nullptr;
      reduce_level(levels[l]);
    }
  } catch (const NotRowAligned&) {
    misaligned_reduction_ = true;
    return;
  }
  lower_outputs(finish);
}

namespace {

int64_t product(const Shape& shape) {
  int64_t p = 1;
  for (int64_t e : shape) p *= e;
  return p;
}

}  // namespace

RowLowering lower_rows(const Fusion& fusion, const RowLoweringOptions& options) {
  const RowShape rs = row_shape(fusion);
  const Shape& shape = rs.shape;
  const std::vector<int64_t>& axes = rs.axes;

  RowLowering result;
  kir::Kernel& kernel = result.kernel;
  kernel.name = options.kernel_name;
  const std::vector<int> input_param = declare_kernel_params(fusion, kernel, product(shape));

  int counter = 0;
  const RowLayout& layout = options.layout;
  SEAM_ASSERT(
      layout.vector >= 1 &&
          (layout.peel ? layout.vector > 1 && peelable_rows(rs)
                       : rs.reduced % layout.vector == 0 &&
                             (layout.vector == 1 || (rs.inner_reduced && shape.back() % layout.vector == 0))),
      "kernel ", options.kernel_name, ": vectors of ", layout.vector, " elements along rows of ", rs.reduced,
      layout.peel ? " (peeled)" : "");
  const bool persistent = layout.iterations > 0;
  const std::vector<Value> outer = outer_reductions(fusion, rs);
  SEAM_ASSERT(outer.empty() || ((!layout.peel || layout.peel_columns) && layout.cluster == 1), "kernel ",
              options.kernel_name, ": outer reductions in a row layout peeled by shifts or clustered");
  RowEmitter emitter(fusion, kernel, input_param, counter, shape, axes, layout.vector, persistent,
                     layout.peel, layout.peel_columns, outer);
  kir::RowLaunch launch;
  launch.rows = emitter.rows();
  launch.reduced = rs.reduced;
  launch.vector = layout.vector;
  launch.peel = layout.peel;
  launch.peel_columns = layout.peel && layout.peel_columns;
  launch.cluster = layout.cluster;
  SEAM_ASSERT(
      layout.cluster >= 1 && layout.cluster <= 16 && (layout.cluster == 1 || layout.rows_per_block == 1),
      "kernel ", options.kernel_name, ": a cluster of ", layout.cluster, " blocks for ",
      layout.rows_per_block, " rows per block");
  launch.iterations = layout.iterations;
  const int block = layout.rows_per_block * layout.threads_per_row;
  SEAM_ASSERT(block >= 32 && block <= 1024 && (block & (block - 1)) == 0, "kernel ", options.kernel_name,
              ": a row layout of ", layout.rows_per_block, " x ", layout.threads_per_row, " threads");
  launch.threads_per_row = layout.threads_per_row;
  launch.rows_per_block = layout.rows_per_block;
  launch.lanes_contiguous = layout.lanes_contiguous;
  // What `row` stays below, for the index algebra: the index width's range, not the rows (rounded up to
  // a whole block), so that no fold depends on the row count and every count of a class prints one text.
  const int64_t row_bound = kernel.index64 ? kir::kLargestKnownBound : int64_t{1} << 31;
  if (!outer.empty()) {
    // Each block's partials are one workspace row (its rows combined in order); streamed accumulators
    // live in that row, so a streamed block holds one row.
    SEAM_ASSERT(layout.partial_blocks >= 1 && (persistent || layout.rows_per_block == 1), "kernel ",
                options.kernel_name, ": outer reductions over ", layout.partial_blocks, " blocks of ",
                layout.rows_per_block, " rows");
    for (size_t j = 0; j < outer.size(); ++j)
      launch.outer.push_back({RowEmitter::accumulator_name(j), RowEmitter::total_name(j)});
    launch.partial_blocks = layout.partial_blocks;
    launch.min_blocks_per_sm = layout.min_blocks_per_sm;
  }
  emitter.lower(launch.body, launch.finish, row_bound);
  result.deferred = emitter.deferred();
  result.misaligned_reduction = emitter.misaligned_reduction();
  if (persistent) {
    SEAM_ASSERT(
        static_cast<int64_t>(layout.iterations) * layout.threads_per_row * layout.cluster >= launch.vectors(),
        "kernel ", options.kernel_name, ": ", layout.iterations, " iterations of ", layout.threads_per_row,
        " threads x ", layout.cluster, " blocks do not cover ", launch.vectors(), " vectors");
  }
  run_row_pipeline(launch, RowPassOptions{layout.load_ahead, options.row_last_pass});
  if (!result.misaligned_reduction) result.chunked = emitter.chunked();
  kernel.rows = std::move(launch);
  return result;
}

}  // namespace seam
