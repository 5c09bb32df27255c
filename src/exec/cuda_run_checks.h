// What a CUDA run checks of the caller's stream and device memory before anything is enqueued: the
// stream is one seam tells runs apart by, capture state, and that each buffer is memory of seam's device,
// with the alignment class its address allows (which selects the plan, exec/cuda_plan_cache.h).
#pragma once

#include <string>

#include "exec/device_tensor.h"
#include "runtime/cuda_driver.h"
#include "support/error.h"

namespace seam {

// Runs are told apart by their stream's handle (its pool of intermediates, its workspaces): the
// per-thread default stream is refused.
void check_stream(CUstream stream, const std::string& fusion_name);

// Whether `stream` is being captured into a CUDA graph.
bool is_capturing(CUstream stream);

// Checks that a caller's tensor with elements is memory of device `device_ordinal` (the device the caller
// vouches for, else the driver's answer); returns `alignment` narrowed to what its address allows (the
// alignment class that selects the plan). `label()` names the tensor in an error; it is only built for
// one, off the per-call path.
template <class Label>
int check_on_device(const DeviceTensor& x, int device_ordinal, const Label& label, int alignment) {
  if (x.numel() == 0) return alignment;
  if (x.device >= 0) {
    SEAM_CHECK(x.device == device_ordinal, label(), ": the tensor is on device ", x.device,
               ", the executable runs on device ", device_ordinal);
  } else {
    int ordinal = -1;
    CUresult r = driver().pointer_get_attribute(&ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, x.data);
    SEAM_CHECK(r == CUDA_SUCCESS && ordinal == device_ordinal, label(), ": address 0x", std::hex, x.data,
               std::dec, " is not memory of device ", device_ordinal,
               r == CUDA_SUCCESS ? "" : " (" + cuda_error_text(r) + ")");
  }
  const int element = dtype_size(x.dtype);
  while (alignment > element && x.data % static_cast<DevicePtr>(alignment) != 0) alignment /= 2;
  return alignment;
}

}  // namespace seam
