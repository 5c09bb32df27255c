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

// Hands out fake, 256-byte aligned addresses up to a capacity; fails the test on a bad free.
class FakeBackend {
 public:
  explicit FakeBackend(size_t capacity = 1024 * MiB) : capacity_(capacity) {}

  AllocatorBackend backend() {
    return AllocatorBackend{[this](size_t bytes) { return allocate(bytes); },
                            [this](DevicePtr ptr) { release(ptr); }};
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

 private:
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
    used_ -= it->second;
    live_.erase(it);
  }

  mutable std::mutex mutex_;
  size_t capacity_;
  size_t used_ = 0;
  DevicePtr next_ = 0x7f0000000000;
  std::map<DevicePtr, size_t> live_;
  int allocs_ = 0;
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
  AllocatorBackend bad{[](size_t) -> DevicePtr { return 0x1000 + 128; }, [](DevicePtr) {}};
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

}  // namespace
}  // namespace seam
