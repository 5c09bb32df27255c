// 1 kernel(s) for fusion rmsnorm_bwd_16384x4096

// group 0: row kernel, 16384 rows of 4096 reduced elements, 2 rows x 128 threads per block
// launch: row kernel: block 256 (2 rows x 128 threads), grid 264 blocks, launch bounds for 2 blocks/SM, lanes contiguous
#include "seam_device.cuh"

struct seam_rows_2f63b30e50b769fd_consts { long long v[16]; float f[1]; };
SEAM_KERNEL void __launch_bounds__(256, 2) seam_rows_2f63b30e50b769fd(const seam_bf16* __restrict__ in0, const seam_bf16* __restrict__ in1, const seam_bf16* __restrict__ in2, const float* __restrict__ in3, seam_bf16* __restrict__ out0, seam_bf16* __restrict__ out1, float* __restrict__ seam_workspace, const seam_rows_2f63b30e50b769fd_consts seam_k) {
  typedef int idx_t;
  __shared__ __align__(16) unsigned char seam_scratch[2048];
  const seam_rows<2, 128, true> seam_row_ctx(seam_scratch);
  const int seam_lane = seam_row_ctx.lane;
  const int seam_lanes = 128;
  constexpr int seam_row_iterations = 4;
  alignas(16) seam_bf16 seam_cache0[4][8];
  alignas(16) seam_bf16 seam_cache1[4][8];
  alignas(16) float seam_cache2[1];
  float seam_outer0[4][8];
  seam_outer_zero(seam_outer0);
  for (long long seam_first_row = (long long)blockIdx.x * 2; seam_first_row < (long long)((idx_t)seam_k.v[0]); seam_first_row += (long long)gridDim.x * 2) {
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
    if (seam_row_extent > 0) seam_load<1>(in3 + row, seam_cache2);
    SEAM_UNROLL(4)
    for (idx_t seam_it = 0; seam_it < seam_row_iterations; ++seam_it) {
      const idx_t k = seam_lane + seam_it * seam_lanes;
      if (k < seam_row_extent) {
        seam_load<8>(in2 + ((row * ((idx_t)seam_k.v[3])) + (k * 8)), seam_cache0[seam_it]);
        seam_load<8>(in0 + ((row * ((idx_t)seam_k.v[4])) + (k * 8)), seam_cache1[seam_it]);
      }
    }
    SEAM_UNROLL(4)
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
        alignas(16) seam_bf16 v4[8];
        seam_load<8>(in1 + (k * 8), v4);
        float v5_0 = seam_convert<float>(v4[0]);
        float v5_1 = seam_convert<float>(v4[1]);
        float v5_2 = seam_convert<float>(v4[2]);
        float v5_3 = seam_convert<float>(v4[3]);
        float v5_4 = seam_convert<float>(v4[4]);
        float v5_5 = seam_convert<float>(v4[5]);
        float v5_6 = seam_convert<float>(v4[6]);
        float v5_7 = seam_convert<float>(v4[7]);
        float v6_0 = (v3_0 * v5_0);
        float v6_1 = (v3_1 * v5_1);
        float v6_2 = (v3_2 * v5_2);
        float v6_3 = (v3_3 * v5_3);
        float v6_4 = (v3_4 * v5_4);
        float v6_5 = (v3_5 * v5_5);
        float v6_6 = (v3_6 * v5_6);
        float v6_7 = (v3_7 * v5_7);
        alignas(16) seam_bf16 v7[8];
        v7[0] = seam_cache1[seam_it][0];
        v7[1] = seam_cache1[seam_it][1];
        v7[2] = seam_cache1[seam_it][2];
        v7[3] = seam_cache1[seam_it][3];
        v7[4] = seam_cache1[seam_it][4];
        v7[5] = seam_cache1[seam_it][5];
        v7[6] = seam_cache1[seam_it][6];
        v7[7] = seam_cache1[seam_it][7];
        float v8_0 = seam_convert<float>(v7[0]);
        float v8_1 = seam_convert<float>(v7[1]);
        float v8_2 = seam_convert<float>(v7[2]);
        float v8_3 = seam_convert<float>(v7[3]);
        float v8_4 = seam_convert<float>(v7[4]);
        float v8_5 = seam_convert<float>(v7[5]);
        float v8_6 = seam_convert<float>(v7[6]);
        float v8_7 = seam_convert<float>(v7[7]);
        float v9_0 = seam_cache2[0];
        float v10_0 = (v8_0 * v9_0);
        float v10_1 = (v8_1 * v9_0);
        float v10_2 = (v8_2 * v9_0);
        float v10_3 = (v8_3 * v9_0);
        float v10_4 = (v8_4 * v9_0);
        float v10_5 = (v8_5 * v9_0);
        float v10_6 = (v8_6 * v9_0);
        float v10_7 = (v8_7 * v9_0);
        float v11_0 = (v6_0 * v10_0);
        float v11_1 = (v6_1 * v10_1);
        float v11_2 = (v6_2 * v10_2);
        float v11_3 = (v6_3 * v10_3);
        float v11_4 = (v6_4 * v10_4);
        float v11_5 = (v6_5 * v10_5);
        float v11_6 = (v6_6 * v10_6);
        float v11_7 = (v6_7 * v10_7);
        float v12_0 = (v1_0 + v11_0);
        float v12_1 = (v1_1 + v11_1);
        float v12_2 = (v1_2 + v11_2);
        float v12_3 = (v1_3 + v11_3);
        float v12_4 = (v1_4 + v11_4);
        float v12_5 = (v1_5 + v11_5);
        float v12_6 = (v1_6 + v11_6);
        float v12_7 = (v1_7 + v11_7);
        v1_0 = v12_0;
        v1_1 = v12_1;
        v1_2 = v12_2;
        v1_3 = v12_3;
        v1_4 = v12_4;
        v1_5 = v12_5;
        v1_6 = v12_6;
        v1_7 = v12_7;
      }
    }
    float v13_0 = seam_row_reduce_sum(seam_add(seam_add(seam_add(seam_add(seam_add(seam_add(seam_add(v1_0, v1_1), v1_2), v1_3), v1_4), v1_5), v1_6), v1_7), seam_row_ctx);
    SEAM_UNROLL(4)
    for (idx_t seam_it = 0; seam_it < seam_row_iterations; ++seam_it) {
      const idx_t k = seam_lane + seam_it * seam_lanes;
      if (k < seam_row_extent) {
        float v14_0 = seam_cache2[0];
        alignas(16) seam_bf16 v15[8];
        v15[0] = seam_cache0[seam_it][0];
        v15[1] = seam_cache0[seam_it][1];
        v15[2] = seam_cache0[seam_it][2];
        v15[3] = seam_cache0[seam_it][3];
        v15[4] = seam_cache0[seam_it][4];
        v15[5] = seam_cache0[seam_it][5];
        v15[6] = seam_cache0[seam_it][6];
        v15[7] = seam_cache0[seam_it][7];
        float v16_0 = seam_convert<float>(v15[0]);
        float v16_1 = seam_convert<float>(v15[1]);
        float v16_2 = seam_convert<float>(v15[2]);
        float v16_3 = seam_convert<float>(v15[3]);
        float v16_4 = seam_convert<float>(v15[4]);
        float v16_5 = seam_convert<float>(v15[5]);
        float v16_6 = seam_convert<float>(v15[6]);
        float v16_7 = seam_convert<float>(v15[7]);
        alignas(16) seam_bf16 v17[8];
        seam_load<8>(in1 + (k * 8), v17);
        float v18_0 = seam_convert<float>(v17[0]);
        float v18_1 = seam_convert<float>(v17[1]);
        float v18_2 = seam_convert<float>(v17[2]);
        float v18_3 = seam_convert<float>(v17[3]);
        float v18_4 = seam_convert<float>(v17[4]);
        float v18_5 = seam_convert<float>(v17[5]);
        float v18_6 = seam_convert<float>(v17[6]);
        float v18_7 = seam_convert<float>(v17[7]);
        float v19_0 = (v16_0 * v18_0);
        float v19_1 = (v16_1 * v18_1);
        float v19_2 = (v16_2 * v18_2);
        float v19_3 = (v16_3 * v18_3);
        float v19_4 = (v16_4 * v18_4);
        float v19_5 = (v16_5 * v18_5);
        float v19_6 = (v16_6 * v18_6);
        float v19_7 = (v16_7 * v18_7);
        alignas(16) seam_bf16 v20[8];
        v20[0] = seam_cache1[seam_it][0];
        v20[1] = seam_cache1[seam_it][1];
        v20[2] = seam_cache1[seam_it][2];
        v20[3] = seam_cache1[seam_it][3];
        v20[4] = seam_cache1[seam_it][4];
        v20[5] = seam_cache1[seam_it][5];
        v20[6] = seam_cache1[seam_it][6];
        v20[7] = seam_cache1[seam_it][7];
        float v21_0 = seam_convert<float>(v20[0]);
        float v21_1 = seam_convert<float>(v20[1]);
        float v21_2 = seam_convert<float>(v20[2]);
        float v21_3 = seam_convert<float>(v20[3]);
        float v21_4 = seam_convert<float>(v20[4]);
        float v21_5 = seam_convert<float>(v20[5]);
        float v21_6 = seam_convert<float>(v20[6]);
        float v21_7 = seam_convert<float>(v20[7]);
        float v22_0 = (v21_0 * v14_0);
        float v22_1 = (v21_1 * v14_0);
        float v22_2 = (v21_2 * v14_0);
        float v22_3 = (v21_3 * v14_0);
        float v22_4 = (v21_4 * v14_0);
        float v22_5 = (v21_5 * v14_0);
        float v22_6 = (v21_6 * v14_0);
        float v22_7 = (v21_7 * v14_0);
        float v23_0 = seam_convert<float>(seam_k.f[0]);
        float v24_0 = seam_div_approx(v13_0, v23_0);
        float v25_0 = (v22_0 * v24_0);
        float v25_1 = (v22_1 * v24_0);
        float v25_2 = (v22_2 * v24_0);
        float v25_3 = (v22_3 * v24_0);
        float v25_4 = (v22_4 * v24_0);
        float v25_5 = (v22_5 * v24_0);
        float v25_6 = (v22_6 * v24_0);
        float v25_7 = (v22_7 * v24_0);
        float v26_0 = (v19_0 - v25_0);
        float v26_1 = (v19_1 - v25_1);
        float v26_2 = (v19_2 - v25_2);
        float v26_3 = (v19_3 - v25_3);
        float v26_4 = (v19_4 - v25_4);
        float v26_5 = (v19_5 - v25_5);
        float v26_6 = (v19_6 - v25_6);
        float v26_7 = (v19_7 - v25_7);
        float v27_0 = (v14_0 * v26_0);
        float v27_1 = (v14_0 * v26_1);
        float v27_2 = (v14_0 * v26_2);
        float v27_3 = (v14_0 * v26_3);
        float v27_4 = (v14_0 * v26_4);
        float v27_5 = (v14_0 * v26_5);
        float v27_6 = (v14_0 * v26_6);
        float v27_7 = (v14_0 * v26_7);
        alignas(16) seam_bf16 v28[8];
        v28[0] = seam_convert<seam_bf16>(v27_0);
        v28[1] = seam_convert<seam_bf16>(v27_1);
        v28[2] = seam_convert<seam_bf16>(v27_2);
        v28[3] = seam_convert<seam_bf16>(v27_3);
        v28[4] = seam_convert<seam_bf16>(v27_4);
        v28[5] = seam_convert<seam_bf16>(v27_5);
        v28[6] = seam_convert<seam_bf16>(v27_6);
        v28[7] = seam_convert<seam_bf16>(v27_7);
        seam_store<8>(out0 + ((k * 8) + (row * ((idx_t)seam_k.v[5]))), v28);
        float v29_0 = (v16_0 * v22_0);
        float v29_1 = (v16_1 * v22_1);
        float v29_2 = (v16_2 * v22_2);
        float v29_3 = (v16_3 * v22_3);
        float v29_4 = (v16_4 * v22_4);
        float v29_5 = (v16_5 * v22_5);
        float v29_6 = (v16_6 * v22_6);
        float v29_7 = (v16_7 * v22_7);
        seam_outer0[seam_it][0] += v29_0;
        seam_outer0[seam_it][1] += v29_1;
        seam_outer0[seam_it][2] += v29_2;
        seam_outer0[seam_it][3] += v29_3;
        seam_outer0[seam_it][4] += v29_4;
        seam_outer0[seam_it][5] += v29_5;
        seam_outer0[seam_it][6] += v29_6;
        seam_outer0[seam_it][7] += v29_7;
      }
    }
  }
  seam_outer_store(seam_outer0, seam_outer_partials(seam_workspace, 0, ((idx_t)seam_k.v[6]), ((idx_t)seam_k.v[7])), seam_row_ctx, ((idx_t)seam_k.v[8]));
  if (seam_outer_arrive(seam_workspace, 1, ((idx_t)seam_k.v[9]), ((idx_t)seam_k.v[10]), ((idx_t)seam_k.v[11]))) {
    for (idx_t seam_col = (idx_t)threadIdx.x; seam_col < ((idx_t)seam_k.v[12]); seam_col += (idx_t)blockDim.x) {
      const float seam_outer_total0_0 = seam_outer_total(seam_workspace, 0, ((idx_t)seam_k.v[13]), seam_col, 1, ((idx_t)seam_k.v[14]), ((idx_t)seam_k.v[15]));
      seam_bf16 v31_0 = seam_convert<seam_bf16>(seam_outer_total0_0);
      out1[seam_col] = v31_0;
    }
  }
}
