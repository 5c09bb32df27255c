#include "support/parallel.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <exception>
#include <system_error>
#include <thread>
#include <vector>

namespace seam {
namespace {

thread_local bool inside_parallel_body = false;
std::atomic<int> threads_override{0};  // 0: none

int threads_from_environment() {
  if (const char* text = std::getenv("SEAM_THREADS")) {
    char* end = nullptr;
    const long n = std::strtol(text, &end, 10);
    if (end != text && *end == '\0' && n > 0) return static_cast<int>(std::min(n, 1024L));
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace

int worker_threads() {
  static const int threads = threads_from_environment();
  const int forced = threads_override.load();
  return forced > 0 ? forced : threads;
}

ScopedWorkerThreads::ScopedWorkerThreads(int threads)
    : previous_(threads_override.exchange(std::max(threads, 1))) {}

ScopedWorkerThreads::~ScopedWorkerThreads() { threads_override.store(previous_); }

void parallel_for(int64_t count, const std::function<void(int64_t, int64_t)>& body, int64_t min_chunk) {
  if (count <= 0) return;
  const int64_t chunks =
      inside_parallel_body ? 1 : std::min<int64_t>(worker_threads(), count / std::max<int64_t>(min_chunk, 1));
  if (chunks <= 1) {
    body(0, count);
    return;
  }
  std::vector<std::exception_ptr> errors(static_cast<size_t>(chunks));
  auto run_chunk = [&](int64_t c) {
    inside_parallel_body = true;
    try {
      body(count * c / chunks, count * (c + 1) / chunks);
    } catch (...) {
      errors[static_cast<size_t>(c)] = std::current_exception();
    }
    inside_parallel_body = false;
  };
  std::vector<std::thread> workers;
  workers.reserve(static_cast<size_t>(chunks - 1));
  int64_t spawned = 1;
  try {
    for (; spawned < chunks; ++spawned) workers.emplace_back(run_chunk, spawned);
  } catch (const std::system_error&) {  // no more threads to be had: the rest run here
  }
  for (int64_t c = spawned; c < chunks; ++c) run_chunk(c);
  run_chunk(0);
  for (std::thread& worker : workers) worker.join();
  for (const std::exception_ptr& error : errors)
    if (error) std::rethrow_exception(error);
}

}  // namespace seam
