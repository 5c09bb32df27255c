// HostTensors in .npy files, over the byte level of support/npy.h.
// Conventions (docs/INTERPRETER.md): dtypes map to '|b1', '<i4', '<i8', '<f2', '<f4', '<f8'; NumPy has
// no bf16, so a bf16 tensor is written as '<u2' holding the raw bf16 bit patterns, and read from '<u2',
// '<V2' or '|V2' when the caller expects bf16. Fortran-order files are read by reordering them to C
// order; files are always written in C order.
#pragma once

#include <optional>
#include <string>

#include "support/npy.h"
#include "tensor/host_tensor.h"

namespace seam {

// `expected`: the dtype the caller needs (e.g. from the fusion's input declaration); a file holding
// another dtype is an error naming both. Without it, the file's dtype is used and '<u2' is rejected
// (it is bf16 only by convention). Returns a contiguous tensor.
HostTensor read_npy(const std::string& path, std::optional<DType> expected = std::nullopt);
void write_npy(const std::string& path, const HostTensor& tensor);

// The conversions behind read_npy and write_npy, for in-memory use and tests.
HostTensor host_tensor_from_npy(const NpyArray& array, std::optional<DType> expected,
                                const std::string& source);
NpyArray npy_from_host_tensor(const HostTensor& tensor);

}  // namespace seam
