// Fusions over the f8 storage dtypes shared by the host-backend, NVRTC and GPU tests: casts to and from
// every dtype, f8 through movement ops (wide vector loads of 1-byte elements), f8 inputs and outputs.
#pragma once

#include <vector>

#include "ir/fusion.h"
#include "tensor/host_tensor.h"

namespace seam::testing_float8 {

std::vector<Fusion> float8_fusions();

// Inputs with the values that matter: ties, the largest finite values and past them, subnormals, NaN,
// infinities, signed zeros, then random values (f32 inputs scaled to reach e5m2's range).
std::vector<HostTensor> float8_inputs(const Fusion& fusion, uint64_t seed);

}  // namespace seam::testing_float8
