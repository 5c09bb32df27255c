#include "exec/device_upload.h"

#include <algorithm>
#include <memory>

#include "runtime/cuda_driver.h"

namespace seam {

DeviceTensor upload_to_device(const HostTensor& x, CachingDeviceAllocator& allocator) {
  auto buffer = std::make_shared<DeviceBuffer>(allocator, std::max<size_t>(x.storage().size(), 1));
  check_cuda(driver().memcpy_htod(buffer->get(), x.storage().data(), x.storage().size()), "cuMemcpyHtoD");
  return {buffer->get(), x.dtype(), x.shape(), x.strides(), buffer};
}

std::vector<DeviceTensor> upload_to_device(const std::vector<HostTensor>& xs,
                                           CachingDeviceAllocator& allocator) {
  std::vector<DeviceTensor> out;
  for (const HostTensor& x : xs) out.push_back(upload_to_device(x, allocator));
  return out;
}

}  // namespace seam
