// A caching allocator of device memory. cuMemAlloc and cuMemFree synchronize and cost tens of
// microseconds; a fusion run allocates the same sizes over and over, so freed blocks are kept by size
// class and handed out again. Sizes round up to 512 bytes below 1 MiB and to 2 MiB above; a request is
// served by a cached block of exactly its class. The logic runs over an injectable backend so it is
// tested on the CPU.
//
// Streams: every block belongs to the stream it was allocated for, and a freed block is cached in that
// stream's pool only. An allocation on stream S takes blocks from S's pool alone, at once: whatever S had
// queued on the block runs before whatever S queues next, so stream order makes the reuse safe without a
// driver call. Per-stream pools rather than an event per free: a run frees its intermediates every call,
// and an event recorded per free (then queried per allocation) would add driver calls to the single-stream
// path, which with pools costs nothing more than the map lookup it always had. The price is that memory
// cached for one stream is not reused by another: memory cached for a stream nobody uses any more stays
// until an allocation would fail (then the device is synchronized, so that no queued work still uses any
// cached block, and every stream's cache is given back before the one retry), until release_all(), or
// until release_stream() for a stream its owner is about to destroy.
//
// A block used on other streams than its own (an output handed to a consumer on another stream) is
// declared with record_stream(): when it is freed, an event is recorded on each of those streams and the
// block waits, uncached, until all have completed (queried at the next allocations, never waited on,
// except before an out-of-memory retry). Only blocks with such uses cost events.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "runtime/cuda_api.h"

namespace seam {

using DevicePtr = uint64_t;  // a device address, as CUdeviceptr

// CU_STREAM_PER_THREAD: one handle naming a different stream in each thread, so it cannot key a pool (or
// a workspace); seam refuses it. The legacy default stream (nullptr, or CU_STREAM_LEGACY) is fine.
inline bool is_per_thread_stream(CUstream stream) { return reinterpret_cast<uintptr_t>(stream) == 2; }

struct AllocatorBackend {
  // Returns the address of a block of exactly `bytes`, aligned to at least 256 bytes, or 0 when out of
  // memory; throws seam::Error on any other failure.
  std::function<DevicePtr(size_t bytes)> allocate;
  std::function<void(DevicePtr ptr)> free;
  // Events, for blocks used on streams other than their own (record_stream); all four or none.
  std::function<CUevent()> create_event;
  std::function<void(CUevent)> destroy_event;
  std::function<void(CUevent, CUstream)> record_event;
  std::function<bool(CUevent)> event_done;  // true once the work queued before the record completed
  // Waits until all work queued on the device completed; called before cached blocks of possibly busy
  // streams go back to the backend. Optional: without it the backend's free must wait itself.
  std::function<void()> synchronize;
};

// The backend over the driver in the calling thread's current context: cuMemAlloc/cuMemFree, events
// without timing, cuCtxSynchronize.
AllocatorBackend cuda_driver_backend();

struct AllocatorStats {
  size_t in_use_bytes = 0;    // handed out and not yet freed (rounded sizes)
  size_t cached_bytes = 0;    // freed, kept for reuse on their stream
  size_t pending_bytes = 0;   // freed, waiting for other streams' work before they are cached
  size_t reserved_bytes = 0;  // taken from the backend: in use + cached + pending
  size_t peak_in_use_bytes = 0;
  int64_t hits = 0;            // allocations served from the cache
  int64_t misses = 0;          // allocations that went to the backend
  int64_t backend_allocs = 0;  // successful backend allocations
  int64_t backend_frees = 0;
  int64_t oom_retries = 0;       // times the cache was released because the backend was out of memory
  int64_t synchronizations = 0;  // times the device was synchronized before releasing cached blocks
  int64_t events_recorded = 0;   // frees of blocks used on other streams, one per such stream
  int64_t events_created = 0;    // events are reused: at most as many as were pending at once
};

class CachingDeviceAllocator {
 public:
  static constexpr size_t kSmallGranularity = 512;
  static constexpr size_t kLargeThreshold = size_t{1} << 20;    // 1 MiB
  static constexpr size_t kLargeGranularity = size_t{2} << 20;  // 2 MiB
  static constexpr size_t kMinAlignment = 256;

  explicit CachingDeviceAllocator(AllocatorBackend backend);
  // Returns every cached and pending block (after synchronizing); blocks in use are left to the context.
  ~CachingDeviceAllocator();
  CachingDeviceAllocator(const CachingDeviceAllocator&) = delete;
  CachingDeviceAllocator& operator=(const CachingDeviceAllocator&) = delete;

  // The size class of a request: what allocate(bytes) really reserves.
  static size_t round_size(size_t bytes);

  // A block of at least `bytes` (0 is treated as 1), aligned to 256 bytes, for work queued on `stream`
  // (nullptr: the legacy default stream); throws seam::Error naming the request and the allocator's usage
  // when the device is out of memory.
  DevicePtr allocate(size_t bytes, CUstream stream = nullptr);
  // Returns a block from allocate() to its stream's cache (or to the pending list when it was used on
  // other streams); throws seam::InternalError for any other address.
  void free(DevicePtr ptr);
  // Declares that work on `stream`, queued before the block is freed, uses the block: it is not reused
  // before that work completes. A no-op for the block's own stream; needs a backend with events.
  void record_stream(DevicePtr ptr, CUstream stream);
  // Synchronizes the device and gives every cached and pending block back to the backend (blocks in use
  // are kept).
  void release_all();
  // Synchronizes the device and gives the blocks cached for `stream` back to the backend: for a stream
  // about to be destroyed, whose pool nobody would draw from again.
  void release_stream(CUstream stream);

  AllocatorStats stats() const;

 private:
  struct Block {
    size_t size = 0;
    CUstream stream = nullptr;
    std::vector<std::pair<CUstream, CUevent>> used_on;  // other streams (record_stream), an event each
  };
  struct Pending {
    DevicePtr ptr = 0;
    size_t size = 0;
    CUstream stream = nullptr;
    std::vector<CUevent> events;  // not yet completed
  };
  using PoolKey = std::pair<uintptr_t, size_t>;  // stream, rounded size

  static PoolKey key(CUstream stream, size_t size) { return {reinterpret_cast<uintptr_t>(stream), size}; }
  bool has_events() const { return static_cast<bool>(backend_.create_event); }
  CUevent take_event_locked();
  void process_pending_locked();
  void synchronize_locked();
  // Gives cached blocks back to the backend: those of `only` when given, else all.
  void release_cached_locked(const CUstream* only);
  // Synchronizes, then gives back every pending and cached block.
  void release_everything_locked();

  AllocatorBackend backend_;
  mutable std::mutex mutex_;
  std::unordered_map<DevicePtr, Block> in_use_;
  std::multimap<PoolKey, DevicePtr> cached_;
  std::vector<Pending> pending_;
  std::vector<CUevent> free_events_;  // completed (or never recorded), ready to record again
  AllocatorStats stats_;
};

// A block of device memory owned by a caching allocator, for work on one stream, freed on destruction.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(CachingDeviceAllocator& allocator, size_t bytes, CUstream stream = nullptr)
      : allocator_(&allocator), ptr_(allocator.allocate(bytes, stream)), bytes_(bytes) {}
  ~DeviceBuffer() { reset(); }
  DeviceBuffer(DeviceBuffer&& other) noexcept { *this = std::move(other); }
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  DevicePtr get() const { return ptr_; }
  size_t size() const { return bytes_; }
  // Work queued on `stream` before this buffer is freed uses it (CachingDeviceAllocator::record_stream).
  void record_stream(CUstream stream) {
    if (allocator_ != nullptr) allocator_->record_stream(ptr_, stream);
  }
  void reset();

 private:
  CachingDeviceAllocator* allocator_ = nullptr;
  DevicePtr ptr_ = 0;
  size_t bytes_ = 0;
};

}  // namespace seam
