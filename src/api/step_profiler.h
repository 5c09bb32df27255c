// The observers behind Executable::run_profiled: they time every step of one run (exec/step_observer.h)
// by the best clock the backend has: CUPTI's kernel records, else CUDA events, else the host's clock.
#pragma once

#include <memory>

#include "exec/step_observer.h"
#include "seam/api.h"
#include "segment/segmented_fusion.h"

namespace seam::api {

class StepProfiler : public seam::StepObserver {
 public:
  // For a CUDA run: CUPTI when it loads, else events. For a host run: the host's clock.
  static std::unique_ptr<StepProfiler> make(bool cuda);
  // Call before the run starts (the host clock of the call starts here).
  virtual void start(CUstream stream) = 0;
  // Call after the run was enqueued: waits for the GPU and gives the profile.
  virtual RunProfile finish(const seam::SegmentedFusion& segmented, CUstream stream) = 0;
};

}  // namespace seam::api
