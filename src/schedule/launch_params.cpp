#include "schedule/launch_params.h"

#include <algorithm>

namespace seam {

std::string LaunchParams::to_string() const {
  return "block " + std::to_string(block_size) + ", chunks/thread " + std::to_string(chunks_per_thread) +
         ", grid " +
         (max_blocks_per_sm > 0 ? "<= " + std::to_string(max_blocks_per_sm) + " blocks/SM" : "uncapped") +
         ", vectors <= " + std::to_string(max_vector_bytes) + " B" + (branch_free ? ", branch-free" : "") +
         (row_tile > 1 ? ", rows tiled by " + std::to_string(row_tile) : "") +
         (max_copies > 1 ? ", copies <= " + std::to_string(max_copies) : "") +
         (uniform_branches ? ", uniform branches" : "");
}

LaunchParams choose_launch_params(int64_t total_chunks, const LaunchParams& defaults) {
  LaunchParams params = defaults;
  // A full wave: every multiprocessor holding 2048 threads.
  const int64_t wave_threads = static_cast<int64_t>(std::max(1, defaults.sm_count)) * 2048;
  if (total_chunks < wave_threads * std::max(1, defaults.chunks_per_thread)) params.chunks_per_thread = 1;
  return params;
}

}  // namespace seam
