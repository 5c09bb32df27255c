// Runs one lowered kernel through the host backend on host tensors.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "exec/host_compiler.h"
#include "lower/kernel_ir.h"
#include "tensor/host_tensor.h"

namespace seam {

// `inputs` follow the kernel fusion's inputs (tensors laid out with their declared strides, scalars as
// rank-0 tensors); returns contiguous outputs of `output_types`. `constants`: the extents argument of a
// kernel printed with ExtentSpelling::Arguments (KernelConstants::pack), empty for literals; `symbol`:
// the kernel's name in the module when it differs from kernel.name (codegen/kernel_program.h). `initial`: for
// a kernel that updates its output in place (kir::updates_output_in_place), the values it starts from.
std::vector<HostTensor> run_host_kernel(const HostModule& module, const kir::Kernel& kernel,
                                        const std::vector<HostTensor>& inputs,
                                        const std::vector<Type>& output_types,
                                        const std::vector<uint64_t>& constants = {},
                                        const std::string& symbol = "",
                                        const std::vector<HostTensor>& initial = {});

}  // namespace seam
