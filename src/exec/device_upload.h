// Host tensors copied to device memory as DeviceTensors, for callers of Executable::run_device that keep
// inputs on the GPU across many runs (benchmarks).
#pragma once

#include <vector>

#include "exec/device_tensor.h"
#include "runtime/device_allocator.h"
#include "tensor/host_tensor.h"

namespace seam {

// A copy of `x`'s storage (its strides kept) in a new buffer of `allocator`, owned by the result; needs a
// current context.
DeviceTensor upload_to_device(const HostTensor& x, CachingDeviceAllocator& allocator);
std::vector<DeviceTensor> upload_to_device(const std::vector<HostTensor>& xs,
                                           CachingDeviceAllocator& allocator);

}  // namespace seam
