// The caching allocator's logic over a fake backend that checks every call it receives.
#include "runtime/device_allocator.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <thread>

#include "support/error.h"

namespace seam {
namespace {

constexpr size_t KiB = 1024;
constexpr size_t MiB = 1024 * 1024;

// Hands out fake, 256-byte aligned addresses (never the same twice) up to a capacity; fails the test on a
// bad free. Streams are numbers with work queued and completed as the test says; an event recorded on a
// stream completes once the stream's work up to the record has completed; synchronize completes all.
class FakeBackend {
 public:
  explicit FakeBackend(size_t capacity = 1024 * MiB) : capacity_(capacity) {}

  static CUstream stream(int n) { return reinterpret_cast<CUstream>(static_cast<uintptr_t>(n) * 16); }

  AllocatorBackend backend() {
    AllocatorBackend b;
    b.allocate = [this](size_t bytes) { return allocate(bytes); };
    b.free = [this](DevicePtr ptr) { release(ptr); };
    b.create_event = [this] {
      std::lock_guard<std::mutex> lock(mutex_);
      events_.push_back({});
      return reinterpret_cast<CUevent>(events_.size());
    };
    b.destroy_event = [this](CUevent event) {
      std::lock_guard<std::mutex> lock(mutex_);
      ++destroyed_events_;
      event_at(event).destroyed = true;
    };
    b.record_event = [this](CUevent event, CUstream s) {
      std::lock_guard<std::mutex> lock(mutex_);
      Event& e = event_at(event);
      e.stream = s;
      e.tick = queued_[s];
    };
    b.event_done = [this](CUevent event) {
      std::lock_guard<std::mutex> lock(mutex_);
      const Event& e = event_at(event);
      return completed_[e.stream] >= e.tick;
    };
    b.synchronize = [this] {
      std::lock_guard<std::mutex> lock(mutex_);
      ++synchronizations_;
      completed_ = queued_;
    };
    return b;
  }
  // Work queued on a stream (a kernel that uses the blocks the test says), and its completion.
  void enqueue(CUstream s) {
    std::lock_guard<std::mutex> lock(mutex_);
    ++queued_[s];
  }
  void complete(CUstream s) {
    std::lock_guard<std::mutex> lock(mutex_);
    completed_[s] = queued_[s];
  }
  size_t live_blocks() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return live_.size();
  }
  size_t live_bytes() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return used_;
  }
  int allocs() const { return allocs_; }
  int synchronizations() const { return synchronizations_; }
  size_t events() const { return events_.size(); }
  int destroyed_events() const { return destroyed_events_; }

 private:
  struct Event {
    CUstream stream = nullptr;
    int64_t tick = 0;
    bool destroyed = false;
  };
  Event& event_at(CUevent event) {
    const size_t index = reinterpret_cast<uintptr_t>(event);
    EXPECT_TRUE(index >= 1 && index <= events_.size() && !events_[index - 1].destroyed) << "bad event";
    return events_.at(index - 1);
  }
  DevicePtr allocate(size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (used_ + bytes > capacity_) return 0;  // out of memory
    DevicePtr ptr = next_;
    next_ += (bytes + 4095) / 4096 * 4096 + 4096;
    live_[ptr] = bytes;
    used_ += bytes;
    ++allocs_;
    return ptr;
  }
  void release(DevicePtr ptr) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = live_.find(ptr);
    ASSERT_NE(it, live_.end()) << "backend freed an address it never gave out";
    // A cached block goes back only once no stream has queued work that may still use it.
    for (const auto& [s, queued] : queued_)
      EXPECT_EQ(completed_[s], queued) << "a block was given back while stream work was queued";
    used_ -= it->second;
    live_.erase(it);
  }

  mutable std::mutex mutex_;
  size_t capacity_;
  size_t used_ = 0;
  DevicePtr next_ = 0x7f0000000000;
  std::map<DevicePtr, size_t> live_;
  int allocs_ = 0;
  std::map<CUstream, int64_t> queued_, completed_;
  std::vector<Event> events_;
  int destroyed_events_ = 0;
  int synchronizations_ = 0;
};

TEST(CachingDeviceAllocator, SizeClasses) {
  using A = CachingDeviceAllocator;
  EXPECT_EQ(A::round_size(0), 512u);
  EXPECT_EQ(A::round_size(1), 512u);
  EXPECT_EQ(A::round_size(512), 512u);
  EXPECT_EQ(A::round_size(513), 1024u);
  EXPECT_EQ(A::round_size(MiB - 1), MiB);
  EXPECT_EQ(A::round_size(MiB), 2 * MiB);
  EXPECT_EQ(A::round_size(2 * MiB + 1), 4 * MiB);
  EXPECT_EQ(A::round_size(1000 * MiB), 1000 * MiB);
  EXPECT_THROW(A::round_size(SIZE_MAX - 10), Error);
}

TEST(CachingDeviceAllocator, FreedBlocksAreReusedBySizeClass) {
  FakeBackend fake;
  CachingDeviceAllocator allocator(fake.backend());
  DevicePtr a = allocator.allocate(1000);
  EXPECT_EQ(a % 256, 0u);
  allocator.free(a);
  EXPECT_EQ(allocator.allocate(900), a);   // same 1024-byte class
  DevicePtr b = allocator.allocate(2000);  // another class: a new block
  EXPECT_NE(b, a);
  AllocatorStats stats = allocator.stats();
  EXPECT_EQ(stats.hits, 1);
  EXPECT_EQ(stats.misses, 2);
  EXPECT_EQ(stats.backend_allocs, 2);
  EXPECT_EQ(stats.in_use_bytes, 1024u + 2048u);
  EXPECT_EQ(stats.cached_bytes, 0u);
  EXPECT_EQ(fake.allocs(), 2);
}

TEST(CachingDeviceAllocator, StatisticsAndReleaseAll) {
  FakeBackend fake;
  CachingDeviceAllocator allocator(fake.backend());
  DevicePtr small = allocator.allocate(100);
  DevicePtr large = allocator.allocate(3 * MiB);
  AllocatorStats stats = allocator.stats();
  EXPECT_EQ(stats.in_use_bytes, 512 + 4 * MiB);
  EXPECT_EQ(stats.reserved_bytes, 512 + 4 * MiB);
  allocator.free(large);
  stats = allocator.stats();
  EXPECT_EQ(stats.in_use_bytes, 512u);
  EXPECT_EQ(stats.cached_bytes, 4 * MiB);
  EXPECT_EQ(stats.peak_in_use_bytes, 512 + 4 * MiB);
  EXPECT_EQ(fake.live_blocks(), 2u);

  allocator.release_all();
  stats = allocator.stats();
  EXPECT_EQ(stats.cached_bytes, 0u);
  EXPECT_EQ(stats.reserved_bytes, 512u);
  EXPECT_EQ(stats.backend_frees, 1);
  EXPECT_EQ(fake.live_blocks(), 1u);  // the block in use stays
  allocator.free(small);
  allocator.release_all();
  EXPECT_EQ(fake.live_blocks(), 0u);
}

TEST(CachingDeviceAllocator, OutOfMemoryReleasesTheCacheAndRetries) {
  FakeBackend fake(6 * MiB);
  CachingDeviceAllocator allocator(fake.backend());
  allocator.free(allocator.allocate(2 * MiB));  // 2 MiB cached
  allocator.free(allocator.allocate(100));      // 512 B cached
  DevicePtr big = allocator.allocate(5 * MiB);  // 6 MiB: fits only once the cache is returned
  EXPECT_NE(big, 0u);
  AllocatorStats stats = allocator.stats();
  EXPECT_EQ(stats.oom_retries, 1);
  EXPECT_EQ(stats.cached_bytes, 0u);
  EXPECT_EQ(fake.live_bytes(), 6 * MiB);
}

TEST(CachingDeviceAllocator, OutOfMemoryIsAClearError) {
  FakeBackend fake(4 * MiB);
  CachingDeviceAllocator allocator(fake.backend());
  DevicePtr held = allocator.allocate(3 * MiB);
  try {
    allocator.allocate(MiB);
    FAIL() << "allocation beyond capacity should throw";
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("out of device memory allocating 1048576 bytes"), std::string::npos) << message;
    EXPECT_NE(message.find("4194304 bytes in use"), std::string::npos) << message;
  }
  allocator.free(held);
}

TEST(CachingDeviceAllocator, MisuseIsAnInternalError) {
  FakeBackend fake;
  CachingDeviceAllocator allocator(fake.backend());
  DevicePtr a = allocator.allocate(64);
  allocator.free(a);
  EXPECT_THROW(allocator.free(a), InternalError);          // double free
  EXPECT_THROW(allocator.free(0x1234500), InternalError);  // never allocated
  EXPECT_NO_THROW(allocator.free(0));                      // like free(nullptr)
}

TEST(CachingDeviceAllocator, MisalignedBackendIsCaught) {
  AllocatorBackend bad;
  bad.allocate = [](size_t) -> DevicePtr { return 0x1000 + 128; };
  bad.free = [](DevicePtr) {};
  CachingDeviceAllocator allocator(bad);
  EXPECT_THROW(allocator.allocate(10), InternalError);
}

TEST(CachingDeviceAllocator, DestructorReturnsCachedBlocks) {
  FakeBackend fake;
  {
    CachingDeviceAllocator allocator(fake.backend());
    for (size_t bytes : {10 * KiB, 20 * KiB, 5 * MiB}) allocator.free(allocator.allocate(bytes));
    EXPECT_EQ(fake.live_blocks(), 3u);
  }
  EXPECT_EQ(fake.live_blocks(), 0u);
}

TEST(CachingDeviceAllocator, DeviceBufferFreesOnDestructionAndMoves) {
  FakeBackend fake;
  CachingDeviceAllocator allocator(fake.backend());
  DevicePtr ptr = 0;
  {
    DeviceBuffer buffer(allocator, 4096);
    ptr = buffer.get();
    DeviceBuffer moved = std::move(buffer);
    EXPECT_EQ(buffer.get(), 0u);
    EXPECT_EQ(moved.get(), ptr);
    EXPECT_EQ(moved.size(), 4096u);
    EXPECT_EQ(allocator.stats().in_use_bytes, 4096u);
  }
  EXPECT_EQ(allocator.stats().in_use_bytes, 0u);
  EXPECT_EQ(allocator.stats().cached_bytes, 4096u);
  DeviceBuffer again(allocator, 4000);
  EXPECT_EQ(again.get(), ptr);
}

TEST(CachingDeviceAllocator, ThreadsShareOneAllocator) {
  FakeBackend fake;
  CachingDeviceAllocator allocator(fake.backend());
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&allocator, t] {
      std::mt19937 rng(t);
      std::vector<DevicePtr> held;
      for (int i = 0; i < 2000; ++i) {
        if (!held.empty() && rng() % 2 == 0) {
          allocator.free(held.back());
          held.pop_back();
        } else {
          held.push_back(allocator.allocate(1 + rng() % (3 * MiB)));
        }
      }
      for (DevicePtr p : held) allocator.free(p);
    });
  }
  for (std::thread& thread : threads) thread.join();
  AllocatorStats stats = allocator.stats();
  EXPECT_EQ(stats.in_use_bytes, 0u);
  EXPECT_EQ(stats.reserved_bytes, stats.cached_bytes);
  EXPECT_EQ(fake.live_bytes(), stats.reserved_bytes);
  EXPECT_GT(stats.hits, 0);
}

TEST(CachingDeviceAllocator, SameStreamReuseIsImmediate) {
  FakeBackend fake;
  CachingDeviceAllocator allocator(fake.backend());
  const CUstream s = FakeBackend::stream(1);
  DevicePtr a = allocator.allocate(1000, s);
  fake.enqueue(s);  // a kernel on s uses a and is still running
  allocator.free(a);
  EXPECT_EQ(allocator.allocate(900, s), a);  // stream order: the next kernel on s runs after it
  AllocatorStats stats = allocator.stats();
  EXPECT_EQ(stats.hits, 1);
  EXPECT_EQ(stats.events_recorded, 0);  // no driver call beyond the first allocation
  EXPECT_EQ(stats.synchronizations, 0);
  EXPECT_EQ(fake.events(), 0u);
  EXPECT_EQ(fake.synchronizations(), 0);
}

TEST(CachingDeviceAllocator, NoCrossStreamReuse) {
  FakeBackend fake;
  CachingDeviceAllocator allocator(fake.backend());
  const CUstream s1 = FakeBackend::stream(1), s2 = FakeBackend::stream(2);
  DevicePtr a = allocator.allocate(1000, s1);
  fake.enqueue(s1);
  allocator.free(a);
  DevicePtr b = allocator.allocate(1000, s2);  // s1's work may still read a: not handed to s2
  EXPECT_NE(b, a);
  DevicePtr c = allocator.allocate(1000);  // nor to the default stream
  EXPECT_NE(c, a);
  EXPECT_NE(c, b);
  allocator.free(b);
  EXPECT_EQ(allocator.allocate(1000, s2), b);  // each stream reuses its own blocks
  EXPECT_EQ(allocator.allocate(1000, s1), a);
  EXPECT_EQ(fake.allocs(), 3);
}

TEST(CachingDeviceAllocator, RecordedStreamDelaysReuseUntilItsWorkCompletes) {
  FakeBackend fake;
  CachingDeviceAllocator allocator(fake.backend());
  const CUstream s1 = FakeBackend::stream(1), s2 = FakeBackend::stream(2);
  DevicePtr a = allocator.allocate(1000, s1);
  allocator.record_stream(a, s1);  // its own stream: nothing to do
  EXPECT_EQ(fake.events(), 0u);
  allocator.record_stream(a, s2);  // an output read by a consumer on s2
  allocator.record_stream(a, s2);  // once per stream
  EXPECT_EQ(fake.events(), 1u);
  fake.enqueue(s2);
  allocator.free(a);
  AllocatorStats stats = allocator.stats();
  EXPECT_EQ(stats.pending_bytes, 1024u);
  EXPECT_EQ(stats.cached_bytes, 0u);
  EXPECT_EQ(stats.reserved_bytes, 1024u);
  EXPECT_EQ(stats.events_recorded, 1);
  DevicePtr b = allocator.allocate(1000, s1);  // s2 may still read a
  EXPECT_NE(b, a);
  fake.enqueue(s2);  // later work on s2 does not hold the block back
  fake.complete(s1);
  allocator.free(b);
  EXPECT_NE(allocator.allocate(1000, s1), a);  // still waiting: b came back instead
  // s2 completes what it had queued at the free and more: a is reusable on its own stream.
  fake.complete(s2);
  EXPECT_EQ(allocator.allocate(1000, s1), a);
  stats = allocator.stats();
  EXPECT_EQ(stats.pending_bytes, 0u);
  EXPECT_EQ(stats.synchronizations, 0);  // queried, never waited on

  // The event is reused for the next block with a use on another stream.
  allocator.record_stream(a, s2);
  fake.enqueue(s2);
  allocator.free(a);
  EXPECT_EQ(allocator.stats().events_created, 1);
  EXPECT_EQ(allocator.stats().events_recorded, 2);
}

TEST(CachingDeviceAllocator, RecordedStreamWorkDoneBeforeTheFreeDoesNotDelay) {
  FakeBackend fake;
  CachingDeviceAllocator allocator(fake.backend());
  const CUstream s1 = FakeBackend::stream(1), s2 = FakeBackend::stream(2);
  DevicePtr a = allocator.allocate(4 * MiB, s1);
  allocator.record_stream(a, s2);
  fake.enqueue(s2);
  fake.complete(s2);
  allocator.free(a);  // the event is recorded after all of s2's work: it is complete at once
  EXPECT_EQ(allocator.allocate(4 * MiB, s1), a);
}

TEST(CachingDeviceAllocator, OutOfMemoryReleasesOtherStreamsAfterSynchronizing) {
  FakeBackend fake(8 * MiB);
  CachingDeviceAllocator allocator(fake.backend());
  const CUstream s1 = FakeBackend::stream(1), s2 = FakeBackend::stream(2), s3 = FakeBackend::stream(3);
  // s1 ran once and is idle now, but its queued work is unfinished: its blocks stay cached for it.
  DevicePtr a = allocator.allocate(2 * MiB, s1);
  fake.enqueue(s1);
  allocator.free(a);
  // A block of s2 read on s3, still pending.
  DevicePtr b = allocator.allocate(2 * MiB, s2);
  allocator.record_stream(b, s3);
  fake.enqueue(s3);
  allocator.free(b);
  DevicePtr held = allocator.allocate(2 * MiB, s3);
  AllocatorStats stats = allocator.stats();
  EXPECT_EQ(stats.cached_bytes, 2 * MiB);
  EXPECT_EQ(stats.pending_bytes, 2 * MiB);
  // 6 MiB on s2 fits only once the other blocks go back: the device is synchronized first (the fake
  // backend fails the test if a block goes back while stream work is queued).
  DevicePtr big = allocator.allocate(5 * MiB, s2);
  EXPECT_NE(big, 0u);
  stats = allocator.stats();
  EXPECT_EQ(stats.oom_retries, 1);
  EXPECT_EQ(stats.synchronizations, 1);
  EXPECT_EQ(fake.synchronizations(), 1);
  EXPECT_EQ(stats.cached_bytes, 0u);
  EXPECT_EQ(stats.pending_bytes, 0u);
  EXPECT_EQ(stats.in_use_bytes, 8 * MiB);
  EXPECT_EQ(stats.reserved_bytes, 8 * MiB);
  EXPECT_EQ(stats.backend_frees, 2);
  EXPECT_EQ(fake.live_bytes(), 8 * MiB);
  allocator.free(held);
  allocator.free(big);
}

TEST(CachingDeviceAllocator, ReleaseStreamGivesBackOnlyThatStreamsBlocks) {
  FakeBackend fake;
  CachingDeviceAllocator allocator(fake.backend());
  const CUstream s1 = FakeBackend::stream(1), s2 = FakeBackend::stream(2);
  allocator.release_stream(s1);  // nothing cached: no synchronization
  EXPECT_EQ(fake.synchronizations(), 0);
  DevicePtr a = allocator.allocate(100, s1), b = allocator.allocate(3 * MiB, s1);
  DevicePtr c = allocator.allocate(100, s2), d = allocator.allocate(100);
  fake.enqueue(s1);
  for (DevicePtr p : {a, b, c, d}) allocator.free(p);
  allocator.release_stream(s1);
  AllocatorStats stats = allocator.stats();
  EXPECT_EQ(stats.backend_frees, 2);
  EXPECT_EQ(stats.cached_bytes, 1024u);
  EXPECT_EQ(stats.reserved_bytes, 1024u);
  EXPECT_EQ(stats.synchronizations, 1);
  EXPECT_EQ(fake.live_blocks(), 2u);
  EXPECT_EQ(allocator.allocate(100, s2), c);
  EXPECT_EQ(allocator.allocate(100), d);
}

TEST(CachingDeviceAllocator, StreamStatisticsAndDestruction) {
  FakeBackend fake;
  {
    CachingDeviceAllocator allocator(fake.backend());
    const CUstream s1 = FakeBackend::stream(1), s2 = FakeBackend::stream(2);
    DevicePtr a = allocator.allocate(100, s1), b = allocator.allocate(100, s2);
    DevicePtr c = allocator.allocate(2 * MiB, s1);
    allocator.record_stream(c, s2);
    fake.enqueue(s2);
    allocator.free(a);
    allocator.free(c);
    AllocatorStats stats = allocator.stats();
    EXPECT_EQ(stats.in_use_bytes, 512u);
    EXPECT_EQ(stats.cached_bytes, 512u);
    EXPECT_EQ(stats.pending_bytes, 2 * MiB);
    EXPECT_EQ(stats.reserved_bytes, stats.in_use_bytes + stats.cached_bytes + stats.pending_bytes);
    EXPECT_EQ(stats.peak_in_use_bytes, 1024 + 2 * MiB);
    EXPECT_EQ(stats.misses, 3);
    allocator.free(b);
    allocator.release_all();  // synchronizes, then the pending block goes back too
    stats = allocator.stats();
    EXPECT_EQ(stats.reserved_bytes, 0u);
    EXPECT_EQ(stats.pending_bytes, 0u);
    EXPECT_EQ(stats.synchronizations, 1);
    EXPECT_EQ(fake.live_blocks(), 0u);
    DevicePtr e = allocator.allocate(100, s1);
    allocator.record_stream(e, s2);
    allocator.free(e);
  }
  EXPECT_EQ(fake.live_blocks(), 0u);      // the destructor returned the pending block
  EXPECT_EQ(fake.destroyed_events(), 1);  // and destroyed the one event
}

TEST(CachingDeviceAllocator, StreamMisuse) {
  FakeBackend fake;
  CachingDeviceAllocator allocator(fake.backend());
  EXPECT_THROW(allocator.record_stream(0x1234500, FakeBackend::stream(1)), InternalError);
  AllocatorBackend plain;  // allocate and free only
  plain.allocate = [](size_t) -> DevicePtr { return 0x10000; };
  plain.free = [](DevicePtr) {};
  CachingDeviceAllocator without_events(plain);
  DevicePtr a = without_events.allocate(10);
  EXPECT_THROW(without_events.record_stream(a, FakeBackend::stream(1)), InternalError);
  EXPECT_THROW(allocator.allocate(10, reinterpret_cast<CUstream>(uintptr_t{2})), Error);  // per-thread
  AllocatorBackend half = fake.backend();
  half.event_done = nullptr;
  EXPECT_THROW(CachingDeviceAllocator{half}, InternalError);
}

// Threads on their own streams allocate and free at random: no block is ever handed to two streams.
TEST(CachingDeviceAllocator, ThreadsOnStreamsNeverShareBlocks) {
  FakeBackend fake;
  CachingDeviceAllocator allocator(fake.backend());
  std::mutex owners_mutex;
  std::map<DevicePtr, int> owners;  // the stream each address was first handed to
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      const CUstream s = FakeBackend::stream(t + 1);
      std::mt19937 rng(t);
      std::vector<DevicePtr> held;
      for (int i = 0; i < 1000; ++i) {
        if (!held.empty() && rng() % 2 == 0) {
          fake.enqueue(s);
          allocator.free(held.back());
          held.pop_back();
        } else {
          const DevicePtr p = allocator.allocate(1 + rng() % (3 * MiB), s);
          std::lock_guard<std::mutex> lock(owners_mutex);
          EXPECT_EQ(owners.emplace(p, t).first->second, t) << "a block went to another stream";
          held.push_back(p);
        }
      }
      for (DevicePtr p : held) allocator.free(p);
    });
  }
  for (std::thread& thread : threads) thread.join();
  AllocatorStats stats = allocator.stats();
  EXPECT_EQ(stats.in_use_bytes, 0u);
  EXPECT_EQ(stats.reserved_bytes, stats.cached_bytes);
  EXPECT_GT(stats.hits, 0);
  EXPECT_EQ(stats.synchronizations, 0);
}

}  // namespace
}  // namespace seam
