// The plans of one CUDA executable by alignment class of the input addresses: vector widths are proven
// for base addresses aligned to `max_vector_bytes`, so a less aligned input gets its own plan (plan_fusion
// with max_vector_bytes at that alignment), compiled on first use and kept for the executable's life: the
// cache level below the binary cache (docs/RUNTIME.md, "Caches").
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "exec/cuda_plan.h"

namespace seam {

class CudaPlanCache {
 public:
  // `default_plan`: the plan for `launch.max_vector_bytes`, built with the executable. `routes`: the
  // outputs of segmented.fusion, for the caller scratch a plan's run takes. Both references must outlive
  // the cache (the executable owns them).
  CudaPlanCache(const SegmentedFusion& segmented, const std::vector<OutputRoute>& routes,
                const LaunchParams& launch, const Device& device, CudaPlan default_plan);

  const CudaPlan& default_plan() const { return *default_plan_; }
  // The alignment class of inputs aligned as the default plan assumes: the start of every narrowing.
  int default_alignment() const { return launch_.max_vector_bytes; }
  // The plan for inputs whose addresses are aligned to `alignment` bytes (at most default_alignment()).
  // Runs on several threads may ask at once (the API serializes its runs, direct callers need not).
  const CudaPlan& plan_for(int alignment);
  // The most caller scratch any plan compiled so far takes.
  size_t max_scratch_bytes();

 private:
  const SegmentedFusion& segmented_;
  const std::vector<OutputRoute>& routes_;
  const LaunchParams launch_;
  const Device& device_;
  std::map<int, std::unique_ptr<CudaPlan>> plans_;  // by alignment class of the input addresses
  std::mutex mutex_;                                // guards plans_
  const CudaPlan* default_plan_ = nullptr;          // plans_'s entry for max_vector_bytes, never removed
};

}  // namespace seam
