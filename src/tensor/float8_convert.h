// f8 conversions on the host (support/float8.h on f32 bit patterns): what the interpreter stores and reads.
#pragma once

#include <bit>
#include <cstdint>

#include "ir/dtype.h"
#include "support/float8.h"
#include "support/half.h"

namespace seam {

// The f8 bits of `value`, rounded to f32 first and then to the f8 dtype (PyTorch's two steps).
inline uint8_t double_to_float8_bits(DType dtype, double value) {
  const uint32_t bits = std::bit_cast<uint32_t>(round_to_float(value));
  return dtype == DType::Float8E4M3FN ? f8::e4m3fn_from_f32_bits(bits) : f8::e5m2_from_f32_bits(bits);
}

inline float float8_bits_to_float(DType dtype, uint8_t bits) {
  return std::bit_cast<float>(dtype == DType::Float8E4M3FN ? f8::e4m3fn_to_f32_bits(bits)
                                                           : f8::e5m2_to_f32_bits(bits));
}

}  // namespace seam
