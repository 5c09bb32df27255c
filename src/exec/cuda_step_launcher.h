// Enqueues a CUDA plan's steps in order on a stream: each step's outputs bound (the caller's buffers) or
// allocated, its arguments assembled (device pointers, the index error record, its part of the kernels'
// workspace, the extents), then its kernel launched or its library call made.
#pragma once

#include <memory>
#include <string>

#include "exec/cuda_plan.h"
#include "exec/device_bindings.h"
#include "exec/device_scratch.h"

namespace seam {

// The index error record of a run: its address (0: no step checks indices) and, when seam allocated it,
// the buffer that keeps it.
struct IndexRecord {
  DevicePtr address = 0;
  std::shared_ptr<DeviceBuffer> owner;
};

// Allocates each step's outputs for `stream` and launches the steps in order on it. Intermediates are
// returned to the stream's pool of the caching allocator when `bindings` goes away, while the stream
// may still use them: only later work on the same stream reuses them, after this run's (the stream
// orders the launches; runs on other streams draw from their own pools). The workspaces are the
// plan's for this stream. Returns the index error record its kernels write (zeroed on the stream
// first), or a record without address when none has indexing ops. `fusion`: the segmented fusion the
// plan's steps come from; `poison_outputs`: fill every step output with a pattern first.
//
// With `arena` (caller scratch), intermediates, the index error record and the workspaces come from it
// instead: nothing is allocated, and the kernels' workspace is zeroed on the stream each run.
IndexRecord enqueue_steps(const CudaPlan& plan, const Fusion& fusion, bool poison_outputs, Bindings& bindings,
                          CUstream stream, ScratchArena* arena = nullptr);

// After the stream synchronized: the first index out of range a kernel recorded, as an error naming
// `fusion_name`.
void check_index_error(const IndexRecord& index_error, const std::string& fusion_name);

}  // namespace seam
