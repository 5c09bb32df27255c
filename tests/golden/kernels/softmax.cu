// 1 kernel(s) for fusion softmax

// group 0: row kernel, 32 rows of 1024 reduced elements, 1 rows x 256 threads per block
// launch: row kernel: block 256 (1 rows x 256 threads), grid 32 blocks, no register cap, lanes contiguous
#include "seam_device.cuh"

struct seam_rows_19b4b96d999bb556_consts { long long v[5]; };
SEAM_KERNEL void __launch_bounds__(256) seam_rows_19b4b96d999bb556(const float* __restrict__ in0, float* __restrict__ out0, const seam_rows_19b4b96d999bb556_consts seam_k) {
  typedef int idx_t;
  __shared__ __align__(16) unsigned char seam_scratch[2048];
  const seam_rows<1, 256, true> seam_row_ctx(seam_scratch);
  const int seam_lane = seam_row_ctx.lane;
  const int seam_lanes = 256;
  constexpr int seam_row_iterations = 1;
  alignas(16) float seam_cache0[1][4];
  for (long long seam_first_row = (long long)blockIdx.x * 1; seam_first_row < (long long)((idx_t)seam_k.v[0]); seam_first_row += (long long)gridDim.x * 1) {
    const idx_t row = (idx_t)(seam_first_row + seam_row_ctx.slot);
    const idx_t seam_row_extent = row < ((idx_t)seam_k.v[1]) ? ((idx_t)seam_k.v[2]) : 0;
    (void)seam_row_extent;
    float v1_0 = seam_convert<float>(seam_double_from_bits(18442240474082181120ULL));
    float v1_1 = seam_convert<float>(seam_double_from_bits(18442240474082181120ULL));
    float v1_2 = seam_convert<float>(seam_double_from_bits(18442240474082181120ULL));
    float v1_3 = seam_convert<float>(seam_double_from_bits(18442240474082181120ULL));
    float v2_0 = seam_convert<float>(((seam_i64)0LL));
    float v2_1 = seam_convert<float>(((seam_i64)0LL));
    float v2_2 = seam_convert<float>(((seam_i64)0LL));
    float v2_3 = seam_convert<float>(((seam_i64)0LL));
    SEAM_UNROLL(1)
    for (idx_t seam_it = 0; seam_it < seam_row_iterations; ++seam_it) {
      const idx_t k = seam_lane + seam_it * seam_lanes;
      if (k < seam_row_extent) {
        seam_load<4>(in0 + ((row * ((idx_t)seam_k.v[3])) + (k * 4)), seam_cache0[seam_it]);
      }
    }
    SEAM_UNROLL(1)
    for (idx_t seam_it = 0; seam_it < seam_row_iterations; ++seam_it) {
      const idx_t k = seam_lane + seam_it * seam_lanes;
      if (k < seam_row_extent) {
        alignas(16) float v3[4];
        v3[0] = seam_cache0[seam_it][0];
        v3[1] = seam_cache0[seam_it][1];
        v3[2] = seam_cache0[seam_it][2];
        v3[3] = seam_cache0[seam_it][3];
        float v4_0 = seam_maximum(v1_0, v3[0]);
        float v4_1 = seam_maximum(v1_1, v3[1]);
        float v4_2 = seam_maximum(v1_2, v3[2]);
        float v4_3 = seam_maximum(v1_3, v3[3]);
        v1_0 = v4_0;
        v1_1 = v4_1;
        v1_2 = v4_2;
        v1_3 = v4_3;
      }
    }
    SEAM_UNROLL(1)
    for (idx_t seam_it = 0; seam_it < seam_row_iterations; ++seam_it) {
      const idx_t k = seam_lane + seam_it * seam_lanes;
      if (k < seam_row_extent) {
        alignas(16) float v5[4];
        v5[0] = seam_cache0[seam_it][0];
        v5[1] = seam_cache0[seam_it][1];
        v5[2] = seam_cache0[seam_it][2];
        v5[3] = seam_cache0[seam_it][3];
        float v6_0 = seam_convert<float>(0.0);
        float v7_0 = seam_convert<float>(seam_double_from_bits(18442240474082181120ULL));
        bool v8_0 = seam_eq(v1_0, v7_0);
        bool v8_1 = seam_eq(v1_1, v7_0);
        bool v8_2 = seam_eq(v1_2, v7_0);
        bool v8_3 = seam_eq(v1_3, v7_0);
        float v9_0 = (v8_0 ? v6_0 : v1_0);
        float v9_1 = (v8_1 ? v6_0 : v1_1);
        float v9_2 = (v8_2 ? v6_0 : v1_2);
        float v9_3 = (v8_3 ? v6_0 : v1_3);
        float v10_0 = (v5[0] - v9_0);
        float v10_1 = (v5[1] - v9_1);
        float v10_2 = (v5[2] - v9_2);
        float v10_3 = (v5[3] - v9_3);
        float v11_0 = seam_exp(v10_0);
        float v11_1 = seam_exp(v10_1);
        float v11_2 = seam_exp(v10_2);
        float v11_3 = seam_exp(v10_3);
        float v12_0 = (v2_0 + v11_0);
        float v12_1 = (v2_1 + v11_1);
        float v12_2 = (v2_2 + v11_2);
        float v12_3 = (v2_3 + v11_3);
        v2_0 = v12_0;
        v2_1 = v12_1;
        v2_2 = v12_2;
        v2_3 = v12_3;
      }
    }
    float v13_0 = v1_0;
    float v14_0 = v2_0;
    seam_online_combine<false>(v13_0, v14_0, v1_1, v2_1);
    seam_online_combine<false>(v13_0, v14_0, v1_2, v2_2);
    seam_online_combine<false>(v13_0, v14_0, v1_3, v2_3);
    seam_row_reduce_online<false>(v13_0, v14_0, seam_row_ctx);
    float v15_0 = seam_convert<float>(seam_double_from_bits(9221120237041090560ULL));
    float v16_0 = seam_convert<float>(seam_double_from_bits(18442240474082181120ULL));
    bool v17_0 = seam_eq(v13_0, v16_0);
    float v18_0 = (v17_0 ? v15_0 : v14_0);
    float v18_rcp0_0 = seam_reciprocal(v18_0);
    SEAM_UNROLL(1)
    for (idx_t seam_it = 0; seam_it < seam_row_iterations; ++seam_it) {
      const idx_t k = seam_lane + seam_it * seam_lanes;
      if (k < seam_row_extent) {
        alignas(16) float v19[4];
        v19[0] = seam_cache0[seam_it][0];
        v19[1] = seam_cache0[seam_it][1];
        v19[2] = seam_cache0[seam_it][2];
        v19[3] = seam_cache0[seam_it][3];
        float v20_0 = (v19[0] - v13_0);
        float v20_1 = (v19[1] - v13_0);
        float v20_2 = (v19[2] - v13_0);
        float v20_3 = (v19[3] - v13_0);
        float v21_0 = seam_exp(v20_0);
        float v21_1 = seam_exp(v20_1);
        float v21_2 = seam_exp(v20_2);
        float v21_3 = seam_exp(v20_3);
        alignas(16) float v22[4];
        v22[0] = (v21_0 * v18_rcp0_0);
        v22[1] = (v21_1 * v18_rcp0_0);
        v22[2] = (v21_2 * v18_rcp0_0);
        v22[3] = (v21_3 * v18_rcp0_0);
        seam_store<4>(out0 + ((k * 4) + (row * ((idx_t)seam_k.v[4]))), v22);
      }
    }
  }
}
