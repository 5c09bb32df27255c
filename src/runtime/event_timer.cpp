#include "runtime/event_timer.h"

#include <algorithm>
#include <memory>
#include <vector>

#include "runtime/cuda_driver.h"
#include "support/error.h"

namespace seam {

Stream::Stream() { SEAM_CU(stream_create, &stream_, CU_STREAM_NON_BLOCKING); }
Stream::~Stream() {
  if (stream_ != nullptr) driver().stream_destroy(stream_);
}
void Stream::synchronize() const { SEAM_CU(stream_synchronize, stream_); }

Event::Event() { SEAM_CU(event_create, &event_, CU_EVENT_DEFAULT); }
Event::~Event() {
  if (event_ != nullptr) driver().event_destroy(event_);
}
void Event::record(CUstream stream) const { SEAM_CU(event_record, event_, stream); }
void Event::synchronize() const { SEAM_CU(event_synchronize, event_); }
float Event::elapsed_ms_since(const Event& start) const {
  float ms = 0.0f;
  SEAM_CU(event_elapsed_time, &ms, start.event_, event_);
  return ms;
}

double median(std::vector<double> samples) {
  SEAM_ASSERT(!samples.empty(), "median of no samples");
  std::sort(samples.begin(), samples.end());
  const size_t n = samples.size();
  return n % 2 == 1 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
}

Timing time_launches(const std::function<void(CUstream)>& launch, CUstream stream, int iterations, int warmup,
                     const std::function<void(CUstream)>& before) {
  SEAM_CHECK(iterations > 0, "timing needs at least one iteration, got ", iterations);
  for (int i = 0; i < warmup; ++i) launch(stream);
  std::vector<std::unique_ptr<Event>> starts, ends;
  for (int i = 0; i < iterations; ++i) {
    starts.push_back(std::make_unique<Event>());
    ends.push_back(std::make_unique<Event>());
  }
  for (int i = 0; i < iterations; ++i) {
    if (before) before(stream);
    starts[i]->record(stream);
    launch(stream);
    ends[i]->record(stream);
  }
  ends.back()->synchronize();
  std::vector<double> samples;
  for (int i = 0; i < iterations; ++i) samples.push_back(ends[i]->elapsed_ms_since(*starts[i]));
  Timing timing;
  timing.iterations = iterations;
  timing.min_ms = *std::min_element(samples.begin(), samples.end());
  timing.max_ms = *std::max_element(samples.begin(), samples.end());
  timing.median_ms = median(std::move(samples));
  return timing;
}

}  // namespace seam
