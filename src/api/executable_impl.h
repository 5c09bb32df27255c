// What an api::Executable holds, and the copy between caller host buffers and seam's host tensors that
// its host runs share (run_host on the compiled executable, run_reference on the interpreter).
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "exec/executable.h"
#include "seam/api.h"
#include "tensor/host_tensor.h"

namespace seam::api {

struct Executable::Impl {
  std::unique_ptr<seam::Executable> exe;
  Backend backend = Backend::Host;
  std::vector<TensorRef> input_layouts;
  std::vector<OutputRoute> routes;
  std::shared_ptr<const seam::Fusion> built;  // the fusion as the caller built it, for run_reference

  // What the public API says of the executable's inputs and outputs, computed once.
  void describe();

  const seam::Fusion& fusion() const { return exe->segmented().fusion; }

  // Checks a caller's input against the fusion's declaration before any byte of it is read: the
  // executable's check of dtype, shape and strides, then the address.
  void check_input(size_t i, const TensorRef& ref) const;
  void check_inputs(const std::vector<TensorRef>& inputs) const;
};

// Outputs of a fusion computed from host tensors of its inputs.
using HostEvaluation = std::function<std::vector<seam::HostTensor>(const std::vector<seam::HostTensor>&)>;

// Copies host inputs into seam's host tensors, evaluates them with `evaluate` and copies the results into
// the caller's contiguous output buffers, checking every buffer first.
void run_on_host_copies(const seam::Fusion& f, const std::vector<TensorRef>& inputs,
                        const std::vector<TensorRef>& outputs, const HostEvaluation& evaluate);

}  // namespace seam::api
