// The NumPy .npy file format. The byte level (header: magic, version, Python-literal dict with descr,
// fortran_order, shape; then raw data) is defined in support/npy.cpp. The HostTensor level (read_npy,
// write_npy) is declared here too, as agreed, but defined in interp/tensor_npy.cpp beside HostTensor, so
// that seam_support keeps no link dependency on later stages: callers of it link seam_interp.
//
// Reads format versions 1.0, 2.0 and 3.0; writes 1.0, or 2.0 when the header does not fit 1.0's
// 16-bit length. Every malformed file raises seam::Error naming the file and the problem.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace seam {

struct NpyArray {
  std::string descr;            // NumPy type string, e.g. "<f4", "|b1", "<u2"
  bool fortran_order = false;   // data in column-major order
  std::vector<int64_t> shape;   // () for a 0-d array
  std::vector<std::byte> data;  // exactly product(shape) * item size bytes
};

// Bytes per element of a descr like "<f4": its trailing number. Throws for a malformed or big-endian
// descr; `source` names the file in the message.
int64_t npy_item_size(const std::string& descr, const std::string& source);

// Parses a whole .npy file's bytes; `source` names it in error messages.
NpyArray parse_npy(const std::vector<std::byte>& bytes, const std::string& source);
// The bytes of a .npy file holding `array` (its data length must match its shape and descr).
std::vector<std::byte> format_npy(const NpyArray& array);

NpyArray read_npy_file(const std::string& path);
void write_npy_file(const std::string& path, const NpyArray& array);

// HostTensors in .npy files (defined in interp/tensor_npy.cpp; include interp/host_tensor.h to use).
// Conventions (docs/INTERPRETER.md): dtypes map to '|b1', '<i4', '<i8', '<f2', '<f4', '<f8'; NumPy has
// no bf16, so a bf16 tensor is written as '<u2' holding the raw bf16 bit patterns, and read from '<u2',
// '<V2' or '|V2' when the caller expects bf16. Fortran-order files are read by reordering them to C
// order; files are always written in C order.
class HostTensor;
enum class DType : uint8_t;
// `expected`: the dtype the caller needs (e.g. from the fusion's input declaration); a file holding
// another dtype is an error naming both. Without it, the file's dtype is used and '<u2' is rejected
// (it is bf16 only by convention). Returns a contiguous tensor.
HostTensor read_npy(const std::string& path, std::optional<DType> expected = std::nullopt);
void write_npy(const std::string& path, const HostTensor& tensor);

}  // namespace seam
