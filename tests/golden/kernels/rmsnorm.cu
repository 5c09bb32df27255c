// 1 kernel(s) for fusion rmsnorm

// group 0: row kernel, 64 rows of 4096 reduced elements, 1 rows x 512 threads per block
// launch: row kernel: block 512 (1 rows x 512 threads), grid 64 blocks, no register cap, lanes contiguous
#include "seam_device.cuh"

struct seam_rows_096ed596e3056d6c_consts { long long v[5]; float f[2]; };
SEAM_KERNEL void __launch_bounds__(512) seam_rows_096ed596e3056d6c(const seam_bf16* __restrict__ in0, const seam_bf16* __restrict__ in1, seam_bf16* __restrict__ out0, const seam_rows_096ed596e3056d6c_consts seam_k) {
  typedef int idx_t;
  __shared__ __align__(16) unsigned char seam_scratch[4096];
  const seam_rows<1, 512, true> seam_row_ctx(seam_scratch);
  const int seam_lane = seam_row_ctx.lane;
  const int seam_lanes = 512;
  constexpr int seam_row_iterations = 1;
  alignas(16) seam_bf16 seam_cache0[1][8];
  for (long long seam_first_row = (long long)blockIdx.x * 1; seam_first_row < (long long)((idx_t)seam_k.v[0]); seam_first_row += (long long)gridDim.x * 1) {
    const idx_t row = (idx_t)(seam_first_row + seam_row_ctx.slot);
    const idx_t seam_row_extent = row < ((idx_t)seam_k.v[1]) ? ((idx_t)seam_k.v[2]) : 0;
    (void)seam_row_extent;
    float v1_0 = seam_convert<float>(((seam_i64)0LL));
    float v1_1 = seam_convert<float>(((seam_i64)0LL));
    float v1_2 = seam_convert<float>(((seam_i64)0LL));
    float v1_3 = seam_convert<float>(((seam_i64)0LL));
    float v1_4 = seam_convert<float>(((seam_i64)0LL));
    float v1_5 = seam_convert<float>(((seam_i64)0LL));
    float v1_6 = seam_convert<float>(((seam_i64)0LL));
    float v1_7 = seam_convert<float>(((seam_i64)0LL));
    SEAM_UNROLL(1)
    for (idx_t seam_it = 0; seam_it < seam_row_iterations; ++seam_it) {
      const idx_t k = seam_lane + seam_it * seam_lanes;
      if (k < seam_row_extent) {
        seam_load<8>(in0 + ((row * ((idx_t)seam_k.v[3])) + (k * 8)), seam_cache0[seam_it]);
      }
    }
    SEAM_UNROLL(1)
    for (idx_t seam_it = 0; seam_it < seam_row_iterations; ++seam_it) {
      const idx_t k = seam_lane + seam_it * seam_lanes;
      if (k < seam_row_extent) {
        alignas(16) seam_bf16 v2[8];
        v2[0] = seam_cache0[seam_it][0];
        v2[1] = seam_cache0[seam_it][1];
        v2[2] = seam_cache0[seam_it][2];
        v2[3] = seam_cache0[seam_it][3];
        v2[4] = seam_cache0[seam_it][4];
        v2[5] = seam_cache0[seam_it][5];
        v2[6] = seam_cache0[seam_it][6];
        v2[7] = seam_cache0[seam_it][7];
        float v3_0 = seam_convert<float>(v2[0]);
        float v3_1 = seam_convert<float>(v2[1]);
        float v3_2 = seam_convert<float>(v2[2]);
        float v3_3 = seam_convert<float>(v2[3]);
        float v3_4 = seam_convert<float>(v2[4]);
        float v3_5 = seam_convert<float>(v2[5]);
        float v3_6 = seam_convert<float>(v2[6]);
        float v3_7 = seam_convert<float>(v2[7]);
        float v4_0 = (v3_0 * v3_0);
        float v4_1 = (v3_1 * v3_1);
        float v4_2 = (v3_2 * v3_2);
        float v4_3 = (v3_3 * v3_3);
        float v4_4 = (v3_4 * v3_4);
        float v4_5 = (v3_5 * v3_5);
        float v4_6 = (v3_6 * v3_6);
        float v4_7 = (v3_7 * v3_7);
        float v5_0 = (v1_0 + v4_0);
        float v5_1 = (v1_1 + v4_1);
        float v5_2 = (v1_2 + v4_2);
        float v5_3 = (v1_3 + v4_3);
        float v5_4 = (v1_4 + v4_4);
        float v5_5 = (v1_5 + v4_5);
        float v5_6 = (v1_6 + v4_6);
        float v5_7 = (v1_7 + v4_7);
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
    float v6_0 = seam_row_reduce_sum(seam_add(seam_add(seam_add(seam_add(seam_add(seam_add(seam_add(v1_0, v1_1), v1_2), v1_3), v1_4), v1_5), v1_6), v1_7), seam_row_ctx);
    SEAM_UNROLL(1)
    for (idx_t seam_it = 0; seam_it < seam_row_iterations; ++seam_it) {
      const idx_t k = seam_lane + seam_it * seam_lanes;
      if (k < seam_row_extent) {
        alignas(16) seam_bf16 v7[8];
        v7[0] = seam_cache0[seam_it][0];
        v7[1] = seam_cache0[seam_it][1];
        v7[2] = seam_cache0[seam_it][2];
        v7[3] = seam_cache0[seam_it][3];
        v7[4] = seam_cache0[seam_it][4];
        v7[5] = seam_cache0[seam_it][5];
        v7[6] = seam_cache0[seam_it][6];
        v7[7] = seam_cache0[seam_it][7];
        float v8_0 = seam_convert<float>(v7[0]);
        float v8_1 = seam_convert<float>(v7[1]);
        float v8_2 = seam_convert<float>(v7[2]);
        float v8_3 = seam_convert<float>(v7[3]);
        float v8_4 = seam_convert<float>(v7[4]);
        float v8_5 = seam_convert<float>(v7[5]);
        float v8_6 = seam_convert<float>(v7[6]);
        float v8_7 = seam_convert<float>(v7[7]);
        float v9_0 = seam_convert<float>(seam_k.f[0]);
        float v10_0 = seam_div_approx(v6_0, v9_0);
        float v11_0 = seam_convert<float>(seam_k.f[1]);
        float v12_0 = (v10_0 + v11_0);
        float v13_0 = seam_rsqrt_approx(v12_0);
        float v14_0 = (v8_0 * v13_0);
        float v14_1 = (v8_1 * v13_0);
        float v14_2 = (v8_2 * v13_0);
        float v14_3 = (v8_3 * v13_0);
        float v14_4 = (v8_4 * v13_0);
        float v14_5 = (v8_5 * v13_0);
        float v14_6 = (v8_6 * v13_0);
        float v14_7 = (v8_7 * v13_0);
        alignas(16) seam_bf16 v15[8];
        seam_load<8>(in1 + (k * 8), v15);
        float v16_0 = seam_convert<float>(v15[0]);
        float v16_1 = seam_convert<float>(v15[1]);
        float v16_2 = seam_convert<float>(v15[2]);
        float v16_3 = seam_convert<float>(v15[3]);
        float v16_4 = seam_convert<float>(v15[4]);
        float v16_5 = seam_convert<float>(v15[5]);
        float v16_6 = seam_convert<float>(v15[6]);
        float v16_7 = seam_convert<float>(v15[7]);
        float v17_0 = (v14_0 * v16_0);
        float v17_1 = (v14_1 * v16_1);
        float v17_2 = (v14_2 * v16_2);
        float v17_3 = (v14_3 * v16_3);
        float v17_4 = (v14_4 * v16_4);
        float v17_5 = (v14_5 * v16_5);
        float v17_6 = (v14_6 * v16_6);
        float v17_7 = (v14_7 * v16_7);
        alignas(16) seam_bf16 v18[8];
        v18[0] = seam_convert<seam_bf16>(v17_0);
        v18[1] = seam_convert<seam_bf16>(v17_1);
        v18[2] = seam_convert<seam_bf16>(v17_2);
        v18[3] = seam_convert<seam_bf16>(v17_3);
        v18[4] = seam_convert<seam_bf16>(v17_4);
        v18[5] = seam_convert<seam_bf16>(v17_5);
        v18[6] = seam_convert<seam_bf16>(v17_6);
        v18[7] = seam_convert<seam_bf16>(v17_7);
        seam_store<8>(out0 + ((k * 8) + (row * ((idx_t)seam_k.v[4]))), v18);
      }
    }
  }
}
