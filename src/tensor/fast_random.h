// Fast random contents for large tensors (benchmarks, full-size GPU checks): values built directly as bit
// patterns from a counter-based generator, about a nanosecond per element, where HostTensor::random
// (exactly uniform, rounded through double) takes tens. Floating values lie in (-1, 1) with a random sign,
// an exponent spread over 2^-8..2^-1 and a random mantissa; integers in [-8, 8); bools 50/50.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/fusion.h"
#include "tensor/host_tensor.h"

namespace seam {

void fill_fast_random(HostTensor& tensor, uint64_t seed);

// Like random_inputs(fusion, seed), with fill_fast_random (declared strides honoured).
std::vector<HostTensor> fast_random_inputs(const Fusion& fusion, uint64_t seed);

}  // namespace seam
