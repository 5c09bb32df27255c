// What a row kernel reduces and how its threads share rows: the shape every lowering and planning
// decision about a row kernel starts from, and the layout the plan decides (plan/row_plan.h) and
// lowering follows (lower/lower_rows.h). Where it writes each output: lower/row_outputs.h.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "ir/fusion.h"

namespace seam {

// What a row kernel reduces: the operand shape S of its reductions, their axes, its rows (S's non-reduced
// index space) and each row's reduced elements. A kernel whose only reductions are f32 sums over leading
// axes (a weight gradient alone) takes the kept axes as its rows' elements: the sums become outer
// reductions of those rows (docs/CODEGEN.md, "Lone column sums"). Throws seam::Error when `fusion` has
// no reduction.
struct RowShape {
  Shape shape;
  std::vector<int64_t> axes;
  int64_t rows = 1, reduced = 1;
  bool inner_reduced = false;  // the reduced axes include the innermost one
};
RowShape row_shape(const Fusion& fusion);

// How the threads of a block share rows (decided by the plan, plan/row_plan.h): rows_per_block rows of
// threads_per_row threads, a power of two in all from 32 to 1024; a row's threads consecutive
// (lanes_contiguous) or rows_per_block apart. A row loop visits vectors of `vector` elements (a divisor
// of the innermost reduced extent; > 1 only when that axis is S's innermost); `iterations` > 0 makes
// the kernel persistent (kir::RowLaunch): each thread's share of the row, ceil(reduced / vector /
// threads_per_row) vectors, is loaded once into registers and every pass reads it there.
struct RowLayout {
  int rows_per_block = 1;
  int threads_per_row = 32;
  bool lanes_contiguous = true;
  int vector = 1;
  int iterations = 0;
  bool peel = false;  // vectors aligned to each row's start, `vector` need not divide it (lower/row_peel.h)
  bool peel_columns = false;  // with `peel`: aligned to the columns instead (kir::RowLaunch::peel_columns)
  // > 1: a row is shared by the `cluster` blocks of a thread block cluster (rows_per_block 1), each
  // holding threads_per_row of its threads; vector k goes to the row's thread k % (cluster * threads).
  int cluster = 1;
  // With outer reductions (lower/outer_reductions.h): the grid, a workspace row of partials per block,
  // and the blocks per multiprocessor it was sized for (the kernel's launch bounds hold the compiler to
  // it).
  int64_t partial_blocks = 0;
  int min_blocks_per_sm = 0;
  // A block's next row group is loaded into registers while it computes the current one
  // (kir::RowLaunch::load_ahead).
  bool load_ahead = false;
};

// The reduction whose operand shape and axes are a row kernel's S and R: the first reduction, unless
// another one reduces the same shape over the complementary axes and holds the innermost one (the row
// reductions of a kernel with outer reductions, lower/outer_reductions.h). nullopt when the fusion has no
// reduction.
std::optional<Value> row_defining_reduction(const Fusion& fusion);

// The axes of a shape of rank `rank` that the sorted `axes` leave out, in order.
std::vector<int64_t> kept_axes(const std::vector<int64_t>& axes, size_t rank);

}  // namespace seam
