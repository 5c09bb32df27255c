// The device memory a CUDA run needs beside its inputs and outputs: seam's caching allocator, the
// workspaces a plan keeps per stream (library steps, outer reductions' partials and counters), and the
// caller's scratch memory that a run_into draws from instead (ScratchArena).
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "exec/executable.h"
#include "runtime/cuda_driver.h"
#include "runtime/device_allocator.h"

namespace seam {

struct CudaPlan;

// The process's allocator of device memory for the CUDA backend (lives until exit).
CachingDeviceAllocator& device_allocator();

// The scratch memory of one plan for the runs on one stream. Runs on two streams at once must not share
// it: the library's workspace and the kernels' arrival counters are live for a whole launch.
struct StreamWorkspace {
  CUstream stream = nullptr;
  DeviceBuffer library;  // for the library steps, the largest need
  // For generated kernels with outer reductions (kir::workspace_bytes), the largest need: zeroed when it
  // is created; each launch leaves its counters zero again (the last block resets them) and the steps
  // and runs on one stream are ordered, so they all share it.
  DeviceBuffer kernels;
};

// A plan's workspaces, one per stream, each created on first use on its stream: allocated for that
// stream and zeroed with a memset queued on it, so that it is ready in stream order without a host
// synchronization. Why not a workspace drawn from the allocator per run: that costs a memset launch per
// run; this costs one uncontended lock and a scan of a few entries, no driver call, once the stream has
// its workspace. A plan without workspaces never takes the lock.
class StreamWorkspaces {
 public:
  StreamWorkspaces(size_t library_bytes, size_t kernel_bytes)
      : library_bytes_(library_bytes), kernel_bytes_(kernel_bytes) {}
  bool needed() const { return library_bytes_ > 0 || kernel_bytes_ > 0; }
  size_t library_bytes() const { return library_bytes_; }
  size_t kernel_bytes() const { return kernel_bytes_; }

  const StreamWorkspace& on(CUstream stream);
  // Forgets the workspace of a stream about to be destroyed: its memory returns to that stream's pool.
  void drop(CUstream stream);

 private:
  const size_t library_bytes_;
  const size_t kernel_bytes_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<StreamWorkspace>> workspaces_;  // a few: one per stream that ran the plan
};

// Caller scratch memory handed out in order, each piece aligned as seam's allocator aligns its blocks.
class ScratchArena {
 public:
  static constexpr size_t kAlignment = 256;
  static size_t rounded(size_t bytes) {
    return (std::max<size_t>(bytes, 1) + kAlignment - 1) / kAlignment * kAlignment;
  }

  explicit ScratchArena(const RunScratch& scratch);
  DevicePtr take(size_t bytes);

 private:
  DevicePtr next_, end_;
};

// What a run_into of `plan` draws from caller scratch (the same choices as the step launcher,
// exec/cuda_step_launcher.h): every step output that is neither an input nor a Computed output the
// caller gives a buffer for (`routes`: the outputs of `fusion`), the index error record, the workspaces.
size_t run_scratch_bytes(const CudaPlan& plan, const Fusion& fusion, const std::vector<OutputRoute>& routes);

}  // namespace seam
