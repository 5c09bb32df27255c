// A hook around every step a run executes, for profiling: the observer installed on the calling thread
// (ObserveSteps) is told before and after each step of the runs that thread makes, with the step as the
// plan decided it and the stream its launches go to. With no observer a run pays one thread-local read.
#pragma once

#include <cstddef>

#include "plan/plan.h"
#include "runtime/cuda_api.h"

namespace seam {

class StepObserver {
 public:
  virtual ~StepObserver() = default;
  // `launched`: false for a step that launches nothing (no work items); after_step follows either way.
  virtual void before_step(size_t index, const PlannedStep& step, CUstream stream) = 0;
  virtual void after_step(size_t index, const PlannedStep& step, CUstream stream, bool launched) = 0;
};

// The observer of the calling thread's runs, or nullptr.
StepObserver* step_observer();

// Installs `observer` for the calling thread while it lives (restoring the previous one after).
class ObserveSteps {
 public:
  explicit ObserveSteps(StepObserver* observer);
  ~ObserveSteps();
  ObserveSteps(const ObserveSteps&) = delete;
  ObserveSteps& operator=(const ObserveSteps&) = delete;

 private:
  StepObserver* previous_;
};

}  // namespace seam
