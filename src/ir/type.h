// The type of a value: a scalar of a dtype, or a tensor of a dtype with static extents.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/dtype.h"

namespace seam {

using Shape = std::vector<int64_t>;

struct Type {
  DType dtype = DType::Float32;
  bool is_scalar = false;  // a scalar (like a Python number) rather than a tensor
  Shape shape;             // extents; empty for scalars and rank-0 tensors

  static Type scalar(DType dtype) { return Type{dtype, true, {}}; }
  static Type tensor(DType dtype, Shape shape) { return Type{dtype, false, std::move(shape)}; }

  int rank() const { return static_cast<int>(shape.size()); }
  // 1 for scalars and rank-0 tensors. Both throw seam::Error on int64 overflow, which a type that
  // passed the size limits (ir/limits.h) never reaches.
  int64_t numel() const;
  int64_t bytes() const;
  std::string to_string() const;  // "bf16[2,3]", "bf16[]" (rank 0), "f32" (scalar)

  friend bool operator==(const Type&, const Type&) = default;
};

// Row-major strides (in elements) of a contiguous tensor of this shape.
Shape contiguous_strides(const Shape& shape);
std::string shape_to_string(const Shape& shape);  // "[2,3]"
// The shape with its extent-1 axes dropped: [4,1,8,1] -> [4,8].
Shape without_unit_axes(const Shape& shape);

}  // namespace seam
