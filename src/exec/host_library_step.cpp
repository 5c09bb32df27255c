#include "exec/host_library_step.h"

#include "interp/interpreter.h"
#include "support/error.h"

namespace seam {

std::vector<HostTensor> run_library_step_on_host(const PlannedStep& step,
                                                 const std::vector<HostTensor>& inputs) {
  SEAM_ASSERT(step.library, "step of kind ", step_kind_name(step.kind), " is not a library step");
  return interpret(step.kernel_fusion.fusion, inputs);
}

}  // namespace seam
