#include "runtime/copy_timing.h"

#include <cstddef>

#include "runtime/cuda_driver.h"
#include "runtime/device_allocator.h"
#include "runtime/event_timer.h"
#include "runtime/kernel_activity.h"

namespace seam {
namespace {

// The copies' buffers come from an allocator of their own, so that they never share cached blocks with
// the fusions timed next to them; kept until exit like the device.
CachingDeviceAllocator& copy_allocator() {
  static CachingDeviceAllocator* allocator = new CachingDeviceAllocator(cuda_driver_backend());
  return *allocator;
}

}  // namespace

CopyTime time_device_copy(double bytes, int iterations, bool kernel_durations) {
  const size_t half = static_cast<size_t>(bytes / 2) & ~size_t{255};
  CopyTime t;
  {
    DeviceBuffer src(copy_allocator(), half), dst(copy_allocator(), half);
    Stream stream;
    auto copy = [&](CUstream s) {
      check_cuda(driver().memcpy_dtod_async(dst.get(), src.get(), half, s), "cuMemcpyDtoDAsync");
    };
    t.events_us = time_launches(copy, stream.get(), iterations, 3).median_ms * 1e3;
    if (kernel_durations) {
      ActivityRecording recording;
      time_launches(copy, stream.get(), iterations, 3);
      t.kernel_us = median_run_us(recording.finish(), ActivityRecord::Kind::Copy, 1, iterations);
    }
  }
  // The buffers go back to the driver: a 2 GiB copy's memory is not kept from the fusions timed next.
  copy_allocator().release_all();
  return t;
}

double device_copy_rate_bytes_per_s() {
  const double bytes = 2.0 * double(size_t{1} << 30);
  return bytes / (time_device_copy(bytes, 20, false).events_us * 1e-6);
}

}  // namespace seam
