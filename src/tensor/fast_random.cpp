#include "tensor/fast_random.h"

#include <cstring>
#include <limits>

#include "support/parallel.h"
#include "tensor/host_memory.h"

namespace seam {
namespace {

uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// A float32 bit pattern in (-1, 1): sign, exponent 119..126, 23 random mantissa bits.
uint32_t f32_bits(uint64_t r) {
  return static_cast<uint32_t>(((r >> 63) << 31) | ((119 + ((r >> 23) & 7)) << 23) | (r & 0x7fffff));
}

}  // namespace

void fill_fast_random(HostTensor& tensor, uint64_t seed) {
  const int64_t n = tensor.numel();
  const DType dtype = tensor.dtype();
  const bool contiguous = tensor.is_contiguous();
  std::byte* data = tensor.storage().data();
  // Elements are independent, but strides may alias (0): a strided tensor is filled in order, by one thread.
  const int64_t grain = contiguous ? int64_t{1} << 14 : std::numeric_limits<int64_t>::max();
  parallel_for(
      n,
      [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) {
          const uint64_t r = splitmix64(seed * 0x100000001b3ull + static_cast<uint64_t>(i));
          if (!contiguous) {  // strided: go through the element accessors
            if (is_floating(dtype)) {
              float f;
              uint32_t bits = f32_bits(r);
              std::memcpy(&f, &bits, 4);
              tensor.set_double(i, f);
            } else {
              tensor.set_int(
                  i, dtype == DType::Bool ? static_cast<int64_t>(r & 1) : static_cast<int64_t>(r % 16) - 8);
            }
            continue;
          }
          switch (dtype) {
            case DType::BFloat16:
            case DType::Float16: {
              // bf16: the top half of an f32 pattern; f16: sign, exponent 7..14, 10 mantissa bits.
              uint16_t bits = dtype == DType::BFloat16
                                  ? static_cast<uint16_t>(f32_bits(r) >> 16)
                                  : static_cast<uint16_t>(((r >> 63) << 15) | ((7 + ((r >> 10) & 7)) << 10) |
                                                          (r & 0x3ff));
              std::memcpy(data + 2 * i, &bits, 2);
              break;
            }
            case DType::Float32: {
              uint32_t bits = f32_bits(r);
              std::memcpy(data + 4 * i, &bits, 4);
              break;
            }
            default: {
              if (is_floating(dtype)) {
                uint32_t bits = f32_bits(r);
                float f;
                std::memcpy(&f, &bits, 4);
                tensor.set_double(i, f);
              } else {
                tensor.set_int(
                    i, dtype == DType::Bool ? static_cast<int64_t>(r & 1) : static_cast<int64_t>(r % 16) - 8);
              }
            }
          }
        }
      },
      grain);
}

std::vector<HostTensor> fast_random_inputs(const Fusion& fusion, uint64_t seed) {
  check_inputs_fit_host_memory(fusion);
  std::vector<HostTensor> inputs;
  for (size_t i = 0; i < fusion.inputs().size(); ++i) {
    Value v = fusion.inputs()[i];
    const Type& t = fusion.type(v);
    HostTensor x = t.is_scalar ? HostTensor::zeros(t.dtype, {})
                               : HostTensor::zeros_strided(t.dtype, t.shape, fusion.input_strides(v));
    fill_fast_random(x, seed * 1000003 + i);
    inputs.push_back(std::move(x));
  }
  return inputs;
}

}  // namespace seam
