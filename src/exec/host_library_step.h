// A library step (a matrix product: cuBLASLt on the GPU) on the host backend. The host has no vendor
// library: the step's kernel fusion is evaluated by the reference interpreter, which makes this file the
// one place seam_exec runs the interpreter (docs/ARCHITECTURE.md, "Who links the interpreter").
#pragma once

#include <vector>

#include "plan/plan.h"
#include "tensor/host_tensor.h"

namespace seam {

// The outputs of a library step's kernel fusion from its inputs, laid out as that fusion declares them;
// one contiguous tensor per output.
std::vector<HostTensor> run_library_step_on_host(const PlannedStep& step,
                                                 const std::vector<HostTensor>& inputs);

}  // namespace seam
