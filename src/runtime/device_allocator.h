// A caching allocator of device memory. cuMemAlloc and cuMemFree synchronize and cost tens of
// microseconds; a fusion run allocates the same sizes over and over, so freed blocks are kept by size
// class and handed out again. Sizes round up to 512 bytes below 1 MiB and to 2 MiB above; a request is
// served by a cached block of exactly its class. When the backend is out of memory, the cache is released
// and the allocation tried once more. The logic runs over an injectable backend so it is tested on the CPU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <unordered_map>

namespace seam {

using DevicePtr = uint64_t;  // a device address, as CUdeviceptr

struct AllocatorBackend {
  // Returns the address of a block of exactly `bytes`, aligned to at least 256 bytes, or 0 when out of
  // memory; throws seam::Error on any other failure.
  std::function<DevicePtr(size_t bytes)> allocate;
  std::function<void(DevicePtr ptr)> free;
};

// The backend over cuMemAlloc/cuMemFree in the calling thread's current context.
AllocatorBackend cuda_driver_backend();

struct AllocatorStats {
  size_t in_use_bytes = 0;    // handed out and not yet freed (rounded sizes)
  size_t cached_bytes = 0;    // freed, kept for reuse
  size_t reserved_bytes = 0;  // taken from the backend: in use + cached
  size_t peak_in_use_bytes = 0;
  int64_t hits = 0;            // allocations served from the cache
  int64_t misses = 0;          // allocations that went to the backend
  int64_t backend_allocs = 0;  // successful backend allocations
  int64_t backend_frees = 0;
  int64_t oom_retries = 0;  // times the cache was released because the backend was out of memory
};

class CachingDeviceAllocator {
 public:
  static constexpr size_t kSmallGranularity = 512;
  static constexpr size_t kLargeThreshold = size_t{1} << 20;    // 1 MiB
  static constexpr size_t kLargeGranularity = size_t{2} << 20;  // 2 MiB
  static constexpr size_t kMinAlignment = 256;

  explicit CachingDeviceAllocator(AllocatorBackend backend);
  ~CachingDeviceAllocator();  // returns every cached block; blocks still in use are left to the context
  CachingDeviceAllocator(const CachingDeviceAllocator&) = delete;
  CachingDeviceAllocator& operator=(const CachingDeviceAllocator&) = delete;

  // The size class of a request: what allocate(bytes) really reserves.
  static size_t round_size(size_t bytes);

  // A block of at least `bytes` (0 is treated as 1), aligned to 256 bytes; throws seam::Error naming the
  // request and the allocator's usage when the device is out of memory.
  DevicePtr allocate(size_t bytes);
  // Returns a block from allocate() to the cache; throws seam::InternalError for any other address.
  void free(DevicePtr ptr);
  // Gives every cached block back to the backend (blocks in use are kept).
  void release_all();

  AllocatorStats stats() const;

 private:
  void release_cached_locked();

  AllocatorBackend backend_;
  mutable std::mutex mutex_;
  std::unordered_map<DevicePtr, size_t> in_use_;  // address -> rounded size
  std::multimap<size_t, DevicePtr> cached_;       // rounded size -> address
  AllocatorStats stats_;
};

// A block of device memory owned by a caching allocator, freed on destruction.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(CachingDeviceAllocator& allocator, size_t bytes)
      : allocator_(&allocator), ptr_(allocator.allocate(bytes)), bytes_(bytes) {}
  ~DeviceBuffer() { reset(); }
  DeviceBuffer(DeviceBuffer&& other) noexcept { *this = std::move(other); }
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  DevicePtr get() const { return ptr_; }
  size_t size() const { return bytes_; }
  void reset();

 private:
  CachingDeviceAllocator* allocator_ = nullptr;
  DevicePtr ptr_ = 0;
  size_t bytes_ = 0;
};

}  // namespace seam
