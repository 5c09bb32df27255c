#include "exec/lowering_options.h"

namespace seam {

LoweringOptions pointwise_lowering_options(const LaunchParams& launch, std::string kernel_name) {
  LoweringOptions options;
  options.kernel_name = std::move(kernel_name);
  options.max_vector_bytes = launch.max_vector_bytes;
  options.branch_free = launch.branch_free;
  options.row_tile = launch.row_tile;
  options.run_row_tile = launch.run_row_tile;
  options.row_tile_min_bytes = launch.row_tile_min_bytes;
  options.max_copies = launch.max_copies;
  options.uniform_branches = launch.uniform_branches;
  options.max_group = launch.max_group;
  options.max_group_loaded_bytes = launch.max_group_loaded_bytes;
  options.keep_reused_loads = launch.keep_reused_loads;
  options.streaming_stores = launch.streaming_stores;
  options.reduction_loop_unroll = launch.reduction_loop_unroll;
  return options;
}

RowLoweringOptions row_lowering_options(const LaunchParams& launch, std::string kernel_name) {
  RowLoweringOptions options;
  options.chunks = pointwise_lowering_options(launch, kernel_name);
  options.kernel_name = std::move(kernel_name);
  options.block_size = launch.row_block_size;
  return options;
}

}  // namespace seam
