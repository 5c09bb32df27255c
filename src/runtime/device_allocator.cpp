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
  backend.create_event = [] {
    CUevent event = nullptr;
    SEAM_CU(event_create, &event, CU_EVENT_DISABLE_TIMING);  // no timestamp: cheaper to record
    return event;
  };
  backend.destroy_event = [](CUevent event) { SEAM_CU(event_destroy, event); };
  backend.record_event = [](CUevent event, CUstream stream) { SEAM_CU(event_record, event, stream); };
  backend.event_done = [](CUevent event) {
    const CUresult result = driver().event_query(event);
    if (result == CUDA_ERROR_NOT_READY) return false;
    check_cuda(result, Driver::api_name_event_query, "a freed block's use on another stream");
    return true;
  };
  backend.synchronize = [] { SEAM_CU(ctx_synchronize); };
  return backend;
}

CachingDeviceAllocator::CachingDeviceAllocator(AllocatorBackend backend) : backend_(std::move(backend)) {
  SEAM_ASSERT(backend_.allocate && backend_.free, "allocator backend needs allocate and free");
  const int event_functions = (backend_.create_event ? 1 : 0) + (backend_.destroy_event ? 1 : 0) +
                              (backend_.record_event ? 1 : 0) + (backend_.event_done ? 1 : 0);
  SEAM_ASSERT(event_functions == 0 || (event_functions == 4 && backend_.synchronize),
              "allocator backend needs all four event functions and synchronize, or no events");
}

CachingDeviceAllocator::~CachingDeviceAllocator() {
  try {
    release_all();
    for (CUevent event : free_events_) backend_.destroy_event(event);
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

DevicePtr CachingDeviceAllocator::allocate(size_t bytes, CUstream stream) {
  const size_t size = round_size(bytes);
  SEAM_CHECK(!is_per_thread_stream(stream),
             "device memory for the per-thread default stream "
             "(CU_STREAM_PER_THREAD): pass a stream handle, or 0 for the legacy default stream");
  std::lock_guard<std::mutex> lock(mutex_);
  if (!pending_.empty()) process_pending_locked();
  DevicePtr ptr = 0;
  if (auto it = cached_.find(key(stream, size)); it != cached_.end()) {
    ptr = it->second;
    cached_.erase(it);
    stats_.cached_bytes -= size;
    ++stats_.hits;
  } else {
    ++stats_.misses;
    ptr = backend_.allocate(size);
    if (ptr == 0 && (!cached_.empty() || !pending_.empty())) {
      // Out of memory while holding blocks cached for this or other streams, or waiting for them: once
      // the device is idle none is in use, so give them all back and try once more.
      ++stats_.oom_retries;
      release_everything_locked();
      ptr = backend_.allocate(size);
    }
    SEAM_CHECK(ptr != 0, "out of device memory allocating ", bytes, " bytes (", size,
               " rounded); seam holds ", stats_.in_use_bytes, " bytes in use and ", stats_.cached_bytes,
               " cached");
    SEAM_ASSERT(ptr % kMinAlignment == 0, "backend returned a block not aligned to 256 bytes");
    ++stats_.backend_allocs;
    stats_.reserved_bytes += size;
  }
  Block block;
  block.size = size;
  block.stream = stream;
  SEAM_ASSERT(in_use_.emplace(ptr, std::move(block)).second, "backend returned an address already in use");
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
  Block block = std::move(it->second);
  in_use_.erase(it);
  stats_.in_use_bytes -= block.size;
  if (block.used_on.empty()) {  // the common case: only its own stream used it
    cached_.emplace(key(block.stream, block.size), ptr);
    stats_.cached_bytes += block.size;
    return;
  }
  Pending pending;
  pending.ptr = ptr;
  pending.size = block.size;
  pending.stream = block.stream;
  bool recorded_all = true;
  for (const auto& [stream, event] : block.used_on) {
    try {
      backend_.record_event(event, stream);
      pending.events.push_back(event);
      ++stats_.events_recorded;
    } catch (...) {
      recorded_all = false;
      free_events_.push_back(event);  // never recorded: its last use has completed
    }
  }
  if (!recorded_all) {
    // Without the event only a synchronization tells when that stream is done with the block. Should that
    // fail too the context is broken: the block is never reused (it stays reserved).
    try {
      synchronize_locked();
    } catch (...) {
      return;
    }
    free_events_.insert(free_events_.end(), pending.events.begin(), pending.events.end());
    cached_.emplace(key(block.stream, block.size), ptr);
    stats_.cached_bytes += block.size;
    return;
  }
  stats_.pending_bytes += block.size;
  pending_.push_back(std::move(pending));
}

void CachingDeviceAllocator::record_stream(DevicePtr ptr, CUstream stream) {
  if (ptr == 0) return;
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = in_use_.find(ptr);
  SEAM_ASSERT(it != in_use_.end(), "record_stream of device address ", ptr, " that is not in use");
  Block& block = it->second;
  if (stream == block.stream) return;
  for (const auto& use : block.used_on)
    if (use.first == stream) return;
  SEAM_ASSERT(has_events(), "record_stream needs an allocator backend with events");
  block.used_on.emplace_back(stream, take_event_locked());
}

CUevent CachingDeviceAllocator::take_event_locked() {
  if (!free_events_.empty()) {
    CUevent event = free_events_.back();
    free_events_.pop_back();
    return event;
  }
  CUevent event = backend_.create_event();
  ++stats_.events_created;
  return event;
}

void CachingDeviceAllocator::process_pending_locked() {
  // Queries first (a query may throw a sticky error of the context: the list stays whole), then moves
  // the blocks whose streams are all past the free to their own stream's cache.
  for (Pending& p : pending_) {
    while (!p.events.empty() && backend_.event_done(p.events.back())) {
      free_events_.push_back(p.events.back());
      p.events.pop_back();
    }
  }
  auto done =
      std::partition(pending_.begin(), pending_.end(), [](const Pending& p) { return !p.events.empty(); });
  for (auto it = done; it != pending_.end(); ++it) {
    stats_.pending_bytes -= it->size;
    cached_.emplace(key(it->stream, it->size), it->ptr);
    stats_.cached_bytes += it->size;
  }
  pending_.erase(done, pending_.end());
}

void CachingDeviceAllocator::synchronize_locked() {
  if (!backend_.synchronize) return;
  backend_.synchronize();
  ++stats_.synchronizations;
}

void CachingDeviceAllocator::release_cached_locked(const CUstream* only) {
  auto it = only ? cached_.lower_bound(key(*only, 0)) : cached_.begin();
  const auto end = only ? cached_.upper_bound(key(*only, std::numeric_limits<size_t>::max())) : cached_.end();
  while (it != end) {
    const auto [pool, ptr] = *it;
    it = cached_.erase(it);
    stats_.cached_bytes -= pool.second;
    stats_.reserved_bytes -= pool.second;
    ++stats_.backend_frees;
    backend_.free(ptr);
  }
}

void CachingDeviceAllocator::release_everything_locked() {
  synchronize_locked();
  for (Pending& p : pending_) {  // every event has completed now
    free_events_.insert(free_events_.end(), p.events.begin(), p.events.end());
    stats_.pending_bytes -= p.size;
    cached_.emplace(key(p.stream, p.size), p.ptr);
    stats_.cached_bytes += p.size;
  }
  pending_.clear();
  release_cached_locked(nullptr);
}

void CachingDeviceAllocator::release_all() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (cached_.empty() && pending_.empty()) return;
  release_everything_locked();
}

void CachingDeviceAllocator::release_stream(CUstream stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto first = cached_.lower_bound(key(stream, 0));
  const bool cached = first != cached_.end() && first->first.first == key(stream, 0).first;
  const bool pending =
      std::any_of(pending_.begin(), pending_.end(), [&](const Pending& p) { return p.stream == stream; });
  if (!cached && !pending) return;
  synchronize_locked();
  process_pending_locked();  // all complete now: the stream's pending blocks join its cache
  release_cached_locked(&stream);
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
