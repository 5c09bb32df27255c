// What any launcher pays on this machine, measured with an empty kernel: the floor under seam's per-call
// host cost (bench_rope_gpu --host-floor). Medians of per-call host times.
#pragma once

namespace seam::bench {

struct HostFloor {
  double launch_us = 0;           // cuLaunchKernel of an empty kernel (enqueue only)
  double launch_and_sync_us = 0;  // cuLaunchKernel + cuStreamSynchronize: the wall of an empty launch
  double pointer_query_us = 0;    // cuPointerGetAttribute (device ordinal) of a device address
  double set_context_us = 0;      // cuCtxSetCurrent of the current context
};

// Compiles an empty kernel with NVRTC for the current device and times it; needs a GPU.
HostFloor measure_host_floor(int iterations);

}  // namespace seam::bench
