// HostTensor: a tensor in host memory, with a dtype, extents and strides (elements). The interpreter's
// values and the tool's .npy inputs and outputs are HostTensors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "ir/type.h"
#include "tensor/scalar_convert.h"

namespace seam {

class HostTensor {
 public:
  HostTensor() = default;
  // A contiguous tensor filled with zeros. A scalar is a HostTensor of rank 0.
  static HostTensor zeros(DType dtype, Shape shape);
  // A tensor over given strides, with storage for every element they reach (for strided inputs).
  static HostTensor zeros_strided(DType dtype, Shape shape, Shape strides);
  // Uniform random values: floats in [-1, 1) (rounded to dtype), integers in [-8, 8), bools 50/50.
  static HostTensor random(DType dtype, Shape shape, std::mt19937_64& rng);
  // Contiguous tensors from row-major values, each converted to the dtype like a cast (rounded once).
  static HostTensor from_doubles(DType dtype, Shape shape, const std::vector<double>& values);
  static HostTensor from_ints(DType dtype, Shape shape, const std::vector<int64_t>& values);

  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  const Shape& strides() const { return strides_; }
  int rank() const { return static_cast<int>(shape_.size()); }
  int64_t numel() const { return numel_; }
  bool is_contiguous() const;

  // Element access by multi-index or by row-major linear index (over the logical shape). Values go
  // through double for floating and bool dtypes and int64 for integer ones; set() rounds to the dtype
  // (round-to-nearest-even for f16/bf16/f32).
  double get_double(int64_t linear_index) const;
  int64_t get_int(int64_t linear_index) const;
  void set_double(int64_t linear_index, double value);
  void set_int(int64_t linear_index, int64_t value);
  // The element as a Scalar (double for floating dtypes, int64 otherwise); set() converts like a cast.
  Scalar get(int64_t linear_index) const;
  void set(int64_t linear_index, const Scalar& value);
  // Every element in row-major order (get_double of each).
  std::vector<double> to_doubles() const;
  std::vector<int64_t> to_ints() const;
  // Overwrites every logical element with random values as random() draws them.
  void fill_random(std::mt19937_64& rng);
  // "bf16[2,3]"; rank 0 prints "bf16[]".
  std::string type_string() const;
  // Bytes of storage the shape and strides reach; checks that storage() holds them.
  int64_t required_storage_bytes() const;

  // Raw storage, little endian, in the layout the strides describe.
  std::vector<std::byte>& storage() { return storage_; }
  const std::vector<std::byte>& storage() const { return storage_; }
  // A contiguous copy.
  HostTensor contiguous() const;
  // A copy with the same elements laid out over `strides` (e.g. to match an input's declared strides).
  HostTensor restrided(const Shape& strides) const;

 private:
  int64_t offset_of(int64_t linear_index) const;  // element offset in storage
  DType dtype_ = DType::Float32;
  Shape shape_;
  Shape strides_;
  std::vector<std::byte> storage_;
  // Fixed with shape and strides at construction, so that element access costs no loop over the axes
  // when the layout is row-major.
  int64_t numel_ = 1;
  int64_t required_bytes_ = sizeof(float);  // a default tensor: one f32 element, no storage yet
  bool row_major_ = true;
};

}  // namespace seam
