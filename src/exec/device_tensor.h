// A tensor in device memory: an address, a dtype, extents and strides (elements). The CUDA executable's
// device entry point takes and returns these, so that callers whose data already lives on the GPU pay no
// copies; outputs that are views of inputs come back as strided aliases of the input memory.
#pragma once

#include <memory>

#include "ir/type.h"
#include "runtime/device_allocator.h"

namespace seam {

struct DeviceTensor {
  DevicePtr data = 0;  // address of the element at index 0
  DType dtype = DType::Float32;
  Shape shape;
  Shape strides;  // in elements; a contiguous tensor has contiguous_strides(shape)
  // Keeps the memory alive when seam allocated it (outputs); empty for caller memory and views of it.
  std::shared_ptr<DeviceBuffer> owner;
  // The device the caller vouches `data` is on (TensorRef::device); -1: the driver is asked.
  int device = -1;

  int64_t numel() const { return Type::tensor(dtype, shape).numel(); }
  bool is_contiguous() const { return strides == contiguous_strides(shape); }
};

}  // namespace seam
