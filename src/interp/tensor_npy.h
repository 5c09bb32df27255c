// HostTensor <-> NpyArray conversions behind read_npy and write_npy (declared in support/npy.h, which
// documents the conventions), exposed for in-memory use and tests.
#pragma once

#include <optional>
#include <string>

#include "interp/host_tensor.h"
#include "support/npy.h"

namespace seam {

HostTensor host_tensor_from_npy(const NpyArray& array, std::optional<DType> expected,
                                const std::string& source);
NpyArray npy_from_host_tensor(const HostTensor& tensor);

}  // namespace seam
