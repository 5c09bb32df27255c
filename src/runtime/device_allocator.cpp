#include "runtime/device_allocator.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "runtime/cuda_driver.h"
#include "support/error.h"

namespace seam {

AllocatorBackend cuda_driver_backend() {
  AllocatorBackend backend;
  backend.allocate = [](size_t bytes) -> DevicePtr {
    CUdeviceptr ptr = 0;
    CUresult result = driver().mem_alloc(&ptr, bytes);
    if (result == CUDA_ERROR_OUT_OF_MEMORY) return 0;
    check_cuda(result, Driver::api_name_mem_alloc, std::to_string(bytes) + " bytes");
    return static_cast<DevicePtr>(ptr);
  };
  backend.free = [](DevicePtr ptr) { SEAM_CU(mem_free, static_cast<CUdeviceptr>(ptr)); };
  return backend;
}

CachingDeviceAllocator::CachingDeviceAllocator(AllocatorBackend backend) : backend_(std::move(backend)) {
  SEAM_ASSERT(backend_.allocate && backend_.free, "allocator backend needs allocate and free");
}

CachingDeviceAllocator::~CachingDeviceAllocator() {
  try {
    release_all();
  } catch (...) {
    // The driver may already be shutting down at exit; nothing useful to do with the error here.
  }
}

size_t CachingDeviceAllocator::round_size(size_t bytes) {
  bytes = std::max<size_t>(bytes, 1);
  const size_t granularity = bytes < kLargeThreshold ? kSmallGranularity : kLargeGranularity;
  SEAM_CHECK(bytes <= std::numeric_limits<size_t>::max() - granularity, "device allocation of ", bytes,
             " bytes is too large");
  return (bytes + granularity - 1) / granularity * granularity;
}

DevicePtr CachingDeviceAllocator::allocate(size_t bytes) {
  const size_t size = round_size(bytes);
  std::lock_guard<std::mutex> lock(mutex_);
  DevicePtr ptr = 0;
  if (auto it = cached_.find(size); it != cached_.end()) {
    ptr = it->second;
    cached_.erase(it);
    stats_.cached_bytes -= size;
    ++stats_.hits;
  } else {
    ++stats_.misses;
    ptr = backend_.allocate(size);
    if (ptr == 0 && !cached_.empty()) {
      // Out of memory while holding cached blocks of other sizes: give them back and try once more.
      ++stats_.oom_retries;
      release_cached_locked();
      ptr = backend_.allocate(size);
    }
    SEAM_CHECK(ptr != 0, "out of device memory allocating ", bytes, " bytes (", size,
               " rounded); seam holds ", stats_.in_use_bytes, " bytes in use and ", stats_.cached_bytes,
               " cached");
    SEAM_ASSERT(ptr % kMinAlignment == 0, "backend returned a block not aligned to 256 bytes");
    ++stats_.backend_allocs;
    stats_.reserved_bytes += size;
  }
  SEAM_ASSERT(in_use_.emplace(ptr, size).second, "backend returned an address already in use");
  stats_.in_use_bytes += size;
  stats_.peak_in_use_bytes = std::max(stats_.peak_in_use_bytes, stats_.in_use_bytes);
  return ptr;
}

void CachingDeviceAllocator::free(DevicePtr ptr) {
  if (ptr == 0) return;
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = in_use_.find(ptr);
  SEAM_ASSERT(it != in_use_.end(), "freeing device address ", ptr,
              " that this allocator did not hand out (or freed twice)");
  const size_t size = it->second;
  in_use_.erase(it);
  cached_.emplace(size, ptr);
  stats_.in_use_bytes -= size;
  stats_.cached_bytes += size;
}

void CachingDeviceAllocator::release_cached_locked() {
  while (!cached_.empty()) {
    auto it = cached_.begin();
    const auto [size, ptr] = *it;
    cached_.erase(it);
    stats_.cached_bytes -= size;
    stats_.reserved_bytes -= size;
    ++stats_.backend_frees;
    backend_.free(ptr);
  }
}

void CachingDeviceAllocator::release_all() {
  std::lock_guard<std::mutex> lock(mutex_);
  release_cached_locked();
}

AllocatorStats CachingDeviceAllocator::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
  if (this != &other) {
    reset();
    allocator_ = std::exchange(other.allocator_, nullptr);
    ptr_ = std::exchange(other.ptr_, 0);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

void DeviceBuffer::reset() {
  if (allocator_ != nullptr && ptr_ != 0) allocator_->free(ptr_);
  allocator_ = nullptr;
  ptr_ = 0;
  bytes_ = 0;
}

}  // namespace seam
