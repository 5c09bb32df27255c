#include "exec/step_observer.h"

namespace seam {

namespace {
thread_local StepObserver* current = nullptr;
}

StepObserver* step_observer() { return current; }

ObserveSteps::ObserveSteps(StepObserver* observer) : previous_(current) { current = observer; }

ObserveSteps::~ObserveSteps() { current = previous_; }

}  // namespace seam
