#include "ir/type.h"

#include "support/checked_math.h"
#include "support/error.h"

namespace seam {

int64_t Type::numel() const {
  const std::optional<int64_t> n = checked_product(shape);
  SEAM_CHECK(n.has_value(), "type ", to_string(), " has more than 2^63 elements");
  return *n;
}

int64_t Type::bytes() const {
  const std::optional<int64_t> n = checked_mul(numel(), dtype_size(dtype));
  SEAM_CHECK(n.has_value(), "type ", to_string(), " has more than 2^63 bytes");
  return *n;
}

std::string shape_to_string(const Shape& shape) {
  std::string out = "[";
  for (size_t i = 0; i < shape.size(); ++i) out += (i ? "," : "") + std::to_string(shape[i]);
  return out + "]";
}

std::string Type::to_string() const {
  std::string out(dtype_name(dtype));
  if (!is_scalar) out += shape_to_string(shape);
  return out;
}

Shape without_unit_axes(const Shape& shape) {
  Shape out;
  for (int64_t e : shape)
    if (e != 1) out.push_back(e);
  return out;
}

Shape contiguous_strides(const Shape& shape) {
  Shape strides(shape.size());
  int64_t stride = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = stride;
    const std::optional<int64_t> next = checked_mul(stride, shape[i] > 0 ? shape[i] : 1);
    SEAM_CHECK(next.has_value(), "shape ", shape_to_string(shape), " is too large for int64 strides");
    stride = *next;
  }
  return strides;
}

}  // namespace seam
