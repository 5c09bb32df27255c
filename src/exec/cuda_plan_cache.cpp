#include "exec/cuda_plan_cache.h"

#include <algorithm>

namespace seam {

CudaPlanCache::CudaPlanCache(const SegmentedFusion& segmented, const std::vector<OutputRoute>& routes,
                             const LaunchParams& launch, const Device& device, CudaPlan default_plan)
    : segmented_(segmented), routes_(routes), launch_(launch), device_(device) {
  auto owned = std::make_unique<CudaPlan>(std::move(default_plan));
  owned->scratch_bytes = run_scratch_bytes(*owned, segmented_.fusion, routes_);
  default_plan_ = owned.get();
  plans_.emplace(launch_.max_vector_bytes, std::move(owned));
}

const CudaPlan& CudaPlanCache::plan_for(int alignment) {
  if (alignment == launch_.max_vector_bytes) return *default_plan_;
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = plans_.find(alignment);
  if (it != plans_.end()) return *it->second;
  LaunchParams narrower = launch_;
  narrower.max_vector_bytes = alignment;
  auto plan = std::make_unique<CudaPlan>(
      build_plan(segmented_, plan_fusion(segmented_, PlanOptions{narrower, {}}).steps, device_, alignment));
  plan->scratch_bytes = run_scratch_bytes(*plan, segmented_.fusion, routes_);
  return *plans_.emplace(alignment, std::move(plan)).first->second;
}

size_t CudaPlanCache::max_scratch_bytes() {
  std::lock_guard<std::mutex> lock(mutex_);
  size_t bytes = 0;
  for (const auto& [alignment, plan] : plans_) bytes = std::max(bytes, plan->scratch_bytes);
  return bytes;
}

}  // namespace seam
