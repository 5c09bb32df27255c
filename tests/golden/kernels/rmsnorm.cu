// 1 kernel(s) for fusion rmsnorm

// group 0: row kernel, 64 rows of 4096 reduced elements, 1 rows x 256 threads per block
// launch: row kernel: block 256 (1 rows x 256 threads), grid 64 blocks, no register cap, lanes contiguous
#include "seam_device.cuh"

SEAM_KERNEL void __launch_bounds__(256) rmsnorm_k0(const seam_bf16* __restrict__ in0, const seam_bf16* __restrict__ in1, seam_bf16* __restrict__ out0) {
  typedef int idx_t;
  __shared__ __align__(16) unsigned char seam_scratch[2048];
  const seam_rows<1, 256, true> seam_row_ctx(seam_scratch);
  const int seam_lane = seam_row_ctx.lane;
  const int seam_lanes = 256;
  for (long long seam_first_row = (long long)blockIdx.x * 1; seam_first_row < 64LL; seam_first_row += (long long)gridDim.x * 1) {
    const idx_t row = (idx_t)(seam_first_row + seam_row_ctx.slot);
    const idx_t seam_row_extent = row < 64 ? 4096 : 0;
    (void)seam_row_extent;
    float v1_0 = seam_convert<float>(((seam_i64)0LL));
    for (idx_t k2 = seam_lane; k2 < seam_row_extent; k2 += seam_lanes) {
      seam_bf16 v4_0 = *(in0 + ((row * 4096) + k2));
      float v5_0 = seam_convert<float>(v4_0);
      float v6_0 = (v5_0 * v5_0);
      float v7_0 = (v1_0 + v6_0);
      v1_0 = v7_0;
    }
    float v8_0 = seam_row_reduce_sum(v1_0, seam_row_ctx);
    for (idx_t k9 = seam_lane; k9 < seam_row_extent; k9 += seam_lanes) {
      seam_bf16 v11_0 = *(in0 + ((row * 4096) + k9));
      float v12_0 = seam_convert<float>(v11_0);
      float v13_0 = seam_convert<float>(4096.0);
      float v14_0 = (v8_0 / v13_0);
      float v15_0 = seam_convert<float>(1e-05);
      float v16_0 = (v14_0 + v15_0);
      float v17_0 = seam_rsqrt(v16_0);
      float v18_0 = (v12_0 * v17_0);
      seam_bf16 v19_0 = *(in1 + k9);
      float v20_0 = seam_convert<float>(v19_0);
      float v21_0 = (v18_0 * v20_0);
      seam_bf16 v22_0 = seam_convert<seam_bf16>(v21_0);
      out0[(k9 + (row * 4096))] = v22_0;
    }
  }
}
