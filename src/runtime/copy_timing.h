// What a plain device-to-device copy reaches on this GPU: the yardstick of memory-bound benchmarks. A fusion
// that moves B bytes (inputs read, outputs written) cannot beat a copy moving B bytes (half read, half
// written), so benchmarks report their time next to such a copy measured in the same process.
#pragma once

namespace seam {

// GPU time of cuMemcpyDtoDAsync moving `bytes` in total (half read, half written), ramp-up and tail
// included: the median over `iterations` copies bracketed by events and, when `kernel_durations`, the
// median of the copies' own durations as CUPTI records them (runtime/kernel_activity.h); kernel_us stays -1
// without it. Needs a current context.
struct CopyTime {
  double events_us = 0, kernel_us = -1;
};
CopyTime time_device_copy(double bytes, int iterations, bool kernel_durations);

// The device-to-device copy rate (bytes read + written per second) of a 2 GiB transfer, by events: the
// rate at which byte floors are converted to microseconds.
double device_copy_rate_bytes_per_s();

}  // namespace seam
