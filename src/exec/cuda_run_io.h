// A CUDA run's boundary: the device addresses a run starts from (host inputs uploaded, or the caller's
// device buffers bound) and what it hands back (outputs downloaded to host tensors, or device tensors:
// seam's buffers for computed values, strided aliases of the caller's memory for views).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "exec/device_bindings.h"
#include "exec/executable.h"

namespace seam {

// Copies host inputs into device buffers of seam's, bound to the inputs of `fusion`. `label(i)` names
// input i in a copy's error.
Bindings upload_inputs(const Fusion& fusion, const std::vector<HostTensor>& inputs,
                       const std::function<std::string(size_t)>& label);

// Binds the inputs of `fusion` to the caller's device buffers and, for run_into, every Computed output
// (`routes`) to the caller's buffer in `outputs` (empty for run_device: the steps allocate them), so that
// the steps write straight into it and allocate only what is not bound yet (intermediates).
Bindings bind_caller_buffers(const Fusion& fusion, const std::vector<OutputRoute>& routes,
                             const std::vector<DeviceTensor>& inputs,
                             const std::vector<DeviceTensor>& outputs);

// The outputs of a run as host tensors (the stream synchronized): Computed ones copied back, views
// gathered by `view(value)` from the host inputs, an input returned unchanged copied contiguous.
std::vector<HostTensor> download_outputs(const Fusion& fusion, const std::vector<OutputRoute>& routes,
                                         const Bindings& bindings, const std::vector<HostTensor>& inputs,
                                         const std::function<HostTensor(Value)>& view);

// The outputs of a run_device as device tensors: seam's buffers (kept by their owner) for computed values,
// strided aliases of the caller's input memory for views, no launch.
std::vector<DeviceTensor> device_outputs(const Fusion& fusion, const std::vector<OutputRoute>& routes,
                                         const Bindings& bindings, const std::vector<DeviceTensor>& inputs);

}  // namespace seam
