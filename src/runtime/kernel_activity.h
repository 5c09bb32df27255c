// GPU time as the GPU itself records it: the start and end of every kernel, copy and memset, read through
// CUPTI's activity API (the source of torch.profiler's kernel times, which the torch.compile numbers of
// bench/RESULTS.md sum). Event pairs around a launch also count the launch's own start-up on the GPU (about a
// microsecond); these durations do not, so seam and torch.compile are compared by the same method.
//
// CUPTI is loaded at run time (dlopen, like the driver): without it the benchmarks (seam bench, bench/) run
// and report events only. SEAM_CUPTI_LIBRARY names the library when it is not on the loader's path.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace seam {

struct ActivityRecord {
  enum class Kind { Kernel, Copy, Memset };
  Kind kind;
  uint64_t start_ns = 0, end_ns = 0;
  double duration_us() const { return static_cast<double>(end_ns - start_ns) * 1e-3; }
};

// Whether CUPTI could be loaded; when not, `why` says why (the library or its headers missing).
bool activity_available(std::string* why = nullptr);

// Records every kernel, copy and memset of the process from construction to finish() (one at a time).
class ActivityRecording {
 public:
  ActivityRecording();  // throws when CUPTI is not available
  ~ActivityRecording();
  ActivityRecording(const ActivityRecording&) = delete;
  ActivityRecording& operator=(const ActivityRecording&) = delete;
  // Waits for the GPU's records (the caller synchronizes first) and stops; the records sorted by start.
  std::vector<ActivityRecord> finish();
  // Like finish, but keeps recording: the records since the start or the last take, sorted by start (a
  // profiler takes them after each step it synchronized).
  std::vector<ActivityRecord> take();

 private:
  bool finished_ = false;
};

// The median over the last `runs` runs of the summed durations of `per_run` consecutive records of
// `kind` (a run: one call of a fusion, its kernels in launch order). Throws when fewer were recorded.
double median_run_us(const std::vector<ActivityRecord>& records, ActivityRecord::Kind kind, int per_run,
                     int runs);

}  // namespace seam
