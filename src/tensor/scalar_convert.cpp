#include "tensor/scalar_convert.h"

#include <bit>
#include <cmath>
#include <limits>

#include "support/error.h"
#include "support/half.h"
#include "tensor/float8_convert.h"

namespace seam {
namespace {

// int64 -> double rounded to odd: truncate to 53 significant bits and set the last bit when anything
// was dropped. Rounding that result again to a format of at most 51 bits gives the correctly rounded
// value, which a plain (round-to-nearest) int64 -> double would not guarantee.
double int_to_double_round_to_odd(int64_t value) {
  const bool negative = value < 0;
  uint64_t magnitude = negative ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  const int width = 64 - std::countl_zero(magnitude);
  if (width > 53) {
    const int dropped_bits = width - 53;
    const uint64_t dropped = magnitude & ((uint64_t{1} << dropped_bits) - 1);
    magnitude = (magnitude >> dropped_bits) | (dropped != 0 ? 1 : 0);
    const double truncated = std::ldexp(static_cast<double>(magnitude), dropped_bits);  // exact
    return negative ? -truncated : truncated;
  }
  const double exact = static_cast<double>(magnitude);
  return negative ? -exact : exact;
}

}  // namespace

double round_to_dtype(DType floating, double value) {
  switch (floating) {
    case DType::Float64: return value;
    case DType::Float32: return round_to_float(value);
    case DType::BFloat16: return bf16_bits_to_float(double_to_bf16_bits(value));
    case DType::Float16: return f16_bits_to_float(double_to_f16_bits(value));
    case DType::Float8E4M3FN:
    case DType::Float8E5M2: return float8_bits_to_float(floating, double_to_float8_bits(floating, value));
    default: SEAM_ASSERT(false, "round_to_dtype of non-floating ", dtype_name(floating));
  }
  return 0.0;
}

double int_to_floating(DType floating, int64_t value) {
  // A plain conversion to double rounds to nearest even, which is right when double is the target.
  if (floating == DType::Float64) return static_cast<double>(value);
  return round_to_dtype(floating, int_to_double_round_to_odd(value));
}

int64_t floating_to_integer(DType integer_or_bool, double value) {
  if (integer_or_bool == DType::Bool) return value != 0.0 || std::isnan(value) ? 1 : 0;
  if (std::isnan(value)) return 0;
  const double truncated = std::trunc(value);
  if (integer_or_bool == DType::Int32) {
    if (truncated >= 2147483648.0) return std::numeric_limits<int32_t>::max();
    if (truncated < -2147483648.0) return std::numeric_limits<int32_t>::min();
    return static_cast<int64_t>(truncated);
  }
  SEAM_ASSERT(integer_or_bool == DType::Int64, "floating_to_integer to ", dtype_name(integer_or_bool));
  if (truncated >= 9223372036854775808.0) return std::numeric_limits<int64_t>::max();
  if (truncated < -9223372036854775808.0) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(truncated);
}

int64_t int_to_integer(DType integer_or_bool, int64_t value) {
  switch (integer_or_bool) {
    case DType::Bool: return value != 0 ? 1 : 0;
    case DType::Int32: return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(value)));
    case DType::Int64: return value;
    default: SEAM_ASSERT(false, "int_to_integer to ", dtype_name(integer_or_bool));
  }
  return 0;
}

Scalar convert_scalar(const Scalar& value, DType to) {
  if (is_floating(to))
    return Scalar::of_real(value.is_float ? round_to_dtype(to, value.real)
                                          : int_to_floating(to, value.integer));
  return Scalar::of_int(value.is_float ? floating_to_integer(to, value.real)
                                       : int_to_integer(to, value.integer));
}

}  // namespace seam
