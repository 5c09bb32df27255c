// 1 kernel(s) for fusion softmax_clustered_64x65536

// group 0: row kernel, 64 rows of 65536 reduced elements, 1 rows x 256 threads per block
// launch: row kernel: block 256 (1 rows x 256 threads), grid 256 blocks in clusters of 4, no register cap, lanes contiguous
#include "seam_device.cuh"

struct seam_rows_02016a753b7ffc15_consts { long long v[5]; };
SEAM_KERNEL void __launch_bounds__(256) __cluster_dims__(4, 1, 1) seam_rows_02016a753b7ffc15(const seam_bf16* __restrict__ in0, seam_bf16* __restrict__ out0, const seam_rows_02016a753b7ffc15_consts seam_k) {
  typedef int idx_t;
  __shared__ __align__(16) unsigned char seam_scratch[2048];
  const seam_rows<1, 256, true, 4> seam_row_ctx(seam_scratch);
  const int seam_lane = seam_row_ctx.lane;
  const int seam_lanes = 1024;
  constexpr int seam_row_iterations = 8;
  alignas(16) seam_bf16 seam_cache0[8][8];
  for (long long seam_first_row = (long long)(blockIdx.x / 4) * 1; seam_first_row < (long long)((idx_t)seam_k.v[0]); seam_first_row += (long long)(gridDim.x / 4) * 1) {
    const idx_t row = (idx_t)(seam_first_row + seam_row_ctx.slot);
    const idx_t seam_row_extent = row < ((idx_t)seam_k.v[1]) ? ((idx_t)seam_k.v[2]) : 0;
    (void)seam_row_extent;
    float v1_0 = seam_convert<float>(seam_double_from_bits(18442240474082181120ULL));
    float v1_1 = seam_convert<float>(seam_double_from_bits(18442240474082181120ULL));
    float v1_2 = seam_convert<float>(seam_double_from_bits(18442240474082181120ULL));
    float v1_3 = seam_convert<float>(seam_double_from_bits(18442240474082181120ULL));
    float v1_4 = seam_convert<float>(seam_double_from_bits(18442240474082181120ULL));
    float v1_5 = seam_convert<float>(seam_double_from_bits(18442240474082181120ULL));
    float v1_6 = seam_convert<float>(seam_double_from_bits(18442240474082181120ULL));
    float v1_7 = seam_convert<float>(seam_double_from_bits(18442240474082181120ULL));
    float v2_0 = seam_convert<float>(((seam_i64)0LL));
    float v2_1 = seam_convert<float>(((seam_i64)0LL));
    float v2_2 = seam_convert<float>(((seam_i64)0LL));
    float v2_3 = seam_convert<float>(((seam_i64)0LL));
    float v2_4 = seam_convert<float>(((seam_i64)0LL));
    float v2_5 = seam_convert<float>(((seam_i64)0LL));
    float v2_6 = seam_convert<float>(((seam_i64)0LL));
    float v2_7 = seam_convert<float>(((seam_i64)0LL));
    SEAM_UNROLL(8)
    for (idx_t seam_it = 0; seam_it < seam_row_iterations; ++seam_it) {
      const idx_t k = seam_lane + seam_it * seam_lanes;
      if (k < seam_row_extent) {
        seam_load<8>(in0 + ((row * ((idx_t)seam_k.v[3])) + (k * 8)), seam_cache0[seam_it]);
      }
    }
    SEAM_UNROLL(8)
    for (idx_t seam_it = 0; seam_it < seam_row_iterations; ++seam_it) {
      const idx_t k = seam_lane + seam_it * seam_lanes;
      if (k < seam_row_extent) {
        alignas(16) seam_bf16 v3[8];
        v3[0] = seam_cache0[seam_it][0];
        v3[1] = seam_cache0[seam_it][1];
        v3[2] = seam_cache0[seam_it][2];
        v3[3] = seam_cache0[seam_it][3];
        v3[4] = seam_cache0[seam_it][4];
        v3[5] = seam_cache0[seam_it][5];
        v3[6] = seam_cache0[seam_it][6];
        v3[7] = seam_cache0[seam_it][7];
        float v4_0 = seam_convert<float>(v3[0]);
        float v4_1 = seam_convert<float>(v3[1]);
        float v4_2 = seam_convert<float>(v3[2]);
        float v4_3 = seam_convert<float>(v3[3]);
        float v4_4 = seam_convert<float>(v3[4]);
        float v4_5 = seam_convert<float>(v3[5]);
        float v4_6 = seam_convert<float>(v3[6]);
        float v4_7 = seam_convert<float>(v3[7]);
        float v5_0 = seam_maximum(v1_0, v4_0);
        float v5_1 = seam_maximum(v1_1, v4_1);
        float v5_2 = seam_maximum(v1_2, v4_2);
        float v5_3 = seam_maximum(v1_3, v4_3);
        float v5_4 = seam_maximum(v1_4, v4_4);
        float v5_5 = seam_maximum(v1_5, v4_5);
        float v5_6 = seam_maximum(v1_6, v4_6);
        float v5_7 = seam_maximum(v1_7, v4_7);
        v1_0 = v5_0;
        v1_1 = v5_1;
        v1_2 = v5_2;
        v1_3 = v5_3;
        v1_4 = v5_4;
        v1_5 = v5_5;
        v1_6 = v5_6;
        v1_7 = v5_7;
      }
    }
    SEAM_UNROLL(8)
    for (idx_t seam_it = 0; seam_it < seam_row_iterations; ++seam_it) {
      const idx_t k = seam_lane + seam_it * seam_lanes;
      if (k < seam_row_extent) {
        alignas(16) seam_bf16 v6[8];
        v6[0] = seam_cache0[seam_it][0];
        v6[1] = seam_cache0[seam_it][1];
        v6[2] = seam_cache0[seam_it][2];
        v6[3] = seam_cache0[seam_it][3];
        v6[4] = seam_cache0[seam_it][4];
        v6[5] = seam_cache0[seam_it][5];
        v6[6] = seam_cache0[seam_it][6];
        v6[7] = seam_cache0[seam_it][7];
        float v7_0 = seam_convert<float>(v6[0]);
        float v7_1 = seam_convert<float>(v6[1]);
        float v7_2 = seam_convert<float>(v6[2]);
        float v7_3 = seam_convert<float>(v6[3]);
        float v7_4 = seam_convert<float>(v6[4]);
        float v7_5 = seam_convert<float>(v6[5]);
        float v7_6 = seam_convert<float>(v6[6]);
        float v7_7 = seam_convert<float>(v6[7]);
        float v8_0 = seam_convert<float>(0.0);
        float v9_0 = seam_convert<float>(seam_double_from_bits(18442240474082181120ULL));
        bool v10_0 = seam_eq(v1_0, v9_0);
        bool v10_1 = seam_eq(v1_1, v9_0);
        bool v10_2 = seam_eq(v1_2, v9_0);
        bool v10_3 = seam_eq(v1_3, v9_0);
        bool v10_4 = seam_eq(v1_4, v9_0);
        bool v10_5 = seam_eq(v1_5, v9_0);
        bool v10_6 = seam_eq(v1_6, v9_0);
        bool v10_7 = seam_eq(v1_7, v9_0);
        float v11_0 = (v10_0 ? v8_0 : v1_0);
        float v11_1 = (v10_1 ? v8_0 : v1_1);
        float v11_2 = (v10_2 ? v8_0 : v1_2);
        float v11_3 = (v10_3 ? v8_0 : v1_3);
        float v11_4 = (v10_4 ? v8_0 : v1_4);
        float v11_5 = (v10_5 ? v8_0 : v1_5);
        float v11_6 = (v10_6 ? v8_0 : v1_6);
        float v11_7 = (v10_7 ? v8_0 : v1_7);
        float v12_0 = (v7_0 - v11_0);
        float v12_1 = (v7_1 - v11_1);
        float v12_2 = (v7_2 - v11_2);
        float v12_3 = (v7_3 - v11_3);
        float v12_4 = (v7_4 - v11_4);
        float v12_5 = (v7_5 - v11_5);
        float v12_6 = (v7_6 - v11_6);
        float v12_7 = (v7_7 - v11_7);
        float v13_0 = seam_exp_approx(v12_0);
        float v13_1 = seam_exp_approx(v12_1);
        float v13_2 = seam_exp_approx(v12_2);
        float v13_3 = seam_exp_approx(v12_3);
        float v13_4 = seam_exp_approx(v12_4);
        float v13_5 = seam_exp_approx(v12_5);
        float v13_6 = seam_exp_approx(v12_6);
        float v13_7 = seam_exp_approx(v12_7);
        float v14_0 = (v2_0 + v13_0);
        float v14_1 = (v2_1 + v13_1);
        float v14_2 = (v2_2 + v13_2);
        float v14_3 = (v2_3 + v13_3);
        float v14_4 = (v2_4 + v13_4);
        float v14_5 = (v2_5 + v13_5);
        float v14_6 = (v2_6 + v13_6);
        float v14_7 = (v2_7 + v13_7);
        v2_0 = v14_0;
        v2_1 = v14_1;
        v2_2 = v14_2;
        v2_3 = v14_3;
        v2_4 = v14_4;
        v2_5 = v14_5;
        v2_6 = v14_6;
        v2_7 = v14_7;
      }
    }
    float v15_0 = v1_0;
    float v16_0 = v2_0;
    seam_online_combine<true>(v15_0, v16_0, v1_1, v2_1);
    seam_online_combine<true>(v15_0, v16_0, v1_2, v2_2);
    seam_online_combine<true>(v15_0, v16_0, v1_3, v2_3);
    seam_online_combine<true>(v15_0, v16_0, v1_4, v2_4);
    seam_online_combine<true>(v15_0, v16_0, v1_5, v2_5);
    seam_online_combine<true>(v15_0, v16_0, v1_6, v2_6);
    seam_online_combine<true>(v15_0, v16_0, v1_7, v2_7);
    seam_row_reduce_online<true>(v15_0, v16_0, seam_row_ctx);
    float v17_0 = seam_convert<float>(seam_double_from_bits(9221120237041090560ULL));
    float v18_0 = seam_convert<float>(seam_double_from_bits(18442240474082181120ULL));
    bool v19_0 = seam_eq(v15_0, v18_0);
    float v20_0 = (v19_0 ? v17_0 : v16_0);
    float v20_rcp0_0 = seam_reciprocal_approx(v20_0);
    SEAM_UNROLL(8)
    for (idx_t seam_it = 0; seam_it < seam_row_iterations; ++seam_it) {
      const idx_t k = seam_lane + seam_it * seam_lanes;
      if (k < seam_row_extent) {
        alignas(16) seam_bf16 v21[8];
        v21[0] = seam_cache0[seam_it][0];
        v21[1] = seam_cache0[seam_it][1];
        v21[2] = seam_cache0[seam_it][2];
        v21[3] = seam_cache0[seam_it][3];
        v21[4] = seam_cache0[seam_it][4];
        v21[5] = seam_cache0[seam_it][5];
        v21[6] = seam_cache0[seam_it][6];
        v21[7] = seam_cache0[seam_it][7];
        float v22_0 = seam_convert<float>(v21[0]);
        float v22_1 = seam_convert<float>(v21[1]);
        float v22_2 = seam_convert<float>(v21[2]);
        float v22_3 = seam_convert<float>(v21[3]);
        float v22_4 = seam_convert<float>(v21[4]);
        float v22_5 = seam_convert<float>(v21[5]);
        float v22_6 = seam_convert<float>(v21[6]);
        float v22_7 = seam_convert<float>(v21[7]);
        float v23_0 = (v22_0 - v15_0);
        float v23_1 = (v22_1 - v15_0);
        float v23_2 = (v22_2 - v15_0);
        float v23_3 = (v22_3 - v15_0);
        float v23_4 = (v22_4 - v15_0);
        float v23_5 = (v22_5 - v15_0);
        float v23_6 = (v22_6 - v15_0);
        float v23_7 = (v22_7 - v15_0);
        float v24_0 = seam_exp_approx(v23_0);
        float v24_1 = seam_exp_approx(v23_1);
        float v24_2 = seam_exp_approx(v23_2);
        float v24_3 = seam_exp_approx(v23_3);
        float v24_4 = seam_exp_approx(v23_4);
        float v24_5 = seam_exp_approx(v23_5);
        float v24_6 = seam_exp_approx(v23_6);
        float v24_7 = seam_exp_approx(v23_7);
        float v25_0 = (v24_0 * v20_rcp0_0);
        float v25_1 = (v24_1 * v20_rcp0_0);
        float v25_2 = (v24_2 * v20_rcp0_0);
        float v25_3 = (v24_3 * v20_rcp0_0);
        float v25_4 = (v24_4 * v20_rcp0_0);
        float v25_5 = (v24_5 * v20_rcp0_0);
        float v25_6 = (v24_6 * v20_rcp0_0);
        float v25_7 = (v24_7 * v20_rcp0_0);
        alignas(16) seam_bf16 v26[8];
        v26[0] = seam_convert<seam_bf16>(v25_0);
        v26[1] = seam_convert<seam_bf16>(v25_1);
        v26[2] = seam_convert<seam_bf16>(v25_2);
        v26[3] = seam_convert<seam_bf16>(v25_3);
        v26[4] = seam_convert<seam_bf16>(v25_4);
        v26[5] = seam_convert<seam_bf16>(v25_5);
        v26[6] = seam_convert<seam_bf16>(v25_6);
        v26[7] = seam_convert<seam_bf16>(v25_7);
        seam_store<8>(out0 + ((k * 8) + (row * ((idx_t)seam_k.v[4]))), v26);
      }
    }
  }
  seam_cluster_sync();
}
