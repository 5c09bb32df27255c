// 1 kernel(s) for fusion rmsnorm_peeled_64x4097

// group 0: row kernel, 64 rows of 4097 reduced elements, 1 rows x 1024 threads per block
// launch: row kernel: block 1024 (1 rows x 1024 threads), grid 64 blocks, no register cap, lanes contiguous
#include "seam_device.cuh"

struct seam_rows_bc682107af078c83_consts { long long v[9]; float f[2]; };
SEAM_KERNEL void __launch_bounds__(1024) seam_rows_bc682107af078c83(const seam_bf16* __restrict__ in0, const seam_bf16* __restrict__ in1, seam_bf16* __restrict__ out0, const seam_rows_bc682107af078c83_consts seam_k) {
  typedef int idx_t;
  __shared__ __align__(16) unsigned char seam_scratch[8192];
  const seam_rows<1, 1024, true> seam_row_ctx(seam_scratch);
  const int seam_lane = seam_row_ctx.lane;
  const int seam_lanes = 1024;
  constexpr int seam_row_iterations = 1;
  alignas(16) seam_bf16 seam_cache0[1][8];
  for (long long seam_first_row = (long long)blockIdx.x * 1; seam_first_row < (long long)((idx_t)seam_k.v[0]); seam_first_row += (long long)gridDim.x * 1) {
    const idx_t row = (idx_t)(seam_first_row + seam_row_ctx.slot);
    const idx_t seam_row_shift = (idx_t)((long long)row * (long long)((idx_t)seam_k.v[1]) % 8);
    const idx_t seam_row_extent = row < ((idx_t)seam_k.v[2]) ? (((idx_t)seam_k.v[3]) + seam_row_shift) / 8 : 0;
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
        const unsigned seam_in_row = seam_row_lanes<8>(k * 8 - seam_row_shift, (long long)((idx_t)seam_k.v[4]));
        (void)seam_in_row;
        seam_load_edge<8, true>(in0 + ((row * ((idx_t)seam_k.v[5])) + ((k * 8) + (seam_row_shift * -1))), seam_cache0[seam_it], seam_in_row);
      }
    }
    SEAM_UNROLL(1)
    for (idx_t seam_it = 0; seam_it < seam_row_iterations; ++seam_it) {
      const idx_t k = seam_lane + seam_it * seam_lanes;
      if (k < seam_row_extent) {
        const unsigned seam_in_row = seam_row_lanes<8>(k * 8 - seam_row_shift, (long long)((idx_t)seam_k.v[6]));
        (void)seam_in_row;
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
        float v5_0 = ((seam_in_row >> 0) & 1u ? v4_0 : seam_convert<float>(((seam_i64)0LL)));
        float v5_1 = ((seam_in_row >> 1) & 1u ? v4_1 : seam_convert<float>(((seam_i64)0LL)));
        float v5_2 = ((seam_in_row >> 2) & 1u ? v4_2 : seam_convert<float>(((seam_i64)0LL)));
        float v5_3 = ((seam_in_row >> 3) & 1u ? v4_3 : seam_convert<float>(((seam_i64)0LL)));
        float v5_4 = ((seam_in_row >> 4) & 1u ? v4_4 : seam_convert<float>(((seam_i64)0LL)));
        float v5_5 = ((seam_in_row >> 5) & 1u ? v4_5 : seam_convert<float>(((seam_i64)0LL)));
        float v5_6 = ((seam_in_row >> 6) & 1u ? v4_6 : seam_convert<float>(((seam_i64)0LL)));
        float v5_7 = ((seam_in_row >> 7) & 1u ? v4_7 : seam_convert<float>(((seam_i64)0LL)));
        float v6_0 = (v1_0 + v5_0);
        float v6_1 = (v1_1 + v5_1);
        float v6_2 = (v1_2 + v5_2);
        float v6_3 = (v1_3 + v5_3);
        float v6_4 = (v1_4 + v5_4);
        float v6_5 = (v1_5 + v5_5);
        float v6_6 = (v1_6 + v5_6);
        float v6_7 = (v1_7 + v5_7);
        v1_0 = v6_0;
        v1_1 = v6_1;
        v1_2 = v6_2;
        v1_3 = v6_3;
        v1_4 = v6_4;
        v1_5 = v6_5;
        v1_6 = v6_6;
        v1_7 = v6_7;
      }
    }
    float v7_0 = seam_row_reduce_sum(seam_add(seam_add(seam_add(seam_add(seam_add(seam_add(seam_add(v1_0, v1_1), v1_2), v1_3), v1_4), v1_5), v1_6), v1_7), seam_row_ctx);
    SEAM_UNROLL(1)
    for (idx_t seam_it = 0; seam_it < seam_row_iterations; ++seam_it) {
      const idx_t k = seam_lane + seam_it * seam_lanes;
      if (k < seam_row_extent) {
        const unsigned seam_in_row = seam_row_lanes<8>(k * 8 - seam_row_shift, (long long)((idx_t)seam_k.v[7]));
        (void)seam_in_row;
        alignas(16) seam_bf16 v8[8];
        v8[0] = seam_cache0[seam_it][0];
        v8[1] = seam_cache0[seam_it][1];
        v8[2] = seam_cache0[seam_it][2];
        v8[3] = seam_cache0[seam_it][3];
        v8[4] = seam_cache0[seam_it][4];
        v8[5] = seam_cache0[seam_it][5];
        v8[6] = seam_cache0[seam_it][6];
        v8[7] = seam_cache0[seam_it][7];
        float v9_0 = seam_convert<float>(v8[0]);
        float v9_1 = seam_convert<float>(v8[1]);
        float v9_2 = seam_convert<float>(v8[2]);
        float v9_3 = seam_convert<float>(v8[3]);
        float v9_4 = seam_convert<float>(v8[4]);
        float v9_5 = seam_convert<float>(v8[5]);
        float v9_6 = seam_convert<float>(v8[6]);
        float v9_7 = seam_convert<float>(v8[7]);
        float v10_0 = seam_convert<float>(seam_k.f[0]);
        float v11_0 = seam_div_approx(v7_0, v10_0);
        float v12_0 = seam_convert<float>(seam_k.f[1]);
        float v13_0 = (v11_0 + v12_0);
        float v14_0 = seam_rsqrt_approx(v13_0);
        float v15_0 = (v9_0 * v14_0);
        float v15_1 = (v9_1 * v14_0);
        float v15_2 = (v9_2 * v14_0);
        float v15_3 = (v9_3 * v14_0);
        float v15_4 = (v9_4 * v14_0);
        float v15_5 = (v9_5 * v14_0);
        float v15_6 = (v9_6 * v14_0);
        float v15_7 = (v9_7 * v14_0);
        alignas(16) seam_bf16 v16[8];
        seam_load_edge<8, false>(in1 + ((k * 8) + (seam_row_shift * -1)), v16, seam_in_row);
        float v17_0 = seam_convert<float>(v16[0]);
        float v17_1 = seam_convert<float>(v16[1]);
        float v17_2 = seam_convert<float>(v16[2]);
        float v17_3 = seam_convert<float>(v16[3]);
        float v17_4 = seam_convert<float>(v16[4]);
        float v17_5 = seam_convert<float>(v16[5]);
        float v17_6 = seam_convert<float>(v16[6]);
        float v17_7 = seam_convert<float>(v16[7]);
        float v18_0 = (v15_0 * v17_0);
        float v18_1 = (v15_1 * v17_1);
        float v18_2 = (v15_2 * v17_2);
        float v18_3 = (v15_3 * v17_3);
        float v18_4 = (v15_4 * v17_4);
        float v18_5 = (v15_5 * v17_5);
        float v18_6 = (v15_6 * v17_6);
        float v18_7 = (v15_7 * v17_7);
        alignas(16) seam_bf16 v19[8];
        v19[0] = seam_convert<seam_bf16>(v18_0);
        v19[1] = seam_convert<seam_bf16>(v18_1);
        v19[2] = seam_convert<seam_bf16>(v18_2);
        v19[3] = seam_convert<seam_bf16>(v18_3);
        v19[4] = seam_convert<seam_bf16>(v18_4);
        v19[5] = seam_convert<seam_bf16>(v18_5);
        v19[6] = seam_convert<seam_bf16>(v18_6);
        v19[7] = seam_convert<seam_bf16>(v18_7);
        seam_store_edge<8, false>(out0 + (((k * 8) + (seam_row_shift * -1)) + (row * ((idx_t)seam_k.v[8]))), v19, seam_in_row);
      }
    }
  }
}
