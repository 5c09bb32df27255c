#include "exec/host_kernel_runner.h"

#include <algorithm>

#include "exec/host_interrupt.h"
#include "exec/index_error.h"
#include "support/error.h"

namespace seam {

std::vector<HostTensor> run_host_kernel(const HostModule& module, const kir::Kernel& kernel,
                                        const std::vector<HostTensor>& inputs,
                                        const std::vector<Type>& output_types,
                                        const std::vector<uint64_t>& constants, const std::string& symbol,
                                        const std::vector<HostTensor>& initial) {
  std::vector<HostTensor> outputs;
  SEAM_ASSERT(kir::updates_output_in_place(kernel) == !initial.empty(), "kernel ", kernel.name,
              kir::updates_output_in_place(kernel)
                  ? " updates its output in place: it needs the values it starts from"
                  : " writes its outputs whole: it starts from no values");
  for (const HostTensor& t : initial) outputs.push_back(t.contiguous());
  for (size_t o = initial.size(); o < output_types.size(); ++o) {
    const Type& t = output_types[o];
    // Poisoned so that an element the kernel fails to write cannot pass for a computed one.
    HostTensor out = HostTensor::zeros(t.dtype, t.shape);
    std::fill(out.storage().begin(), out.storage().end(),
              static_cast<std::byte>(t.dtype == DType::Bool ? 0x01 : 0x7f));
    outputs.push_back(std::move(out));
  }
  std::vector<void*> args;
  for (const kir::Param& p : kernel.params) {
    const size_t i = static_cast<size_t>(p.fusion_index);
    if (p.kind == kir::Param::Kind::Output) {
      SEAM_ASSERT(i < outputs.size());
      args.push_back(outputs[i].storage().data());
    } else {
      SEAM_ASSERT(i < inputs.size());
      SEAM_CHECK(inputs[i].dtype() == p.dtype, "kernel input ", i, " has dtype ",
                 dtype_name(inputs[i].dtype()), ", expected ", dtype_name(p.dtype));
      args.push_back(const_cast<std::byte*>(inputs[i].storage().data()));
    }
  }
  // After the parameters, as on the GPU (kir::trailing_slots): the record a kernel with checked indices
  // writes the first bad one to, then the workspace of outer reductions, its counter zero.
  int64_t index_error[kir::kIndexErrorWords] = {};
  const bool checks = kir::checks_indices(kernel);
  if (checks) args.push_back(index_error);
  std::vector<float> workspace(static_cast<size_t>(kir::workspace_bytes(kernel)) / sizeof(float), 0.0f);
  if (!workspace.empty()) args.push_back(workspace.data());
  if (!constants.empty()) args.push_back(const_cast<uint64_t*>(constants.data()));  // the extents, last
  module.entry(symbol.empty() ? kernel.name : symbol)(args.data());
  throw_if_host_interrupted("kernel " + kernel.name);
  if (checks) throw_if_index_error(index_error, "kernel " + kernel.name);
  return outputs;
}

}  // namespace seam
