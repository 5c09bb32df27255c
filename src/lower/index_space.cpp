#include "lower/index_space.h"

#include <algorithm>

#include "support/error.h"

namespace seam {

kir::Index linearize(const std::vector<kir::Index>& coordinates, const Shape& extents) {
  SEAM_ASSERT(coordinates.size() == extents.size());
  kir::Index linear = kir::constant(0);
  int64_t stride = 1;
  for (size_t d = extents.size(); d-- > 0;) {
    linear = kir::add(linear, kir::mul(coordinates[d], stride));
    stride *= extents[d];
  }
  return linear;
}

int64_t row_major_stride(const Shape& extents, size_t axis) {
  int64_t stride = 1;
  for (size_t d = axis + 1; d < extents.size(); ++d) stride *= extents[d];
  return stride;
}

kir::Index strided_offset(const std::vector<kir::Index>& coordinates, const Shape& strides) {
  SEAM_ASSERT(coordinates.size() >= strides.size());
  kir::Index offset = kir::constant(0);
  for (size_t d = 0; d < strides.size(); ++d) offset = kir::add(offset, kir::mul(coordinates[d], strides[d]));
  return offset;
}

std::vector<kir::Index> delinearize(const kir::Index& linear, const Shape& extents, UnitAxes unit_axes) {
  std::vector<kir::Index> coordinates(extents.size(), kir::constant(0));
  if (std::find(extents.begin(), extents.end(), 0) != extents.end()) return coordinates;
  int64_t inner = 1;
  for (size_t d = extents.size(); d-- > 0;) {
    kir::Index c = kir::div(linear, inner);
    if (d != 0) c = kir::mod(c, extents[d]);
    if (extents[d] == 1 && unit_axes == UnitAxes::AtZero) c = kir::constant(0);
    coordinates[d] = c;
    inner *= extents[d];
  }
  return coordinates;
}

Shape delinearize(int64_t linear, const Shape& extents) {
  Shape coordinates(extents.size(), 0);
  for (size_t d = extents.size(); d-- > 0;) {
    coordinates[d] = linear % extents[d];
    linear /= extents[d];
  }
  return coordinates;
}

}  // namespace seam
