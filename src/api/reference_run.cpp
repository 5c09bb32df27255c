// Reference runs: the public API's one use of the reference interpreter. run_reference evaluates the
// fusion as the caller built it (before passes) with interp/interpreter.h, the oracle the frontends
// compare a compiled run against (Python's FusionDefinition.validate); nothing else in seam_api runs it.
#include "api/api_internal.h"
#include "api/executable_impl.h"
#include "interp/interpreter.h"

namespace seam::api {

void Executable::run_reference(const std::vector<TensorRef>& inputs,
                               const std::vector<TensorRef>& outputs) const {
  guarded([&] {
    impl_->check_inputs(inputs);
    const seam::Fusion& f = *impl_->built;
    run_on_host_copies(f, inputs, outputs,
                       [&](const std::vector<seam::HostTensor>& host) { return seam::interpret(f, host); });
  });
}

}  // namespace seam::api
