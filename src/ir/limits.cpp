#include "ir/limits.h"

#include <algorithm>

#include "support/checked_math.h"
#include "support/error.h"

namespace seam {

void check_type_limits(const Type& type) {
  SEAM_CHECK(type.rank() <= SizeLimits::kMaxRank, "type ", dtype_name(type.dtype), "[...] has rank ",
             type.rank(), ", over the limit of ", SizeLimits::kMaxRank);
  int64_t product = 1;
  for (int64_t e : type.shape) {
    SEAM_CHECK(e >= 0, "negative extent in ", type.to_string());
    const std::optional<int64_t> next = checked_mul(product, std::max<int64_t>(e, 1));
    SEAM_CHECK(next && *next <= SizeLimits::kMaxElements, "type ", type.to_string(),
               " has too many elements (the limit is 2^40, extents of 0 counted as 1)");
    product = *next;
  }
  SEAM_CHECK(product * dtype_size(type.dtype) <= SizeLimits::kMaxBytes, "type ", type.to_string(), " needs ",
             product * dtype_size(type.dtype), " bytes, over the limit of 2^40 bytes per tensor",
             type.numel() == 0 ? " (extents of 0 counted as 1)" : "");
}

int64_t strided_storage_bytes(DType dtype, const Shape& shape, const Shape& strides) {
  SEAM_CHECK(strides.size() == shape.size(), strides.size(), " strides for rank ", shape.size());
  for (int64_t e : shape)
    if (e == 0) return 0;
  int64_t last = 0;
  for (size_t d = 0; d < shape.size(); ++d) {
    SEAM_CHECK(shape[d] >= 0 && strides[d] >= 0, "strides ", shape_to_string(strides), " for shape ",
               shape_to_string(shape), " must be non-negative");
    const std::optional<int64_t> reach = checked_mul(shape[d] - 1, strides[d]);
    const std::optional<int64_t> sum = reach ? checked_add(last, *reach) : std::nullopt;
    SEAM_CHECK(sum.has_value(), "strides ", shape_to_string(strides), " for shape ", shape_to_string(shape),
               " reach beyond 2^63 elements");
    last = *sum;
  }
  const std::optional<int64_t> bytes = checked_mul(last + 1, dtype_size(dtype));
  SEAM_CHECK(bytes.has_value(), "strides ", shape_to_string(strides), " for shape ", shape_to_string(shape),
             " reach beyond 2^63 bytes");
  return *bytes;
}

void check_strides_limits(const Type& type, const Shape& strides) {
  for (int64_t s : strides)
    SEAM_CHECK(s >= 0 && s <= SizeLimits::kMaxElements, "input stride ", s, " in ", shape_to_string(strides),
               " is outside [0, 2^40]");
  const int64_t bytes = strided_storage_bytes(type.dtype, type.shape, strides);
  SEAM_CHECK(bytes <= SizeLimits::kMaxBytes, "strides ", shape_to_string(strides), " of ", type.to_string(),
             " reach ", bytes, " bytes of storage, over the limit of 2^40 bytes per tensor");
}

void check_fusion_size(int64_t nodes, int64_t outputs) {
  SEAM_CHECK(nodes + outputs <= SizeLimits::kMaxFusionSize, "fusion of ", nodes, " values and ", outputs,
             " outputs is over the limit of 2^20 values plus outputs");
}

}  // namespace seam
