// The NumPy .npy file format at the byte level (header: magic, version, Python-literal dict with descr,
// fortran_order, shape; then raw data). Host tensors in .npy files (read_npy, write_npy) are in
// tensor/tensor_npy.h, beside HostTensor.
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

}  // namespace seam
