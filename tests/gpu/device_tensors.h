// Device tensors for the GPU tests: host tensors copied to device memory (optionally at a misaligned
// address) and device tensors read back, through seam's own allocator and driver.
#pragma once

#include <cstddef>

#include "exec/device_tensor.h"
#include "runtime/cuda_driver.h"
#include "tensor/host_tensor.h"

#define SKIP_WITHOUT_GPU() \
  if (!::seam::driver_status().available) GTEST_SKIP() << ::seam::driver_status().reason

namespace seam {

// Copies a host tensor's storage to a new device buffer, `shift` bytes past an aligned address.
DeviceTensor to_device(const HostTensor& x, size_t shift = 0);

// Reads a (possibly strided) device tensor back as a contiguous host tensor.
HostTensor to_host(const DeviceTensor& t);

}  // namespace seam
