// The reference interpreter: evaluates a fusion op by op on host tensors, rounding every result to its
// declared dtype. It defines what every op means (docs/IR.md) and is the oracle for all later stages:
// it is written to be obviously correct, not fast.
#pragma once

#include <vector>

#include "interp/perturbation.h"
#include "ir/fusion.h"
#include "tensor/host_tensor.h"

namespace seam {

// `inputs` follow fusion.inputs() in order; scalar inputs are rank-0 HostTensors. Throws seam::Error
// naming the input when a dtype, shape or stride does not match its declaration, and before evaluating
// anything when the values together would pass the host memory limit (tensor/host_memory.h). Returns
// one contiguous tensor per fusion output (rank 0 for scalar outputs).
std::vector<HostTensor> interpret(const Fusion& fusion, const std::vector<HostTensor>& inputs);

// The same with the inexact floating results of pointwise ops and sums/products moved by `nudge`
// (interp/perturbation.h): what a backend's rounding could give, for telling ill-conditioned elements.
std::vector<HostTensor> interpret_perturbed(const Fusion& fusion, const std::vector<HostTensor>& inputs,
                                            const Perturbation& nudge);

// Random inputs matching the fusion's input declarations (strides included), from a seed; checked
// against the host memory limit first.
std::vector<HostTensor> random_inputs(const Fusion& fusion, uint64_t seed);

}  // namespace seam
