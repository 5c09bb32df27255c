#include "plan/row_plan.h"

#include <algorithm>

#include "plan/pointwise_plan.h"

namespace seam {
namespace {

int64_t power_of_two_at_least(int64_t n) {
  int64_t p = 1;
  while (p < n) p *= 2;
  return p;
}

}  // namespace

RowLayout plan_row_layout(const RowShape& shape, int block_size) {
  int64_t block = 32;
  while (block * 2 <= std::min(block_size, 1024)) block *= 2;
  const int64_t rows = std::max<int64_t>(shape.rows, 1), reduced = std::max<int64_t>(shape.reduced, 1);
  int64_t per_row, rows_per_block;
  if (shape.inner_reduced) {
    per_row = std::min(block, power_of_two_at_least(reduced));
    rows_per_block = block / per_row;
  } else {
    rows_per_block = std::min(block, power_of_two_at_least(rows));
    per_row = block / rows_per_block;
    // Few rows with long reductions: more threads per row, so that more blocks have work.
    constexpr int64_t kEnoughBlocks = 128;
    while (rows_per_block > 32 && (rows + rows_per_block - 1) / rows_per_block < kEnoughBlocks &&
           per_row < reduced) {
      rows_per_block /= 2;
      per_row *= 2;
    }
  }
  return RowLayout{static_cast<int>(rows_per_block), static_cast<int>(per_row), shape.inner_reduced};
}

RowLoweringOptions plan_row_kernel(const Fusion& fusion, RowLoweringOptions knobs) {
  knobs.layout = plan_row_layout(row_shape(fusion), knobs.row_block_size);
  knobs.chunk_schedules.clear();
  if (!row_chunked_outputs(fusion).empty()) {
    LoweringOptions chunks;
    static_cast<LaunchParams&>(chunks) = knobs;
    chunks.kernel_name = knobs.kernel_name;
    knobs.chunk_schedules = plan_pointwise_outputs(row_chunk_fusion(fusion), chunks);
  }
  return knobs;
}

RowLowering plan_and_lower_rows(const Fusion& fusion, const RowLoweringOptions& knobs) {
  return lower_rows(fusion, plan_row_kernel(fusion, knobs));
}

}  // namespace seam
