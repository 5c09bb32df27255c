// How long a phase of the segmenter may run: a deadline on the steady clock and a count of steps (loop
// iterations: merges tried, windows solved). Every long loop spends steps and stops, keeping a valid
// result, when either runs out; tests use the step count, which does not depend on the machine.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>

namespace seam {

class Budget {
 public:
  using Clock = std::chrono::steady_clock;

  Budget() = default;  // unlimited
  static Budget until(Clock::time_point deadline, int64_t steps = kUnlimitedSteps) {
    Budget b;
    b.deadline_ = deadline;
    b.steps_ = steps;
    return b;
  }
  static Budget for_seconds(double seconds, int64_t steps = kUnlimitedSteps) {
    return until(
        Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds)),
        steps);
  }

  // Spends one step; false once the steps or the time have run out (and from then on).
  bool spend() {
    if (out_) return false;
    if (--steps_ < 0 || Clock::now() > deadline_) out_ = true;
    return !out_;
  }
  bool out() const { return out_; }
  Clock::time_point deadline() const { return deadline_; }
  double seconds_left() const {
    return std::max(0.0, std::chrono::duration<double>(deadline_ - Clock::now()).count());
  }

  static constexpr int64_t kUnlimitedSteps = std::numeric_limits<int64_t>::max();

 private:
  Clock::time_point deadline_ = Clock::time_point::max();
  int64_t steps_ = kUnlimitedSteps;
  bool out_ = false;
};

}  // namespace seam
