#include "ir/type.h"

namespace seam {

int64_t Type::numel() const {
  int64_t n = 1;
  for (int64_t e : shape) n *= e;
  return n;
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
    stride *= shape[i] > 0 ? shape[i] : 1;
  }
  return strides;
}

}  // namespace seam
