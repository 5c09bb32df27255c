// The reference interpreter: evaluates a fusion op by op on host tensors, rounding every result to its
// declared dtype. It defines what every op means (docs/IR.md) and is the oracle for all later stages:
// it is written to be obviously correct, not fast.
#pragma once

#include <vector>

#include "interp/host_tensor.h"
#include "ir/fusion.h"

namespace seam {

// `inputs` follow fusion.inputs() in order; scalar inputs are rank-0 HostTensors. Throws seam::Error
// naming the input when a dtype, shape or stride does not match its declaration. Returns one
// contiguous tensor per fusion output (rank 0 for scalar outputs).
std::vector<HostTensor> interpret(const Fusion& fusion, const std::vector<HostTensor>& inputs);

// Random inputs matching the fusion's input declarations (strides included), from a seed.
std::vector<HostTensor> random_inputs(const Fusion& fusion, uint64_t seed);

}  // namespace seam
