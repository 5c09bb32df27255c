// The host backend: generated kernels printed as host C++, compiled by the system compiler, run on host
// tensors. It executes the same index and vector code as the GPU, so CI checks it without a GPU.
#pragma once

#include "exec/executable.h"

namespace seam {

std::unique_ptr<Executable> compile_host_executable(Fusion fusion, SegmentedFusion segmented,
                                                    std::vector<CompiledStep> steps,
                                                    const ExecutableOptions& options);

}  // namespace seam
