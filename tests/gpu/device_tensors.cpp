#include "device_tensors.h"

#include <cstring>
#include <memory>
#include <vector>

#include "runtime/device_allocator.h"

namespace seam {
namespace {

CachingDeviceAllocator& allocator() {
  static CachingDeviceAllocator* a = new CachingDeviceAllocator(cuda_driver_backend());
  return *a;
}

}  // namespace

DeviceTensor to_device(const HostTensor& x, size_t shift) {
  auto buffer = std::make_shared<DeviceBuffer>(allocator(), x.storage().size() + shift + 1);
  DevicePtr data = buffer->get() + shift;
  if (!x.storage().empty())
    check_cuda(driver().memcpy_htod(data, x.storage().data(), x.storage().size()), "cuMemcpyHtoD");
  return {data, x.dtype(), x.shape(), x.strides(), buffer};
}

HostTensor to_host(const DeviceTensor& t) {
  HostTensor out = HostTensor::zeros(t.dtype, t.shape);
  const int size = dtype_size(t.dtype);
  int64_t span = 1;
  for (size_t d = 0; d < t.shape.size(); ++d) span += (t.shape[d] - 1) * t.strides[d];
  std::vector<std::byte> raw(static_cast<size_t>(span * size));
  if (out.numel() > 0) check_cuda(driver().memcpy_dtoh(raw.data(), t.data, raw.size()), "cuMemcpyDtoH");
  Shape idx(t.shape.size(), 0);
  for (int64_t e = 0; e < out.numel(); ++e) {
    int64_t offset = 0;
    for (size_t d = 0; d < idx.size(); ++d) offset += idx[d] * t.strides[d];
    std::memcpy(out.storage().data() + e * size, raw.data() + offset * size, static_cast<size_t>(size));
    for (size_t d = idx.size(); d-- > 0;) {
      if (++idx[d] < t.shape[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

}  // namespace seam
