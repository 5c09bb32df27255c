#include "plan/kernel_knobs.h"

#include <algorithm>

namespace seam {

LaunchParams choose_lowering_params(bool sums_per_chunk, const LaunchParams& defaults) {
  LaunchParams params = defaults;
  if (params.max_group <= 0) params.max_group = sums_per_chunk ? 2 : 1;
  return params;
}

LaunchParams choose_launch_params(const KernelWork& work, const LaunchParams& defaults) {
  LaunchParams params = choose_lowering_params(work.sums_per_chunk, defaults);
  if (params.chunks_per_thread <= 0) params.chunks_per_thread = work.sums_per_chunk && !work.grouped ? 2 : 1;
  if (params.min_blocks_per_sm < 0) {
    const bool heavy = work.sums_per_chunk && work.loaded_bytes_per_chunk > kCappedRegisterBytes;
    params.min_blocks_per_sm = heavy ? kRegistersPerSm / (params.block_size * kCappedRegisters) : 0;
  }
  // A full wave: every multiprocessor holding 2048 threads.
  const int64_t wave_threads = static_cast<int64_t>(std::max(1, defaults.sm_count)) * 2048;
  if (work.total_chunks < wave_threads * params.chunks_per_thread) params.chunks_per_thread = 1;
  return params;
}

}  // namespace seam
