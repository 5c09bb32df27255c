// Row-kernel cases of the GPU suites: every case compiled at once on worker threads (NVRTC takes most of
// a case's time), for the GPU with poisoned outputs, reductions kept as row kernels however small, at the
// case's launch knobs. A case is anything with `fusion` and `launch` members.
#pragma once

#include <memory>
#include <vector>

#include "exec/executable.h"
#include "support/parallel.h"

namespace seam {

template <typename Case>
std::vector<std::unique_ptr<Executable>> compile_row_cases(const std::vector<Case>& cases) {
  return parallel_map(cases.size(), [&](size_t i) {
    ExecutableOptions options;
    options.backend = Backend::Cuda;
    options.poison_outputs = true;
    options.segment.rules.limits.max_inlined_reduction = 0;
    options.launch = cases[i].launch;
    return Executable::compile(cases[i].fusion, options);
  });
}

}  // namespace seam
