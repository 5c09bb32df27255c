// Work split over threads for loops whose iterations are independent: the reference interpreter's
// element loops and the comparison of results. Chunks are contiguous, so a loop that folds in order
// within one element gives the same bits whatever the thread count.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace seam {

// The threads parallel_for uses: SEAM_THREADS when it is set to a positive number, else the hardware's
// (or what a live ScopedWorkerThreads says).
int worker_threads();

// Sets worker_threads() while it lives, for the whole process: tests compare one thread with many.
class ScopedWorkerThreads {
 public:
  explicit ScopedWorkerThreads(int threads);
  ~ScopedWorkerThreads();
  ScopedWorkerThreads(const ScopedWorkerThreads&) = delete;
  ScopedWorkerThreads& operator=(const ScopedWorkerThreads&) = delete;

 private:
  int previous_;
};

// Calls body(begin, end) on disjoint chunks that cover [0, count), on up to worker_threads() threads (the
// caller's among them). Counts under 2 * min_chunk, and calls from inside a body, run on the caller's
// thread alone. When bodies throw, every chunk still finishes and the exception of the lowest chunk is
// rethrown: the error a plain loop over [0, count) would have raised first.
void parallel_for(int64_t count, const std::function<void(int64_t begin, int64_t end)>& body,
                  int64_t min_chunk = int64_t{1} << 14);

// make(i) for every i in [0, count), each on a worker thread of its own chunk, results in order: for
// independent jobs that each take long (compiling a kernel), so every job may be its own chunk.
template <typename Make>
auto parallel_map(size_t count, const Make& make) -> std::vector<decltype(make(size_t{}))> {
  std::vector<std::optional<decltype(make(size_t{}))>> slots(count);
  parallel_for(
      static_cast<int64_t>(count),
      [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i)
          slots[static_cast<size_t>(i)].emplace(make(static_cast<size_t>(i)));
      },
      1);
  std::vector<decltype(make(size_t{}))> results;
  results.reserve(count);
  for (auto& slot : slots) results.push_back(std::move(*slot));
  return results;
}

}  // namespace seam
