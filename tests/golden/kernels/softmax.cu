// 1 kernel(s) for fusion softmax

// group 0: row kernel, 32 rows of 1024 reduced elements, 1 rows x 256 threads per block
// launch: row kernel: block 256 (1 rows x 256 threads), grid 32 blocks, no register cap, lanes contiguous
#include "seam_device.cuh"

SEAM_KERNEL void __launch_bounds__(256) softmax_k0(const float* __restrict__ in0, float* __restrict__ out0) {
  typedef int idx_t;
  __shared__ __align__(16) unsigned char seam_scratch[2048];
  const seam_rows<1, 256, true> seam_row_ctx(seam_scratch);
  const int seam_lane = seam_row_ctx.lane;
  const int seam_lanes = 256;
  for (long long seam_first_row = (long long)blockIdx.x * 1; seam_first_row < 32LL; seam_first_row += (long long)gridDim.x * 1) {
    const idx_t row = (idx_t)(seam_first_row + seam_row_ctx.slot);
    const idx_t seam_row_extent = row < 32 ? 1024 : 0;
    (void)seam_row_extent;
    float v1_0 = seam_convert<float>(seam_double_from_bits(18442240474082181120ULL));
    for (idx_t k2 = seam_lane; k2 < seam_row_extent; k2 += seam_lanes) {
      float v4_0 = *(in0 + ((row * 1024) + k2));
      float v5_0 = seam_maximum(v1_0, v4_0);
      v1_0 = v5_0;
    }
    float v6_0 = seam_row_reduce_max(v1_0, seam_row_ctx);
    float v7_0 = seam_convert<float>(((seam_i64)0LL));
    for (idx_t k8 = seam_lane; k8 < seam_row_extent; k8 += seam_lanes) {
      float v10_0 = *(in0 + ((row * 1024) + k8));
      float v11_0 = (v10_0 - v6_0);
      float v12_0 = seam_exp(v11_0);
      float v13_0 = (v7_0 + v12_0);
      v7_0 = v13_0;
    }
    float v14_0 = seam_row_reduce_sum(v7_0, seam_row_ctx);
    for (idx_t k15 = seam_lane; k15 < seam_row_extent; k15 += seam_lanes) {
      float v17_0 = *(in0 + ((row * 1024) + k15));
      float v18_0 = (v17_0 - v6_0);
      float v19_0 = seam_exp(v18_0);
      float v20_0 = (v19_0 / v14_0);
      out0[(k15 + (row * 1024))] = v20_0;
    }
  }
}
