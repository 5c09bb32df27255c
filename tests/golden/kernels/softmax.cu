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
  constexpr int seam_row_iterations = 1;
  alignas(16) float seam_cache0[1][4];
  for (long long seam_first_row = (long long)blockIdx.x * 1; seam_first_row < 32LL; seam_first_row += (long long)gridDim.x * 1) {
    const idx_t row = (idx_t)(seam_first_row + seam_row_ctx.slot);
    const idx_t seam_row_extent = row < 32 ? 256 : 0;
    (void)seam_row_extent;
    float v1_0 = seam_convert<float>(seam_double_from_bits(18442240474082181120ULL));
    float v1_1 = seam_convert<float>(seam_double_from_bits(18442240474082181120ULL));
    float v1_2 = seam_convert<float>(seam_double_from_bits(18442240474082181120ULL));
    float v1_3 = seam_convert<float>(seam_double_from_bits(18442240474082181120ULL));
    SEAM_UNROLL(1)
    for (idx_t seam_it = 0; seam_it < seam_row_iterations; ++seam_it) {
      const idx_t k = seam_lane + seam_it * seam_lanes;
      if (k < seam_row_extent) {
        seam_load<4>(in0 + ((row * 1024) + (k * 4)), seam_cache0[seam_it]);
      }
    }
    SEAM_UNROLL(1)
    for (idx_t seam_it = 0; seam_it < seam_row_iterations; ++seam_it) {
      const idx_t k = seam_lane + seam_it * seam_lanes;
      if (k < seam_row_extent) {
        alignas(16) float v2[4];
        v2[0] = seam_cache0[seam_it][0];
        v2[1] = seam_cache0[seam_it][1];
        v2[2] = seam_cache0[seam_it][2];
        v2[3] = seam_cache0[seam_it][3];
        float v3_0 = seam_maximum(v1_0, v2[0]);
        float v3_1 = seam_maximum(v1_1, v2[1]);
        float v3_2 = seam_maximum(v1_2, v2[2]);
        float v3_3 = seam_maximum(v1_3, v2[3]);
        v1_0 = v3_0;
        v1_1 = v3_1;
        v1_2 = v3_2;
        v1_3 = v3_3;
      }
    }
    float v4_0 = seam_row_reduce_max(seam_maximum(seam_maximum(seam_maximum(v1_0, v1_1), v1_2), v1_3), seam_row_ctx);
    float v5_0 = seam_convert<float>(((seam_i64)0LL));
    float v5_1 = seam_convert<float>(((seam_i64)0LL));
    float v5_2 = seam_convert<float>(((seam_i64)0LL));
    float v5_3 = seam_convert<float>(((seam_i64)0LL));
    SEAM_UNROLL(1)
    for (idx_t seam_it = 0; seam_it < seam_row_iterations; ++seam_it) {
      const idx_t k = seam_lane + seam_it * seam_lanes;
      if (k < seam_row_extent) {
        alignas(16) float v6[4];
        v6[0] = seam_cache0[seam_it][0];
        v6[1] = seam_cache0[seam_it][1];
        v6[2] = seam_cache0[seam_it][2];
        v6[3] = seam_cache0[seam_it][3];
        float v7_0 = (v6[0] - v4_0);
        float v7_1 = (v6[1] - v4_0);
        float v7_2 = (v6[2] - v4_0);
        float v7_3 = (v6[3] - v4_0);
        float v8_0 = seam_exp(v7_0);
        float v8_1 = seam_exp(v7_1);
        float v8_2 = seam_exp(v7_2);
        float v8_3 = seam_exp(v7_3);
        float v9_0 = (v5_0 + v8_0);
        float v9_1 = (v5_1 + v8_1);
        float v9_2 = (v5_2 + v8_2);
        float v9_3 = (v5_3 + v8_3);
        v5_0 = v9_0;
        v5_1 = v9_1;
        v5_2 = v9_2;
        v5_3 = v9_3;
      }
    }
    float v10_0 = seam_row_reduce_sum(seam_add(seam_add(seam_add(v5_0, v5_1), v5_2), v5_3), seam_row_ctx);
    float v10_rcp0_0 = seam_reciprocal(v10_0);
    SEAM_UNROLL(1)
    for (idx_t seam_it = 0; seam_it < seam_row_iterations; ++seam_it) {
      const idx_t k = seam_lane + seam_it * seam_lanes;
      if (k < seam_row_extent) {
        alignas(16) float v11[4];
        v11[0] = seam_cache0[seam_it][0];
        v11[1] = seam_cache0[seam_it][1];
        v11[2] = seam_cache0[seam_it][2];
        v11[3] = seam_cache0[seam_it][3];
        float v12_0 = (v11[0] - v4_0);
        float v12_1 = (v11[1] - v4_0);
        float v12_2 = (v11[2] - v4_0);
        float v12_3 = (v11[3] - v4_0);
        float v13_0 = seam_exp(v12_0);
        float v13_1 = seam_exp(v12_1);
        float v13_2 = seam_exp(v12_2);
        float v13_3 = seam_exp(v12_3);
        alignas(16) float v14[4];
        v14[0] = (v13_0 * v10_rcp0_0);
        v14[1] = (v13_1 * v10_rcp0_0);
        v14[2] = (v13_2 * v10_rcp0_0);
        v14[3] = (v13_3 * v10_rcp0_0);
        seam_store<4>(out0 + ((k * 4) + (row * 1024)), v14);
      }
    }
  }
}
