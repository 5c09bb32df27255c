// What any launcher pays on this machine, measured with an empty kernel: the floor under seam's per-call
// host cost (bench_rope_gpu --host-floor). Medians of per-call host times.
#pragma once

namespace seam::bench {

struct HostFloor {
  double launch_us = 0;           // cuLaunchKernel of an empty kernel (enqueue only)
  double launch_and_sync_us = 0;  // cuLaunchKernel + cuStreamSynchronize: the wall of an empty launch
  double pointer_query_us = 0;    // cuPointerGetAttribute (device ordinal) of a device address
  double set_context_us = 0;      // cuCtxSetCurrent of the current context
  // Events recorded right before and after the launch (GPU time between them): what the "events around
  // the call" method reads for an empty kernel, and the same with `spin_us` of host work between the first
  // event and the launch. If the events see host time, the second reads about spin_us more.
  double call_events_us = 0, call_events_with_spin_us = 0, spin_us = 0;
};

// Compiles an empty kernel with NVRTC for the current device and times it; needs a GPU.
HostFloor measure_host_floor(int iterations);

}  // namespace seam::bench
