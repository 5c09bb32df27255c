// Small CUDA sources shared by the runtime tests.
#pragma once

namespace seam::test_kernels {

inline constexpr const char* kVectorAdd = R"(
extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
)";

inline constexpr const char* kBf16Scale = R"(
#include <cuda_bf16.h>
extern "C" __global__ void bf16_scale(const __nv_bfloat16* x, __nv_bfloat16* y, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __float2bfloat16(__bfloat162float(x[i]) * s);
}
)";

inline constexpr const char* kTemplate = R"(
template <typename T, int kUnroll>
__global__ void scale(T* x, T s, int n) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * kUnroll;
  #pragma unroll
  for (int j = 0; j < kUnroll; ++j) if (i + j < n) x[i + j] *= s;
}
)";

}  // namespace seam::test_kernels
