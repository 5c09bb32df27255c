// Streams, events and a timer for kernels: the median of N timed launches, each bracketed by its own
// pair of events, so that one slow launch (a clock ramp, a page fault) does not move the result.
#pragma once

#include <functional>
#include <vector>

#include "runtime/cuda_api.h"

namespace seam {

// A non-blocking stream of the current context.
class Stream {
 public:
  Stream();
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  CUstream get() const { return stream_; }
  void synchronize() const;

 private:
  CUstream stream_ = nullptr;
};

class Event {
 public:
  Event();
  ~Event();
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  CUevent get() const { return event_; }
  void record(CUstream stream) const;
  void synchronize() const;
  // Milliseconds from start to this event; both must have completed.
  float elapsed_ms_since(const Event& start) const;

 private:
  CUevent event_ = nullptr;
};

struct Timing {
  double median_ms = 0.0;
  double min_ms = 0.0;
  double max_ms = 0.0;
  int iterations = 0;
};

// Runs launch(stream) `warmup` times untimed, then `iterations` times each between two events; `before`,
// when given, is enqueued before each timed launch, outside its events (e.g. an L2 flush).
Timing time_launches(const std::function<void(CUstream)>& launch, CUstream stream, int iterations,
                     int warmup = 2, const std::function<void(CUstream)>& before = {});

// The median of samples (the mean of the middle two for an even count); samples must not be empty.
double median(std::vector<double> samples);

}  // namespace seam
