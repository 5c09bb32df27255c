#include "exec/device_scratch.h"

#include "exec/cuda_plan.h"
#include "support/error.h"

namespace seam {

CachingDeviceAllocator& device_allocator() {
  static CachingDeviceAllocator* allocator =
      new CachingDeviceAllocator(cuda_driver_backend());  // lives until exit
  return *allocator;
}

const StreamWorkspace& StreamWorkspaces::on(CUstream stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const std::unique_ptr<StreamWorkspace>& w : workspaces_)
    if (w->stream == stream) return *w;
  auto w = std::make_unique<StreamWorkspace>();
  w->stream = stream;
  if (library_bytes_ > 0) w->library = DeviceBuffer(device_allocator(), library_bytes_, stream);
  if (kernel_bytes_ > 0) {
    w->kernels = DeviceBuffer(device_allocator(), kernel_bytes_, stream);
    check_cuda(driver().memset_d8_async(w->kernels.get(), 0, kernel_bytes_, stream), "cuMemsetD8Async",
               "clearing the kernels' workspace");
  }
  workspaces_.push_back(std::move(w));
  return *workspaces_.back();
}

void StreamWorkspaces::drop(CUstream stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::erase_if(workspaces_, [&](const std::unique_ptr<StreamWorkspace>& w) { return w->stream == stream; });
}

ScratchArena::ScratchArena(const RunScratch& scratch)
    : next_(scratch.data), end_(scratch.data + scratch.bytes) {
  SEAM_CHECK(scratch.data % kAlignment == 0, "scratch memory at 0x", std::hex, scratch.data, std::dec,
             " is not aligned to ", kAlignment, " bytes");
}

DevicePtr ScratchArena::take(size_t bytes) {
  const DevicePtr piece = next_;
  next_ += static_cast<DevicePtr>(rounded(bytes));
  SEAM_ASSERT(next_ <= end_, "scratch arena overrun: the plan's scratch_bytes undercounts");
  return piece;
}

size_t run_scratch_bytes(const CudaPlan& plan, const Fusion& f, const std::vector<OutputRoute>& routes) {
  std::vector<char> bound(static_cast<size_t>(f.num_nodes()), 0);
  for (Value v : f.inputs()) bound[static_cast<size_t>(v.id)] = 1;
  for (size_t o = 0; o < routes.size(); ++o)
    if (routes[o].kind == OutputRoute::Kind::Computed)
      bound[static_cast<size_t>(f.outputs()[o].value.id)] = 1;
  size_t bytes = 0;
  auto take = [&](Value v) {
    if (bound[static_cast<size_t>(v.id)]) return;
    bound[static_cast<size_t>(v.id)] = 1;
    bytes += ScratchArena::rounded(static_cast<size_t>(std::max<int64_t>(f.type(v).bytes(), 1)));
  };
  bool checks_indices = false;
  for (size_t s = 0; s < plan.steps.size(); ++s) {
    const CompiledStep& step = plan.steps[s];
    if (step.library) {
      take(step.kernel_fusion.outputs.at(0));
      continue;
    }
    for (const kir::Param& p : step.kernel.params)
      if (p.kind == kir::Param::Kind::Output)
        take(step.kernel_fusion.outputs[static_cast<size_t>(p.fusion_index)]);
    checks_indices = checks_indices || plan.checks_indices[s];
  }
  if (checks_indices) bytes += ScratchArena::rounded(kir::kIndexErrorWords * sizeof(int64_t));
  if (plan.workspaces->library_bytes() > 0) bytes += ScratchArena::rounded(plan.workspaces->library_bytes());
  if (plan.workspaces->kernel_bytes() > 0) bytes += ScratchArena::rounded(plan.workspaces->kernel_bytes());
  return bytes;
}

}  // namespace seam
