#include "interp/compare.h"

#include <cmath>
#include <sstream>

namespace seam {

Tolerance default_tolerance(DType dtype) {
  switch (dtype) {
    case DType::BFloat16: return {1.6e-2, 1e-5};
    case DType::Float16: return {1e-3, 1e-5};
    case DType::Float32: return {1.3e-6, 1e-5};
    case DType::Float64: return {1e-7, 1e-7};
    default: return {0, 0};
  }
}

namespace {
std::string index_to_string(int64_t linear, const Shape& shape) {
  Shape index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    index[d] = shape[d] ? linear % shape[d] : 0;
    linear = shape[d] ? linear / shape[d] : 0;
  }
  return shape_to_string(index);
}
}  // namespace

Comparison compare_tensors(const HostTensor& actual, const HostTensor& expected, Tolerance tolerance) {
  Comparison result;
  if (actual.dtype() != expected.dtype() || actual.shape() != expected.shape()) {
    result.ok = false;
    result.message = "expected " + Type::tensor(expected.dtype(), expected.shape()).to_string() + ", got " +
                     Type::tensor(actual.dtype(), actual.shape()).to_string();
    return result;
  }
  const bool exact = !is_floating(actual.dtype());
  double worst_excess = -1;
  int64_t worst = -1;
  for (int64_t i = 0; i < actual.numel(); ++i) {
    bool close;
    double diff = 0;
    if (exact) {
      int64_t a = actual.get_int(i), e = expected.get_int(i);
      close = a == e;
      diff = close ? 0 : std::fabs(static_cast<double>(a) - static_cast<double>(e));
    } else {
      double a = actual.get_double(i), e = expected.get_double(i);
      if (std::isnan(a) || std::isnan(e)) {
        close = std::isnan(a) && std::isnan(e);
        diff = close ? 0 : INFINITY;
      } else if (a == e) {
        close = true;  // also equal infinities
      } else {
        diff = std::fabs(a - e);
        close = diff <= tolerance.atol + tolerance.rtol * std::fabs(e);
      }
    }
    if (diff > result.max_abs_diff) result.max_abs_diff = diff;
    if (!close) {
      ++result.mismatches;
      if (result.first_mismatch < 0) result.first_mismatch = i;
      double excess = std::isinf(diff) ? INFINITY : diff - tolerance.atol;
      if (excess > worst_excess) {
        worst_excess = excess;
        worst = i;
      }
    }
  }
  if (result.mismatches > 0) {
    result.ok = false;
    std::ostringstream out;
    out.precision(9);
    out << result.mismatches << " of " << actual.numel() << " elements differ beyond rtol " << tolerance.rtol
        << ", atol " << tolerance.atol << "; worst at " << index_to_string(worst, actual.shape()) << ": got "
        << (exact ? static_cast<double>(actual.get_int(worst)) : actual.get_double(worst)) << ", expected "
        << (exact ? static_cast<double>(expected.get_int(worst)) : expected.get_double(worst))
        << "; max abs diff " << result.max_abs_diff;
    result.message = out.str();
  }
  return result;
}

}  // namespace seam
