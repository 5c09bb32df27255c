// Checked int64 arithmetic for sizes: products of extents and strides, element counts times dtype
// sizes, sums of bytes. Each returns nullopt instead of overflowing, so callers turn an impossible size
// into a seam::Error that names it rather than into a wrapped, plausible-looking number.
#pragma once

#include <cstdint>
#include <optional>

namespace seam {

inline std::optional<int64_t> checked_mul(int64_t a, int64_t b) {
  int64_t out;
  if (__builtin_mul_overflow(a, b, &out)) return std::nullopt;
  return out;
}

inline std::optional<int64_t> checked_add(int64_t a, int64_t b) {
  int64_t out;
  if (__builtin_add_overflow(a, b, &out)) return std::nullopt;
  return out;
}

// The product of `values` taken left to right, or nullopt when a partial product overflows (even if a
// later 0 would make the true product small).
template <typename Range>
std::optional<int64_t> checked_product(const Range& values) {
  int64_t product = 1;
  for (int64_t v : values)
    if (__builtin_mul_overflow(product, v, &product)) return std::nullopt;
  return product;
}

}  // namespace seam
