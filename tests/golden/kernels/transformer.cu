// 14 kernel(s) for fusion transformer_1_layers_b1_t64

// group 0: row kernel, 64 rows of 256 reduced elements, 8 rows x 32 threads per block
// launch: row kernel: block 256 (8 rows x 32 threads), grid 8 blocks, no register cap, lanes contiguous
#include "seam_device.cuh"

struct seam_rows_469b77b725b2a909_consts { long long v[7]; seam_divisor d[2]; double e[2]; };
SEAM_KERNEL void __launch_bounds__(256) seam_rows_469b77b725b2a909(const seam_bf16* __restrict__ in0, const seam_bf16* __restrict__ in1, seam_bf16* __restrict__ out0, const seam_rows_469b77b725b2a909_consts seam_k) {
  typedef int idx_t;
  __shared__ __align__(16) unsigned char seam_scratch[2048];
  const seam_rows<8, 32, true> seam_row_ctx(seam_scratch);
  const int seam_lane = seam_row_ctx.lane;
  const int seam_lanes = 32;
  constexpr int seam_row_iterations = 1;
  alignas(16) seam_bf16 seam_cache0[1][8];
  for (long long seam_first_row = (long long)blockIdx.x * 8; seam_first_row < (long long)((idx_t)seam_k.v[0]); seam_first_row += (long long)gridDim.x * 8) {
    const idx_t row = (idx_t)(seam_first_row + seam_row_ctx.slot);
    const idx_t seam_row_extent = row < ((idx_t)seam_k.v[1]) ? ((idx_t)seam_k.v[2]) : 0;
    (void)seam_row_extent;
    const idx_t r0 = seam_fast_mod(row, seam_k.d[0]);
    const idx_t r1 = seam_fast_div(row, seam_k.d[1]);
    float v2_0 = seam_convert<float>(((seam_i64)0LL));
    float v2_1 = seam_convert<float>(((seam_i64)0LL));
    float v2_2 = seam_convert<float>(((seam_i64)0LL));
    float v2_3 = seam_convert<float>(((seam_i64)0LL));
    float v2_4 = seam_convert<float>(((seam_i64)0LL));
    float v2_5 = seam_convert<float>(((seam_i64)0LL));
    float v2_6 = seam_convert<float>(((seam_i64)0LL));
    float v2_7 = seam_convert<float>(((seam_i64)0LL));
    SEAM_UNROLL(1)
    for (idx_t seam_it = 0; seam_it < seam_row_iterations; ++seam_it) {
      const idx_t k = seam_lane + seam_it * seam_lanes;
      if (k < seam_row_extent) {
        seam_load<8>(in0 + (((r1 * ((idx_t)seam_k.v[4])) + (r0 * ((idx_t)seam_k.v[3]))) + (k * 8)), seam_cache0[seam_it]);
      }
    }
    SEAM_UNROLL(1)
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
        float v5_0 = (v4_0 * v4_0);
        float v5_1 = (v4_1 * v4_1);
        float v5_2 = (v4_2 * v4_2);
        float v5_3 = (v4_3 * v4_3);
        float v5_4 = (v4_4 * v4_4);
        float v5_5 = (v4_5 * v4_5);
        float v5_6 = (v4_6 * v4_6);
        float v5_7 = (v4_7 * v4_7);
        float v6_0 = (v2_0 + v5_0);
        float v6_1 = (v2_1 + v5_1);
        float v6_2 = (v2_2 + v5_2);
        float v6_3 = (v2_3 + v5_3);
        float v6_4 = (v2_4 + v5_4);
        float v6_5 = (v2_5 + v5_5);
        float v6_6 = (v2_6 + v5_6);
        float v6_7 = (v2_7 + v5_7);
        v2_0 = v6_0;
        v2_1 = v6_1;
        v2_2 = v6_2;
        v2_3 = v6_3;
        v2_4 = v6_4;
        v2_5 = v6_5;
        v2_6 = v6_6;
        v2_7 = v6_7;
      }
    }
    float v7_0 = seam_row_reduce_sum(seam_add(seam_add(seam_add(seam_add(seam_add(seam_add(seam_add(v2_0, v2_1), v2_2), v2_3), v2_4), v2_5), v2_6), v2_7), seam_row_ctx);
    SEAM_UNROLL(1)
    for (idx_t seam_it = 0; seam_it < seam_row_iterations; ++seam_it) {
      const idx_t k = seam_lane + seam_it * seam_lanes;
      if (k < seam_row_extent) {
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
        double v10_0 = seam_convert<double>(seam_k.e[0]);
        float v11_0 = seam_convert<float>(v10_0);
        float v12_0 = seam_div_approx(v7_0, v11_0);
        double v13_0 = seam_convert<double>(seam_k.e[1]);
        float v14_0 = seam_convert<float>(v13_0);
        float v15_0 = (v12_0 + v14_0);
        float v16_0 = seam_rsqrt_approx(v15_0);
        float v17_0 = (v9_0 * v16_0);
        float v17_1 = (v9_1 * v16_0);
        float v17_2 = (v9_2 * v16_0);
        float v17_3 = (v9_3 * v16_0);
        float v17_4 = (v9_4 * v16_0);
        float v17_5 = (v9_5 * v16_0);
        float v17_6 = (v9_6 * v16_0);
        float v17_7 = (v9_7 * v16_0);
        alignas(16) seam_bf16 v18[8];
        seam_load<8>(in1 + (k * 8), v18);
        float v19_0 = seam_convert<float>(v18[0]);
        float v19_1 = seam_convert<float>(v18[1]);
        float v19_2 = seam_convert<float>(v18[2]);
        float v19_3 = seam_convert<float>(v18[3]);
        float v19_4 = seam_convert<float>(v18[4]);
        float v19_5 = seam_convert<float>(v18[5]);
        float v19_6 = seam_convert<float>(v18[6]);
        float v19_7 = seam_convert<float>(v18[7]);
        float v20_0 = (v17_0 * v19_0);
        float v20_1 = (v17_1 * v19_1);
        float v20_2 = (v17_2 * v19_2);
        float v20_3 = (v17_3 * v19_3);
        float v20_4 = (v17_4 * v19_4);
        float v20_5 = (v17_5 * v19_5);
        float v20_6 = (v17_6 * v19_6);
        float v20_7 = (v17_7 * v19_7);
        alignas(16) seam_bf16 v21[8];
        v21[0] = seam_convert<seam_bf16>(v20_0);
        v21[1] = seam_convert<seam_bf16>(v20_1);
        v21[2] = seam_convert<seam_bf16>(v20_2);
        v21[3] = seam_convert<seam_bf16>(v20_3);
        v21[4] = seam_convert<seam_bf16>(v20_4);
        v21[5] = seam_convert<seam_bf16>(v20_5);
        v21[6] = seam_convert<seam_bf16>(v20_6);
        v21[7] = seam_convert<seam_bf16>(v20_7);
        seam_store<8>(out0 + (((k * 8) + (r0 * ((idx_t)seam_k.v[6]))) + (r1 * ((idx_t)seam_k.v[5]))), v21);
      }
    }
  }
}

// group 1: linear, run by a library routine (no generated code)

// group 2: 3 chunked output(s), lanes 8 x4 copies 8 8 x4 copies
// launch: block 128, chunks/thread 1, grid uncapped, vectors <= 16 B, branch-free, rows tiled by 2 (32 in runs), copies <= 16, uniform branches, reused loads kept in L2
#include "seam_device.cuh"

struct seam_pointwise_cbc2af13440a03df_consts { long long v[49]; seam_divisor d[20]; };
SEAM_KERNEL void __launch_bounds__(128) seam_pointwise_cbc2af13440a03df(const seam_bf16* __restrict__ in0, const seam_bf16* __restrict__ in1, const seam_bf16* __restrict__ in2, seam_bf16* __restrict__ out0, seam_bf16* __restrict__ out1, seam_bf16* __restrict__ out2, const seam_pointwise_cbc2af13440a03df_consts seam_k) {
  typedef int idx_t;
  for (idx_t g = (idx_t)blockIdx.x * blockDim.x + threadIdx.x; g < ((idx_t)seam_k.v[0]); g += (idx_t)gridDim.x * blockDim.x) {
    if (g < ((idx_t)seam_k.v[1])) {
      const idx_t chunk0 = g - 0;
      const idx_t q0 = seam_fast_mod(chunk0, seam_k.d[0]);
      const idx_t i1 = seam_fast_mod(seam_fast_div(chunk0, seam_k.d[1]), seam_k.d[2]);
      const idx_t i2 = seam_fast_div(chunk0, seam_k.d[3]);
      alignas(16) seam_bf16 v4[8];
      seam_load<8>(in2 + ((i1 * ((idx_t)seam_k.v[4])) + (((q0 * 8) + ((idx_t)seam_k.v[3])) + (i2 * ((idx_t)seam_k.v[2])))), v4);
      const idx_t e5 = (((q0 * 8) + (i1 * ((idx_t)seam_k.v[6]))) + ((i2 * 4) * ((idx_t)seam_k.v[5])));
      seam_store<8>(out0 + e5, v4);
      seam_store<8>(out0 + (e5 + ((idx_t)seam_k.v[7])), v4);
      seam_store<8>(out0 + (e5 + ((idx_t)seam_k.v[8])), v4);
      seam_store<8>(out0 + (e5 + ((idx_t)seam_k.v[9])), v4);
    } else if (g < ((idx_t)seam_k.v[10])) {
      const idx_t chunk1 = g - ((idx_t)seam_k.v[11]);
      const idx_t q6 = seam_fast_mod(chunk1, seam_k.d[4]);
      const idx_t i7 = seam_fast_mod(seam_fast_div(chunk1, seam_k.d[5]), seam_k.d[6]);
      const idx_t i8 = seam_fast_mod(seam_fast_div(chunk1, seam_k.d[7]), seam_k.d[8]);
      const idx_t i10 = seam_fast_div(chunk1, seam_k.d[9]);
      alignas(16) seam_bf16 v11[8];
      seam_load<8>(in2 + (((i7 + (i10 * 2)) * ((idx_t)seam_k.v[14])) + (((q6 * 8) + (seam_fast_mod(i8, seam_k.d[11]) * ((idx_t)seam_k.v[13]))) + (seam_fast_div(i8, seam_k.d[10]) * ((idx_t)seam_k.v[12])))), v11);
      alignas(16) seam_bf16 v13[8];
      seam_load_keep<8>(in0 + (((i7 + (i10 * 2)) * ((idx_t)seam_k.v[15])) + (q6 * 8)), v13);
      alignas(16) seam_bf16 v20[8];
      seam_load<8>(in2 + ((q6 * 8) < ((idx_t)seam_k.v[24]) ? (((i7 + (i10 * 2)) * ((idx_t)seam_k.v[23])) + ((((q6 * 8) + ((idx_t)seam_k.v[22])) + (seam_fast_mod(i8, seam_k.d[15]) * ((idx_t)seam_k.v[21]))) + (seam_fast_div(i8, seam_k.d[14]) * ((idx_t)seam_k.v[20])))) : (((i7 + (i10 * 2)) * ((idx_t)seam_k.v[19])) + ((((q6 * 8) + ((idx_t)seam_k.v[18])) + (seam_fast_mod(i8, seam_k.d[13]) * ((idx_t)seam_k.v[17]))) + (seam_fast_div(i8, seam_k.d[12]) * ((idx_t)seam_k.v[16]))))), v20);
      alignas(16) seam_bf16 v24[8];
      seam_load_keep<8>(in1 + (((i7 + (i10 * 2)) * ((idx_t)seam_k.v[25])) + (q6 * 8)), v24);
      float v12_0 = seam_convert<float>(v11[0]);
      float v12_1 = seam_convert<float>(v11[1]);
      float v12_2 = seam_convert<float>(v11[2]);
      float v12_3 = seam_convert<float>(v11[3]);
      float v12_4 = seam_convert<float>(v11[4]);
      float v12_5 = seam_convert<float>(v11[5]);
      float v12_6 = seam_convert<float>(v11[6]);
      float v12_7 = seam_convert<float>(v11[7]);
      float v14_0 = seam_convert<float>(v13[0]);
      float v14_1 = seam_convert<float>(v13[1]);
      float v14_2 = seam_convert<float>(v13[2]);
      float v14_3 = seam_convert<float>(v13[3]);
      float v14_4 = seam_convert<float>(v13[4]);
      float v14_5 = seam_convert<float>(v13[5]);
      float v14_6 = seam_convert<float>(v13[6]);
      float v14_7 = seam_convert<float>(v13[7]);
      float v15_0 = (v12_0 * v14_0);
      float v15_1 = (v12_1 * v14_1);
      float v15_2 = (v12_2 * v14_2);
      float v15_3 = (v12_3 * v14_3);
      float v15_4 = (v12_4 * v14_4);
      float v15_5 = (v12_5 * v14_5);
      float v15_6 = (v12_6 * v14_6);
      float v15_7 = (v12_7 * v14_7);
      float v18_0 = seam_convert<float>(v20[0]);
      float v18_1 = seam_convert<float>(v20[1]);
      float v18_2 = seam_convert<float>(v20[2]);
      float v18_3 = seam_convert<float>(v20[3]);
      float v18_4 = seam_convert<float>(v20[4]);
      float v18_5 = seam_convert<float>(v20[5]);
      float v18_6 = seam_convert<float>(v20[6]);
      float v18_7 = seam_convert<float>(v20[7]);
      float v19_0 = (-v18_0);
      float v19_1 = (-v18_1);
      float v19_2 = (-v18_2);
      float v19_3 = (-v18_3);
      float v19_4 = (-v18_4);
      float v19_5 = (-v18_5);
      float v19_6 = (-v18_6);
      float v19_7 = (-v18_7);
      bool v22_0 = (q6 * 8) < ((idx_t)seam_k.v[26]);
      float v23_0 = (v22_0 ? v19_0 : v18_0);
      float v23_1 = (v22_0 ? v19_1 : v18_1);
      float v23_2 = (v22_0 ? v19_2 : v18_2);
      float v23_3 = (v22_0 ? v19_3 : v18_3);
      float v23_4 = (v22_0 ? v19_4 : v18_4);
      float v23_5 = (v22_0 ? v19_5 : v18_5);
      float v23_6 = (v22_0 ? v19_6 : v18_6);
      float v23_7 = (v22_0 ? v19_7 : v18_7);
      float v25_0 = seam_convert<float>(v24[0]);
      float v25_1 = seam_convert<float>(v24[1]);
      float v25_2 = seam_convert<float>(v24[2]);
      float v25_3 = seam_convert<float>(v24[3]);
      float v25_4 = seam_convert<float>(v24[4]);
      float v25_5 = seam_convert<float>(v24[5]);
      float v25_6 = seam_convert<float>(v24[6]);
      float v25_7 = seam_convert<float>(v24[7]);
      float v26_0 = (v23_0 * v25_0);
      float v26_1 = (v23_1 * v25_1);
      float v26_2 = (v23_2 * v25_2);
      float v26_3 = (v23_3 * v25_3);
      float v26_4 = (v23_4 * v25_4);
      float v26_5 = (v23_5 * v25_5);
      float v26_6 = (v23_6 * v25_6);
      float v26_7 = (v23_7 * v25_7);
      float v27_0 = (v15_0 + v26_0);
      float v27_1 = (v15_1 + v26_1);
      float v27_2 = (v15_2 + v26_2);
      float v27_3 = (v15_3 + v26_3);
      float v27_4 = (v15_4 + v26_4);
      float v27_5 = (v15_5 + v26_5);
      float v27_6 = (v15_6 + v26_6);
      float v27_7 = (v15_7 + v26_7);
      alignas(16) seam_bf16 v28[8];
      v28[0] = seam_convert<seam_bf16>(v27_0);
      v28[1] = seam_convert<seam_bf16>(v27_1);
      v28[2] = seam_convert<seam_bf16>(v27_2);
      v28[3] = seam_convert<seam_bf16>(v27_3);
      v28[4] = seam_convert<seam_bf16>(v27_4);
      v28[5] = seam_convert<seam_bf16>(v27_5);
      v28[6] = seam_convert<seam_bf16>(v27_6);
      v28[7] = seam_convert<seam_bf16>(v27_7);
      seam_store<8>(out1 + (((q6 * 8) + ((i7 + (i10 * 2)) * ((idx_t)seam_k.v[28]))) + (i8 * ((idx_t)seam_k.v[27]))), v28);
    } else if (g < ((idx_t)seam_k.v[29])) {
      const idx_t chunk2 = g - ((idx_t)seam_k.v[30]);
      const idx_t q29 = seam_fast_mod(chunk2, seam_k.d[16]);
      const idx_t i30 = seam_fast_mod(seam_fast_div(chunk2, seam_k.d[17]), seam_k.d[18]);
      const idx_t i31 = seam_fast_div(chunk2, seam_k.d[19]);
      alignas(16) seam_bf16 v33[8];
      seam_load<8>(in2 + ((i30 * ((idx_t)seam_k.v[33])) + (((q29 * 8) + ((idx_t)seam_k.v[32])) + (i31 * ((idx_t)seam_k.v[31])))), v33);
      alignas(16) seam_bf16 v35[8];
      seam_load<8>(in0 + ((i30 * ((idx_t)seam_k.v[34])) + (q29 * 8)), v35);
      alignas(16) seam_bf16 v42[8];
      seam_load<8>(in2 + ((q29 * 8) < ((idx_t)seam_k.v[41]) ? ((i30 * ((idx_t)seam_k.v[40])) + (((q29 * 8) + ((idx_t)seam_k.v[39])) + (i31 * ((idx_t)seam_k.v[38])))) : ((i30 * ((idx_t)seam_k.v[37])) + (((q29 * 8) + ((idx_t)seam_k.v[36])) + (i31 * ((idx_t)seam_k.v[35]))))), v42);
      alignas(16) seam_bf16 v46[8];
      seam_load<8>(in1 + ((i30 * ((idx_t)seam_k.v[42])) + (q29 * 8)), v46);
      const idx_t e51 = (((q29 * 8) + (i30 * ((idx_t)seam_k.v[44]))) + ((i31 * 4) * ((idx_t)seam_k.v[43])));
      float v34_0 = seam_convert<float>(v33[0]);
      float v34_1 = seam_convert<float>(v33[1]);
      float v34_2 = seam_convert<float>(v33[2]);
      float v34_3 = seam_convert<float>(v33[3]);
      float v34_4 = seam_convert<float>(v33[4]);
      float v34_5 = seam_convert<float>(v33[5]);
      float v34_6 = seam_convert<float>(v33[6]);
      float v34_7 = seam_convert<float>(v33[7]);
      float v36_0 = seam_convert<float>(v35[0]);
      float v36_1 = seam_convert<float>(v35[1]);
      float v36_2 = seam_convert<float>(v35[2]);
      float v36_3 = seam_convert<float>(v35[3]);
      float v36_4 = seam_convert<float>(v35[4]);
      float v36_5 = seam_convert<float>(v35[5]);
      float v36_6 = seam_convert<float>(v35[6]);
      float v36_7 = seam_convert<float>(v35[7]);
      float v37_0 = (v34_0 * v36_0);
      float v37_1 = (v34_1 * v36_1);
      float v37_2 = (v34_2 * v36_2);
      float v37_3 = (v34_3 * v36_3);
      float v37_4 = (v34_4 * v36_4);
      float v37_5 = (v34_5 * v36_5);
      float v37_6 = (v34_6 * v36_6);
      float v37_7 = (v34_7 * v36_7);
      float v40_0 = seam_convert<float>(v42[0]);
      float v40_1 = seam_convert<float>(v42[1]);
      float v40_2 = seam_convert<float>(v42[2]);
      float v40_3 = seam_convert<float>(v42[3]);
      float v40_4 = seam_convert<float>(v42[4]);
      float v40_5 = seam_convert<float>(v42[5]);
      float v40_6 = seam_convert<float>(v42[6]);
      float v40_7 = seam_convert<float>(v42[7]);
      float v41_0 = (-v40_0);
      float v41_1 = (-v40_1);
      float v41_2 = (-v40_2);
      float v41_3 = (-v40_3);
      float v41_4 = (-v40_4);
      float v41_5 = (-v40_5);
      float v41_6 = (-v40_6);
      float v41_7 = (-v40_7);
      bool v44_0 = (q29 * 8) < ((idx_t)seam_k.v[45]);
      float v45_0 = (v44_0 ? v41_0 : v40_0);
      float v45_1 = (v44_0 ? v41_1 : v40_1);
      float v45_2 = (v44_0 ? v41_2 : v40_2);
      float v45_3 = (v44_0 ? v41_3 : v40_3);
      float v45_4 = (v44_0 ? v41_4 : v40_4);
      float v45_5 = (v44_0 ? v41_5 : v40_5);
      float v45_6 = (v44_0 ? v41_6 : v40_6);
      float v45_7 = (v44_0 ? v41_7 : v40_7);
      float v47_0 = seam_convert<float>(v46[0]);
      float v47_1 = seam_convert<float>(v46[1]);
      float v47_2 = seam_convert<float>(v46[2]);
      float v47_3 = seam_convert<float>(v46[3]);
      float v47_4 = seam_convert<float>(v46[4]);
      float v47_5 = seam_convert<float>(v46[5]);
      float v47_6 = seam_convert<float>(v46[6]);
      float v47_7 = seam_convert<float>(v46[7]);
      float v48_0 = (v45_0 * v47_0);
      float v48_1 = (v45_1 * v47_1);
      float v48_2 = (v45_2 * v47_2);
      float v48_3 = (v45_3 * v47_3);
      float v48_4 = (v45_4 * v47_4);
      float v48_5 = (v45_5 * v47_5);
      float v48_6 = (v45_6 * v47_6);
      float v48_7 = (v45_7 * v47_7);
      float v49_0 = (v37_0 + v48_0);
      float v49_1 = (v37_1 + v48_1);
      float v49_2 = (v37_2 + v48_2);
      float v49_3 = (v37_3 + v48_3);
      float v49_4 = (v37_4 + v48_4);
      float v49_5 = (v37_5 + v48_5);
      float v49_6 = (v37_6 + v48_6);
      float v49_7 = (v37_7 + v48_7);
      alignas(16) seam_bf16 v50[8];
      v50[0] = seam_convert<seam_bf16>(v49_0);
      v50[1] = seam_convert<seam_bf16>(v49_1);
      v50[2] = seam_convert<seam_bf16>(v49_2);
      v50[3] = seam_convert<seam_bf16>(v49_3);
      v50[4] = seam_convert<seam_bf16>(v49_4);
      v50[5] = seam_convert<seam_bf16>(v49_5);
      v50[6] = seam_convert<seam_bf16>(v49_6);
      v50[7] = seam_convert<seam_bf16>(v49_7);
      seam_store<8>(out2 + e51, v50);
      seam_store<8>(out2 + (e51 + ((idx_t)seam_k.v[46])), v50);
      seam_store<8>(out2 + (e51 + ((idx_t)seam_k.v[47])), v50);
      seam_store<8>(out2 + (e51 + ((idx_t)seam_k.v[48])), v50);
    }
  }
}

// group 3: matmul, run by a library routine (no generated code)

// group 4: row kernel, 512 rows of 64 reduced elements, 32 rows x 8 threads per block
// launch: row kernel: block 256 (32 rows x 8 threads), grid 16 blocks, no register cap, lanes contiguous
#include "seam_device.cuh"

struct seam_rows_c3086e5e2a4c1f72_consts { long long v[9]; seam_divisor d[4]; double e[3]; };
SEAM_KERNEL void __launch_bounds__(256) seam_rows_c3086e5e2a4c1f72(const seam_bf16* __restrict__ in0, seam_bf16* __restrict__ out0, const seam_rows_c3086e5e2a4c1f72_consts seam_k) {
  typedef int idx_t;
  __shared__ __align__(16) unsigned char seam_scratch[2048];
  const seam_rows<32, 8, true> seam_row_ctx(seam_scratch);
  const int seam_lane = seam_row_ctx.lane;
  const int seam_lanes = 8;
  constexpr int seam_row_iterations = 1;
  alignas(16) seam_bf16 seam_cache0[1][8];
  for (long long seam_first_row = (long long)blockIdx.x * 32; seam_first_row < (long long)((idx_t)seam_k.v[0]); seam_first_row += (long long)gridDim.x * 32) {
    const idx_t row = (idx_t)(seam_first_row + seam_row_ctx.slot);
    const idx_t seam_row_extent = row < ((idx_t)seam_k.v[1]) ? ((idx_t)seam_k.v[2]) : 0;
    (void)seam_row_extent;
    const idx_t r0 = seam_fast_mod(row, seam_k.d[0]);
    const idx_t r1 = seam_fast_mod(seam_fast_div(row, seam_k.d[1]), seam_k.d[2]);
    const idx_t r2 = seam_fast_div(row, seam_k.d[3]);
    float v3_0 = seam_convert<float>(seam_double_from_bits(18442240474082181120ULL));
    float v3_1 = seam_convert<float>(seam_double_from_bits(18442240474082181120ULL));
    float v3_2 = seam_convert<float>(seam_double_from_bits(18442240474082181120ULL));
    float v3_3 = seam_convert<float>(seam_double_from_bits(18442240474082181120ULL));
    float v3_4 = seam_convert<float>(seam_double_from_bits(18442240474082181120ULL));
    float v3_5 = seam_convert<float>(seam_double_from_bits(18442240474082181120ULL));
    float v3_6 = seam_convert<float>(seam_double_from_bits(18442240474082181120ULL));
    float v3_7 = seam_convert<float>(seam_double_from_bits(18442240474082181120ULL));
    float v4_0 = seam_convert<float>(((seam_i64)0LL));
    float v4_1 = seam_convert<float>(((seam_i64)0LL));
    float v4_2 = seam_convert<float>(((seam_i64)0LL));
    float v4_3 = seam_convert<float>(((seam_i64)0LL));
    float v4_4 = seam_convert<float>(((seam_i64)0LL));
    float v4_5 = seam_convert<float>(((seam_i64)0LL));
    float v4_6 = seam_convert<float>(((seam_i64)0LL));
    float v4_7 = seam_convert<float>(((seam_i64)0LL));
    SEAM_UNROLL(1)
    for (idx_t seam_it = 0; seam_it < seam_row_iterations; ++seam_it) {
      const idx_t k = seam_lane + seam_it * seam_lanes;
      if (k < seam_row_extent) {
        seam_load<8>(in0 + ((((r2 * ((idx_t)seam_k.v[5])) + (r1 * ((idx_t)seam_k.v[4]))) + (r0 * ((idx_t)seam_k.v[3]))) + (k * 8)), seam_cache0[seam_it]);
      }
    }
    SEAM_UNROLL(1)
    for (idx_t seam_it = 0; seam_it < seam_row_iterations; ++seam_it) {
      const idx_t k = seam_lane + seam_it * seam_lanes;
      if (k < seam_row_extent) {
        seam_i64 v5_0 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)(r0) * (seam_i64)((seam_i64)1LL));
        seam_i64 v6_0 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)((k * 8) + 0) * (seam_i64)((seam_i64)1LL));
        seam_i64 v6_1 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)((k * 8) + 1) * (seam_i64)((seam_i64)1LL));
        seam_i64 v6_2 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)((k * 8) + 2) * (seam_i64)((seam_i64)1LL));
        seam_i64 v6_3 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)((k * 8) + 3) * (seam_i64)((seam_i64)1LL));
        seam_i64 v6_4 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)((k * 8) + 4) * (seam_i64)((seam_i64)1LL));
        seam_i64 v6_5 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)((k * 8) + 5) * (seam_i64)((seam_i64)1LL));
        seam_i64 v6_6 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)((k * 8) + 6) * (seam_i64)((seam_i64)1LL));
        seam_i64 v6_7 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)((k * 8) + 7) * (seam_i64)((seam_i64)1LL));
        bool v7_0 = seam_ge(v5_0, v6_0);
        bool v7_1 = seam_ge(v5_0, v6_1);
        bool v7_2 = seam_ge(v5_0, v6_2);
        bool v7_3 = seam_ge(v5_0, v6_3);
        bool v7_4 = seam_ge(v5_0, v6_4);
        bool v7_5 = seam_ge(v5_0, v6_5);
        bool v7_6 = seam_ge(v5_0, v6_6);
        bool v7_7 = seam_ge(v5_0, v6_7);
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
        double v10_0 = seam_convert<double>(seam_k.e[0]);
        float v11_0 = seam_convert<float>(v10_0);
        float v12_0 = (v9_0 * v11_0);
        float v12_1 = (v9_1 * v11_0);
        float v12_2 = (v9_2 * v11_0);
        float v12_3 = (v9_3 * v11_0);
        float v12_4 = (v9_4 * v11_0);
        float v12_5 = (v9_5 * v11_0);
        float v12_6 = (v9_6 * v11_0);
        float v12_7 = (v9_7 * v11_0);
        double v13_0 = seam_convert<double>(seam_double_from_bits(18442240474082181120ULL));
        float v14_0 = seam_convert<float>(v13_0);
        float v15_0 = (v7_0 ? v12_0 : v14_0);
        float v15_1 = (v7_1 ? v12_1 : v14_0);
        float v15_2 = (v7_2 ? v12_2 : v14_0);
        float v15_3 = (v7_3 ? v12_3 : v14_0);
        float v15_4 = (v7_4 ? v12_4 : v14_0);
        float v15_5 = (v7_5 ? v12_5 : v14_0);
        float v15_6 = (v7_6 ? v12_6 : v14_0);
        float v15_7 = (v7_7 ? v12_7 : v14_0);
        float v16_0 = seam_maximum(v3_0, v15_0);
        float v16_1 = seam_maximum(v3_1, v15_1);
        float v16_2 = seam_maximum(v3_2, v15_2);
        float v16_3 = seam_maximum(v3_3, v15_3);
        float v16_4 = seam_maximum(v3_4, v15_4);
        float v16_5 = seam_maximum(v3_5, v15_5);
        float v16_6 = seam_maximum(v3_6, v15_6);
        float v16_7 = seam_maximum(v3_7, v15_7);
        v3_0 = v16_0;
        v3_1 = v16_1;
        v3_2 = v16_2;
        v3_3 = v16_3;
        v3_4 = v16_4;
        v3_5 = v16_5;
        v3_6 = v16_6;
        v3_7 = v16_7;
      }
    }
    SEAM_UNROLL(1)
    for (idx_t seam_it = 0; seam_it < seam_row_iterations; ++seam_it) {
      const idx_t k = seam_lane + seam_it * seam_lanes;
      if (k < seam_row_extent) {
        seam_i64 v17_0 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)(r0) * (seam_i64)((seam_i64)1LL));
        seam_i64 v18_0 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)((k * 8) + 0) * (seam_i64)((seam_i64)1LL));
        seam_i64 v18_1 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)((k * 8) + 1) * (seam_i64)((seam_i64)1LL));
        seam_i64 v18_2 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)((k * 8) + 2) * (seam_i64)((seam_i64)1LL));
        seam_i64 v18_3 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)((k * 8) + 3) * (seam_i64)((seam_i64)1LL));
        seam_i64 v18_4 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)((k * 8) + 4) * (seam_i64)((seam_i64)1LL));
        seam_i64 v18_5 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)((k * 8) + 5) * (seam_i64)((seam_i64)1LL));
        seam_i64 v18_6 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)((k * 8) + 6) * (seam_i64)((seam_i64)1LL));
        seam_i64 v18_7 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)((k * 8) + 7) * (seam_i64)((seam_i64)1LL));
        bool v19_0 = seam_ge(v17_0, v18_0);
        bool v19_1 = seam_ge(v17_0, v18_1);
        bool v19_2 = seam_ge(v17_0, v18_2);
        bool v19_3 = seam_ge(v17_0, v18_3);
        bool v19_4 = seam_ge(v17_0, v18_4);
        bool v19_5 = seam_ge(v17_0, v18_5);
        bool v19_6 = seam_ge(v17_0, v18_6);
        bool v19_7 = seam_ge(v17_0, v18_7);
        alignas(16) seam_bf16 v20[8];
        v20[0] = seam_cache0[seam_it][0];
        v20[1] = seam_cache0[seam_it][1];
        v20[2] = seam_cache0[seam_it][2];
        v20[3] = seam_cache0[seam_it][3];
        v20[4] = seam_cache0[seam_it][4];
        v20[5] = seam_cache0[seam_it][5];
        v20[6] = seam_cache0[seam_it][6];
        v20[7] = seam_cache0[seam_it][7];
        float v21_0 = seam_convert<float>(v20[0]);
        float v21_1 = seam_convert<float>(v20[1]);
        float v21_2 = seam_convert<float>(v20[2]);
        float v21_3 = seam_convert<float>(v20[3]);
        float v21_4 = seam_convert<float>(v20[4]);
        float v21_5 = seam_convert<float>(v20[5]);
        float v21_6 = seam_convert<float>(v20[6]);
        float v21_7 = seam_convert<float>(v20[7]);
        double v22_0 = seam_convert<double>(seam_k.e[1]);
        float v23_0 = seam_convert<float>(v22_0);
        float v24_0 = (v21_0 * v23_0);
        float v24_1 = (v21_1 * v23_0);
        float v24_2 = (v21_2 * v23_0);
        float v24_3 = (v21_3 * v23_0);
        float v24_4 = (v21_4 * v23_0);
        float v24_5 = (v21_5 * v23_0);
        float v24_6 = (v21_6 * v23_0);
        float v24_7 = (v21_7 * v23_0);
        double v25_0 = seam_convert<double>(seam_double_from_bits(18442240474082181120ULL));
        float v26_0 = seam_convert<float>(v25_0);
        float v27_0 = (v19_0 ? v24_0 : v26_0);
        float v27_1 = (v19_1 ? v24_1 : v26_0);
        float v27_2 = (v19_2 ? v24_2 : v26_0);
        float v27_3 = (v19_3 ? v24_3 : v26_0);
        float v27_4 = (v19_4 ? v24_4 : v26_0);
        float v27_5 = (v19_5 ? v24_5 : v26_0);
        float v27_6 = (v19_6 ? v24_6 : v26_0);
        float v27_7 = (v19_7 ? v24_7 : v26_0);
        float v28_0 = seam_convert<float>(0.0);
        float v29_0 = seam_convert<float>(seam_double_from_bits(18442240474082181120ULL));
        bool v30_0 = seam_eq(v3_0, v29_0);
        bool v30_1 = seam_eq(v3_1, v29_0);
        bool v30_2 = seam_eq(v3_2, v29_0);
        bool v30_3 = seam_eq(v3_3, v29_0);
        bool v30_4 = seam_eq(v3_4, v29_0);
        bool v30_5 = seam_eq(v3_5, v29_0);
        bool v30_6 = seam_eq(v3_6, v29_0);
        bool v30_7 = seam_eq(v3_7, v29_0);
        float v31_0 = (v30_0 ? v28_0 : v3_0);
        float v31_1 = (v30_1 ? v28_0 : v3_1);
        float v31_2 = (v30_2 ? v28_0 : v3_2);
        float v31_3 = (v30_3 ? v28_0 : v3_3);
        float v31_4 = (v30_4 ? v28_0 : v3_4);
        float v31_5 = (v30_5 ? v28_0 : v3_5);
        float v31_6 = (v30_6 ? v28_0 : v3_6);
        float v31_7 = (v30_7 ? v28_0 : v3_7);
        float v32_0 = (v27_0 - v31_0);
        float v32_1 = (v27_1 - v31_1);
        float v32_2 = (v27_2 - v31_2);
        float v32_3 = (v27_3 - v31_3);
        float v32_4 = (v27_4 - v31_4);
        float v32_5 = (v27_5 - v31_5);
        float v32_6 = (v27_6 - v31_6);
        float v32_7 = (v27_7 - v31_7);
        float v33_0 = seam_exp_approx(v32_0);
        float v33_1 = seam_exp_approx(v32_1);
        float v33_2 = seam_exp_approx(v32_2);
        float v33_3 = seam_exp_approx(v32_3);
        float v33_4 = seam_exp_approx(v32_4);
        float v33_5 = seam_exp_approx(v32_5);
        float v33_6 = seam_exp_approx(v32_6);
        float v33_7 = seam_exp_approx(v32_7);
        float v34_0 = (v4_0 + v33_0);
        float v34_1 = (v4_1 + v33_1);
        float v34_2 = (v4_2 + v33_2);
        float v34_3 = (v4_3 + v33_3);
        float v34_4 = (v4_4 + v33_4);
        float v34_5 = (v4_5 + v33_5);
        float v34_6 = (v4_6 + v33_6);
        float v34_7 = (v4_7 + v33_7);
        v4_0 = v34_0;
        v4_1 = v34_1;
        v4_2 = v34_2;
        v4_3 = v34_3;
        v4_4 = v34_4;
        v4_5 = v34_5;
        v4_6 = v34_6;
        v4_7 = v34_7;
      }
    }
    float v35_0 = v3_0;
    float v36_0 = v4_0;
    seam_online_combine<true>(v35_0, v36_0, v3_1, v4_1);
    seam_online_combine<true>(v35_0, v36_0, v3_2, v4_2);
    seam_online_combine<true>(v35_0, v36_0, v3_3, v4_3);
    seam_online_combine<true>(v35_0, v36_0, v3_4, v4_4);
    seam_online_combine<true>(v35_0, v36_0, v3_5, v4_5);
    seam_online_combine<true>(v35_0, v36_0, v3_6, v4_6);
    seam_online_combine<true>(v35_0, v36_0, v3_7, v4_7);
    seam_row_reduce_online<true>(v35_0, v36_0, seam_row_ctx);
    float v37_0 = seam_convert<float>(seam_double_from_bits(9221120237041090560ULL));
    float v38_0 = seam_convert<float>(seam_double_from_bits(18442240474082181120ULL));
    bool v39_0 = seam_eq(v35_0, v38_0);
    float v40_0 = (v39_0 ? v37_0 : v36_0);
    float v40_rcp0_0 = seam_reciprocal_approx(v40_0);
    SEAM_UNROLL(1)
    for (idx_t seam_it = 0; seam_it < seam_row_iterations; ++seam_it) {
      const idx_t k = seam_lane + seam_it * seam_lanes;
      if (k < seam_row_extent) {
        seam_i64 v41_0 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)(r0) * (seam_i64)((seam_i64)1LL));
        seam_i64 v42_0 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)((k * 8) + 0) * (seam_i64)((seam_i64)1LL));
        seam_i64 v42_1 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)((k * 8) + 1) * (seam_i64)((seam_i64)1LL));
        seam_i64 v42_2 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)((k * 8) + 2) * (seam_i64)((seam_i64)1LL));
        seam_i64 v42_3 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)((k * 8) + 3) * (seam_i64)((seam_i64)1LL));
        seam_i64 v42_4 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)((k * 8) + 4) * (seam_i64)((seam_i64)1LL));
        seam_i64 v42_5 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)((k * 8) + 5) * (seam_i64)((seam_i64)1LL));
        seam_i64 v42_6 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)((k * 8) + 6) * (seam_i64)((seam_i64)1LL));
        seam_i64 v42_7 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)((k * 8) + 7) * (seam_i64)((seam_i64)1LL));
        bool v43_0 = seam_ge(v41_0, v42_0);
        bool v43_1 = seam_ge(v41_0, v42_1);
        bool v43_2 = seam_ge(v41_0, v42_2);
        bool v43_3 = seam_ge(v41_0, v42_3);
        bool v43_4 = seam_ge(v41_0, v42_4);
        bool v43_5 = seam_ge(v41_0, v42_5);
        bool v43_6 = seam_ge(v41_0, v42_6);
        bool v43_7 = seam_ge(v41_0, v42_7);
        alignas(16) seam_bf16 v44[8];
        v44[0] = seam_cache0[seam_it][0];
        v44[1] = seam_cache0[seam_it][1];
        v44[2] = seam_cache0[seam_it][2];
        v44[3] = seam_cache0[seam_it][3];
        v44[4] = seam_cache0[seam_it][4];
        v44[5] = seam_cache0[seam_it][5];
        v44[6] = seam_cache0[seam_it][6];
        v44[7] = seam_cache0[seam_it][7];
        float v45_0 = seam_convert<float>(v44[0]);
        float v45_1 = seam_convert<float>(v44[1]);
        float v45_2 = seam_convert<float>(v44[2]);
        float v45_3 = seam_convert<float>(v44[3]);
        float v45_4 = seam_convert<float>(v44[4]);
        float v45_5 = seam_convert<float>(v44[5]);
        float v45_6 = seam_convert<float>(v44[6]);
        float v45_7 = seam_convert<float>(v44[7]);
        double v46_0 = seam_convert<double>(seam_k.e[2]);
        float v47_0 = seam_convert<float>(v46_0);
        float v48_0 = (v45_0 * v47_0);
        float v48_1 = (v45_1 * v47_0);
        float v48_2 = (v45_2 * v47_0);
        float v48_3 = (v45_3 * v47_0);
        float v48_4 = (v45_4 * v47_0);
        float v48_5 = (v45_5 * v47_0);
        float v48_6 = (v45_6 * v47_0);
        float v48_7 = (v45_7 * v47_0);
        double v49_0 = seam_convert<double>(seam_double_from_bits(18442240474082181120ULL));
        float v50_0 = seam_convert<float>(v49_0);
        float v51_0 = (v43_0 ? v48_0 : v50_0);
        float v51_1 = (v43_1 ? v48_1 : v50_0);
        float v51_2 = (v43_2 ? v48_2 : v50_0);
        float v51_3 = (v43_3 ? v48_3 : v50_0);
        float v51_4 = (v43_4 ? v48_4 : v50_0);
        float v51_5 = (v43_5 ? v48_5 : v50_0);
        float v51_6 = (v43_6 ? v48_6 : v50_0);
        float v51_7 = (v43_7 ? v48_7 : v50_0);
        float v52_0 = (v51_0 - v35_0);
        float v52_1 = (v51_1 - v35_0);
        float v52_2 = (v51_2 - v35_0);
        float v52_3 = (v51_3 - v35_0);
        float v52_4 = (v51_4 - v35_0);
        float v52_5 = (v51_5 - v35_0);
        float v52_6 = (v51_6 - v35_0);
        float v52_7 = (v51_7 - v35_0);
        float v53_0 = seam_exp_approx(v52_0);
        float v53_1 = seam_exp_approx(v52_1);
        float v53_2 = seam_exp_approx(v52_2);
        float v53_3 = seam_exp_approx(v52_3);
        float v53_4 = seam_exp_approx(v52_4);
        float v53_5 = seam_exp_approx(v52_5);
        float v53_6 = seam_exp_approx(v52_6);
        float v53_7 = seam_exp_approx(v52_7);
        float v54_0 = (v53_0 * v40_rcp0_0);
        float v54_1 = (v53_1 * v40_rcp0_0);
        float v54_2 = (v53_2 * v40_rcp0_0);
        float v54_3 = (v53_3 * v40_rcp0_0);
        float v54_4 = (v53_4 * v40_rcp0_0);
        float v54_5 = (v53_5 * v40_rcp0_0);
        float v54_6 = (v53_6 * v40_rcp0_0);
        float v54_7 = (v53_7 * v40_rcp0_0);
        alignas(16) seam_bf16 v55[8];
        v55[0] = seam_convert<seam_bf16>(v54_0);
        v55[1] = seam_convert<seam_bf16>(v54_1);
        v55[2] = seam_convert<seam_bf16>(v54_2);
        v55[3] = seam_convert<seam_bf16>(v54_3);
        v55[4] = seam_convert<seam_bf16>(v54_4);
        v55[5] = seam_convert<seam_bf16>(v54_5);
        v55[6] = seam_convert<seam_bf16>(v54_6);
        v55[7] = seam_convert<seam_bf16>(v54_7);
        seam_store<8>(out0 + ((((k * 8) + (r0 * ((idx_t)seam_k.v[8]))) + (r1 * ((idx_t)seam_k.v[7]))) + (r2 * ((idx_t)seam_k.v[6]))), v55);
      }
    }
  }
}

// group 5: matmul, run by a library routine (no generated code)

// group 6: 1 chunked output(s), lanes 8
// launch: block 128, chunks/thread 1, grid uncapped, vectors <= 16 B, branch-free, rows tiled by 2 (32 in runs), copies <= 16, uniform branches, reused loads kept in L2
#include "seam_device.cuh"

struct seam_pointwise_452c7da8f49afb56_consts { long long v[4]; seam_divisor d[4]; };
SEAM_KERNEL void __launch_bounds__(128) seam_pointwise_452c7da8f49afb56(const seam_bf16* __restrict__ in0, seam_bf16* __restrict__ out0, const seam_pointwise_452c7da8f49afb56_consts seam_k) {
  typedef int idx_t;
  for (idx_t g = (idx_t)blockIdx.x * blockDim.x + threadIdx.x; g < ((idx_t)seam_k.v[0]); g += (idx_t)gridDim.x * blockDim.x) {
    if (g < ((idx_t)seam_k.v[1])) {
      const idx_t chunk0 = g - 0;
      const idx_t q0 = seam_fast_mod(chunk0, seam_k.d[0]);
      const idx_t i1 = seam_fast_div(chunk0, seam_k.d[1]);
      alignas(16) seam_bf16 v3[8];
      seam_load<8>(in0 + (((seam_fast_div(q0, seam_k.d[3]) * ((idx_t)seam_k.v[3])) + (i1 * ((idx_t)seam_k.v[2]))) + seam_fast_mod((q0 * 8), seam_k.d[2])), v3);
      seam_store<8>(out0 + (chunk0 * 8), v3);
    }
  }
}

// group 7: linear, run by a library routine (no generated code)

// group 8: row kernel, 64 rows of 256 reduced elements, 8 rows x 32 threads per block
// launch: row kernel: block 256 (8 rows x 32 threads), grid 8 blocks, no register cap, lanes contiguous
#include "seam_device.cuh"

struct seam_rows_3bb64223431b0b69_consts { long long v[11]; seam_divisor d[2]; double e[2]; };
SEAM_KERNEL void __launch_bounds__(256) seam_rows_3bb64223431b0b69(const seam_bf16* __restrict__ in0, const seam_bf16* __restrict__ in1, const seam_bf16* __restrict__ in2, seam_bf16* __restrict__ out0, seam_bf16* __restrict__ out1, const seam_rows_3bb64223431b0b69_consts seam_k) {
  typedef int idx_t;
  __shared__ __align__(16) unsigned char seam_scratch[2048];
  const seam_rows<8, 32, true> seam_row_ctx(seam_scratch);
  const int seam_lane = seam_row_ctx.lane;
  const int seam_lanes = 32;
  constexpr int seam_row_iterations = 1;
  alignas(16) seam_bf16 seam_cache0[1][8];
  alignas(16) seam_bf16 seam_cache1[1][8];
  for (long long seam_first_row = (long long)blockIdx.x * 8; seam_first_row < (long long)((idx_t)seam_k.v[0]); seam_first_row += (long long)gridDim.x * 8) {
    const idx_t row = (idx_t)(seam_first_row + seam_row_ctx.slot);
    const idx_t seam_row_extent = row < ((idx_t)seam_k.v[1]) ? ((idx_t)seam_k.v[2]) : 0;
    (void)seam_row_extent;
    const idx_t r0 = seam_fast_mod(row, seam_k.d[0]);
    const idx_t r1 = seam_fast_div(row, seam_k.d[1]);
    float v2_0 = seam_convert<float>(((seam_i64)0LL));
    float v2_1 = seam_convert<float>(((seam_i64)0LL));
    float v2_2 = seam_convert<float>(((seam_i64)0LL));
    float v2_3 = seam_convert<float>(((seam_i64)0LL));
    float v2_4 = seam_convert<float>(((seam_i64)0LL));
    float v2_5 = seam_convert<float>(((seam_i64)0LL));
    float v2_6 = seam_convert<float>(((seam_i64)0LL));
    float v2_7 = seam_convert<float>(((seam_i64)0LL));
    SEAM_UNROLL(1)
    for (idx_t seam_it = 0; seam_it < seam_row_iterations; ++seam_it) {
      const idx_t k = seam_lane + seam_it * seam_lanes;
      if (k < seam_row_extent) {
        seam_load<8>(in0 + (((r1 * ((idx_t)seam_k.v[4])) + (r0 * ((idx_t)seam_k.v[3]))) + (k * 8)), seam_cache0[seam_it]);
        seam_load<8>(in2 + (((r1 * ((idx_t)seam_k.v[6])) + (r0 * ((idx_t)seam_k.v[5]))) + (k * 8)), seam_cache1[seam_it]);
      }
    }
    SEAM_UNROLL(1)
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
        alignas(16) seam_bf16 v5[8];
        v5[0] = seam_cache1[seam_it][0];
        v5[1] = seam_cache1[seam_it][1];
        v5[2] = seam_cache1[seam_it][2];
        v5[3] = seam_cache1[seam_it][3];
        v5[4] = seam_cache1[seam_it][4];
        v5[5] = seam_cache1[seam_it][5];
        v5[6] = seam_cache1[seam_it][6];
        v5[7] = seam_cache1[seam_it][7];
        float v6_0 = seam_convert<float>(v5[0]);
        float v6_1 = seam_convert<float>(v5[1]);
        float v6_2 = seam_convert<float>(v5[2]);
        float v6_3 = seam_convert<float>(v5[3]);
        float v6_4 = seam_convert<float>(v5[4]);
        float v6_5 = seam_convert<float>(v5[5]);
        float v6_6 = seam_convert<float>(v5[6]);
        float v6_7 = seam_convert<float>(v5[7]);
        float v7_0 = (v4_0 + v6_0);
        float v7_1 = (v4_1 + v6_1);
        float v7_2 = (v4_2 + v6_2);
        float v7_3 = (v4_3 + v6_3);
        float v7_4 = (v4_4 + v6_4);
        float v7_5 = (v4_5 + v6_5);
        float v7_6 = (v4_6 + v6_6);
        float v7_7 = (v4_7 + v6_7);
        seam_bf16 v8_0 = seam_convert<seam_bf16>(v7_0);
        seam_bf16 v8_1 = seam_convert<seam_bf16>(v7_1);
        seam_bf16 v8_2 = seam_convert<seam_bf16>(v7_2);
        seam_bf16 v8_3 = seam_convert<seam_bf16>(v7_3);
        seam_bf16 v8_4 = seam_convert<seam_bf16>(v7_4);
        seam_bf16 v8_5 = seam_convert<seam_bf16>(v7_5);
        seam_bf16 v8_6 = seam_convert<seam_bf16>(v7_6);
        seam_bf16 v8_7 = seam_convert<seam_bf16>(v7_7);
        float v9_0 = seam_convert<float>(v8_0);
        float v9_1 = seam_convert<float>(v8_1);
        float v9_2 = seam_convert<float>(v8_2);
        float v9_3 = seam_convert<float>(v8_3);
        float v9_4 = seam_convert<float>(v8_4);
        float v9_5 = seam_convert<float>(v8_5);
        float v9_6 = seam_convert<float>(v8_6);
        float v9_7 = seam_convert<float>(v8_7);
        float v10_0 = (v9_0 * v9_0);
        float v10_1 = (v9_1 * v9_1);
        float v10_2 = (v9_2 * v9_2);
        float v10_3 = (v9_3 * v9_3);
        float v10_4 = (v9_4 * v9_4);
        float v10_5 = (v9_5 * v9_5);
        float v10_6 = (v9_6 * v9_6);
        float v10_7 = (v9_7 * v9_7);
        float v11_0 = (v2_0 + v10_0);
        float v11_1 = (v2_1 + v10_1);
        float v11_2 = (v2_2 + v10_2);
        float v11_3 = (v2_3 + v10_3);
        float v11_4 = (v2_4 + v10_4);
        float v11_5 = (v2_5 + v10_5);
        float v11_6 = (v2_6 + v10_6);
        float v11_7 = (v2_7 + v10_7);
        v2_0 = v11_0;
        v2_1 = v11_1;
        v2_2 = v11_2;
        v2_3 = v11_3;
        v2_4 = v11_4;
        v2_5 = v11_5;
        v2_6 = v11_6;
        v2_7 = v11_7;
      }
    }
    float v12_0 = seam_row_reduce_sum(seam_add(seam_add(seam_add(seam_add(seam_add(seam_add(seam_add(v2_0, v2_1), v2_2), v2_3), v2_4), v2_5), v2_6), v2_7), seam_row_ctx);
    SEAM_UNROLL(1)
    for (idx_t seam_it = 0; seam_it < seam_row_iterations; ++seam_it) {
      const idx_t k = seam_lane + seam_it * seam_lanes;
      if (k < seam_row_extent) {
        alignas(16) seam_bf16 v13[8];
        v13[0] = seam_cache0[seam_it][0];
        v13[1] = seam_cache0[seam_it][1];
        v13[2] = seam_cache0[seam_it][2];
        v13[3] = seam_cache0[seam_it][3];
        v13[4] = seam_cache0[seam_it][4];
        v13[5] = seam_cache0[seam_it][5];
        v13[6] = seam_cache0[seam_it][6];
        v13[7] = seam_cache0[seam_it][7];
        float v14_0 = seam_convert<float>(v13[0]);
        float v14_1 = seam_convert<float>(v13[1]);
        float v14_2 = seam_convert<float>(v13[2]);
        float v14_3 = seam_convert<float>(v13[3]);
        float v14_4 = seam_convert<float>(v13[4]);
        float v14_5 = seam_convert<float>(v13[5]);
        float v14_6 = seam_convert<float>(v13[6]);
        float v14_7 = seam_convert<float>(v13[7]);
        alignas(16) seam_bf16 v15[8];
        v15[0] = seam_cache1[seam_it][0];
        v15[1] = seam_cache1[seam_it][1];
        v15[2] = seam_cache1[seam_it][2];
        v15[3] = seam_cache1[seam_it][3];
        v15[4] = seam_cache1[seam_it][4];
        v15[5] = seam_cache1[seam_it][5];
        v15[6] = seam_cache1[seam_it][6];
        v15[7] = seam_cache1[seam_it][7];
        float v16_0 = seam_convert<float>(v15[0]);
        float v16_1 = seam_convert<float>(v15[1]);
        float v16_2 = seam_convert<float>(v15[2]);
        float v16_3 = seam_convert<float>(v15[3]);
        float v16_4 = seam_convert<float>(v15[4]);
        float v16_5 = seam_convert<float>(v15[5]);
        float v16_6 = seam_convert<float>(v15[6]);
        float v16_7 = seam_convert<float>(v15[7]);
        float v17_0 = (v14_0 + v16_0);
        float v17_1 = (v14_1 + v16_1);
        float v17_2 = (v14_2 + v16_2);
        float v17_3 = (v14_3 + v16_3);
        float v17_4 = (v14_4 + v16_4);
        float v17_5 = (v14_5 + v16_5);
        float v17_6 = (v14_6 + v16_6);
        float v17_7 = (v14_7 + v16_7);
        alignas(16) seam_bf16 v18[8];
        v18[0] = seam_convert<seam_bf16>(v17_0);
        v18[1] = seam_convert<seam_bf16>(v17_1);
        v18[2] = seam_convert<seam_bf16>(v17_2);
        v18[3] = seam_convert<seam_bf16>(v17_3);
        v18[4] = seam_convert<seam_bf16>(v17_4);
        v18[5] = seam_convert<seam_bf16>(v17_5);
        v18[6] = seam_convert<seam_bf16>(v17_6);
        v18[7] = seam_convert<seam_bf16>(v17_7);
        seam_store<8>(out0 + (((k * 8) + (r0 * ((idx_t)seam_k.v[8]))) + (r1 * ((idx_t)seam_k.v[7]))), v18);
        float v19_0 = seam_convert<float>(v18[0]);
        float v19_1 = seam_convert<float>(v18[1]);
        float v19_2 = seam_convert<float>(v18[2]);
        float v19_3 = seam_convert<float>(v18[3]);
        float v19_4 = seam_convert<float>(v18[4]);
        float v19_5 = seam_convert<float>(v18[5]);
        float v19_6 = seam_convert<float>(v18[6]);
        float v19_7 = seam_convert<float>(v18[7]);
        double v20_0 = seam_convert<double>(seam_k.e[0]);
        float v21_0 = seam_convert<float>(v20_0);
        float v22_0 = seam_div_approx(v12_0, v21_0);
        double v23_0 = seam_convert<double>(seam_k.e[1]);
        float v24_0 = seam_convert<float>(v23_0);
        float v25_0 = (v22_0 + v24_0);
        float v26_0 = seam_rsqrt_approx(v25_0);
        float v27_0 = (v19_0 * v26_0);
        float v27_1 = (v19_1 * v26_0);
        float v27_2 = (v19_2 * v26_0);
        float v27_3 = (v19_3 * v26_0);
        float v27_4 = (v19_4 * v26_0);
        float v27_5 = (v19_5 * v26_0);
        float v27_6 = (v19_6 * v26_0);
        float v27_7 = (v19_7 * v26_0);
        alignas(16) seam_bf16 v28[8];
        seam_load<8>(in1 + (k * 8), v28);
        float v29_0 = seam_convert<float>(v28[0]);
        float v29_1 = seam_convert<float>(v28[1]);
        float v29_2 = seam_convert<float>(v28[2]);
        float v29_3 = seam_convert<float>(v28[3]);
        float v29_4 = seam_convert<float>(v28[4]);
        float v29_5 = seam_convert<float>(v28[5]);
        float v29_6 = seam_convert<float>(v28[6]);
        float v29_7 = seam_convert<float>(v28[7]);
        float v30_0 = (v27_0 * v29_0);
        float v30_1 = (v27_1 * v29_1);
        float v30_2 = (v27_2 * v29_2);
        float v30_3 = (v27_3 * v29_3);
        float v30_4 = (v27_4 * v29_4);
        float v30_5 = (v27_5 * v29_5);
        float v30_6 = (v27_6 * v29_6);
        float v30_7 = (v27_7 * v29_7);
        alignas(16) seam_bf16 v31[8];
        v31[0] = seam_convert<seam_bf16>(v30_0);
        v31[1] = seam_convert<seam_bf16>(v30_1);
        v31[2] = seam_convert<seam_bf16>(v30_2);
        v31[3] = seam_convert<seam_bf16>(v30_3);
        v31[4] = seam_convert<seam_bf16>(v30_4);
        v31[5] = seam_convert<seam_bf16>(v30_5);
        v31[6] = seam_convert<seam_bf16>(v30_6);
        v31[7] = seam_convert<seam_bf16>(v30_7);
        seam_store<8>(out1 + (((k * 8) + (r0 * ((idx_t)seam_k.v[10]))) + (r1 * ((idx_t)seam_k.v[9]))), v31);
      }
    }
  }
}

// group 9: linear, run by a library routine (no generated code)

// group 10: linear, run by a library routine (no generated code)

// group 11: 1 chunked output(s), lanes 8
// launch: block 128, chunks/thread 1, grid uncapped, vectors <= 16 B, branch-free, rows tiled by 2 (32 in runs), copies <= 16, uniform branches, reused loads kept in L2
#include "seam_device.cuh"

struct seam_pointwise_f65ed5ae9d56b153_consts { long long v[4]; seam_divisor d[2]; };
SEAM_KERNEL void __launch_bounds__(128) seam_pointwise_f65ed5ae9d56b153(const seam_bf16* __restrict__ in0, const seam_bf16* __restrict__ in1, seam_bf16* __restrict__ out0, const seam_pointwise_f65ed5ae9d56b153_consts seam_k) {
  typedef int idx_t;
  for (idx_t g = (idx_t)blockIdx.x * blockDim.x + threadIdx.x; g < ((idx_t)seam_k.v[0]); g += (idx_t)gridDim.x * blockDim.x) {
    if (g < ((idx_t)seam_k.v[1])) {
      const idx_t chunk0 = g - 0;
      const idx_t q0 = seam_fast_mod(chunk0, seam_k.d[0]);
      const idx_t i1 = seam_fast_div(chunk0, seam_k.d[1]);
      alignas(16) seam_bf16 v3[8];
      seam_load<8>(in0 + ((i1 * ((idx_t)seam_k.v[2])) + (q0 * 8)), v3);
      alignas(16) seam_bf16 v7[8];
      seam_load<8>(in1 + ((i1 * ((idx_t)seam_k.v[3])) + (q0 * 8)), v7);
      float v4_0 = seam_convert<float>(v3[0]);
      float v4_1 = seam_convert<float>(v3[1]);
      float v4_2 = seam_convert<float>(v3[2]);
      float v4_3 = seam_convert<float>(v3[3]);
      float v4_4 = seam_convert<float>(v3[4]);
      float v4_5 = seam_convert<float>(v3[5]);
      float v4_6 = seam_convert<float>(v3[6]);
      float v4_7 = seam_convert<float>(v3[7]);
      float v5_0 = seam_sigmoid_approx(v4_0);
      float v5_1 = seam_sigmoid_approx(v4_1);
      float v5_2 = seam_sigmoid_approx(v4_2);
      float v5_3 = seam_sigmoid_approx(v4_3);
      float v5_4 = seam_sigmoid_approx(v4_4);
      float v5_5 = seam_sigmoid_approx(v4_5);
      float v5_6 = seam_sigmoid_approx(v4_6);
      float v5_7 = seam_sigmoid_approx(v4_7);
      float v6_0 = (v4_0 * v5_0);
      float v6_1 = (v4_1 * v5_1);
      float v6_2 = (v4_2 * v5_2);
      float v6_3 = (v4_3 * v5_3);
      float v6_4 = (v4_4 * v5_4);
      float v6_5 = (v4_5 * v5_5);
      float v6_6 = (v4_6 * v5_6);
      float v6_7 = (v4_7 * v5_7);
      float v8_0 = seam_convert<float>(v7[0]);
      float v8_1 = seam_convert<float>(v7[1]);
      float v8_2 = seam_convert<float>(v7[2]);
      float v8_3 = seam_convert<float>(v7[3]);
      float v8_4 = seam_convert<float>(v7[4]);
      float v8_5 = seam_convert<float>(v7[5]);
      float v8_6 = seam_convert<float>(v7[6]);
      float v8_7 = seam_convert<float>(v7[7]);
      float v9_0 = (v6_0 * v8_0);
      float v9_1 = (v6_1 * v8_1);
      float v9_2 = (v6_2 * v8_2);
      float v9_3 = (v6_3 * v8_3);
      float v9_4 = (v6_4 * v8_4);
      float v9_5 = (v6_5 * v8_5);
      float v9_6 = (v6_6 * v8_6);
      float v9_7 = (v6_7 * v8_7);
      alignas(16) seam_bf16 v10[8];
      v10[0] = seam_convert<seam_bf16>(v9_0);
      v10[1] = seam_convert<seam_bf16>(v9_1);
      v10[2] = seam_convert<seam_bf16>(v9_2);
      v10[3] = seam_convert<seam_bf16>(v9_3);
      v10[4] = seam_convert<seam_bf16>(v9_4);
      v10[5] = seam_convert<seam_bf16>(v9_5);
      v10[6] = seam_convert<seam_bf16>(v9_6);
      v10[7] = seam_convert<seam_bf16>(v9_7);
      seam_store<8>(out0 + (chunk0 * 8), v10);
    }
  }
}

// group 12: linear, run by a library routine (no generated code)

// group 13: 1 chunked output(s), lanes 8
// launch: block 128, chunks/thread 1, grid uncapped, vectors <= 16 B, branch-free, rows tiled by 2 (32 in runs), copies <= 16, uniform branches, reused loads kept in L2
#include "seam_device.cuh"

struct seam_pointwise_c56fb3e464a56b5a_consts { long long v[4]; seam_divisor d[2]; };
SEAM_KERNEL void __launch_bounds__(128) seam_pointwise_c56fb3e464a56b5a(const seam_bf16* __restrict__ in0, const seam_bf16* __restrict__ in1, seam_bf16* __restrict__ out0, const seam_pointwise_c56fb3e464a56b5a_consts seam_k) {
  typedef int idx_t;
  for (idx_t g = (idx_t)blockIdx.x * blockDim.x + threadIdx.x; g < ((idx_t)seam_k.v[0]); g += (idx_t)gridDim.x * blockDim.x) {
    if (g < ((idx_t)seam_k.v[1])) {
      const idx_t chunk0 = g - 0;
      const idx_t q0 = seam_fast_mod(chunk0, seam_k.d[0]);
      const idx_t i1 = seam_fast_div(chunk0, seam_k.d[1]);
      alignas(16) seam_bf16 v3[8];
      seam_load<8>(in0 + ((i1 * ((idx_t)seam_k.v[2])) + (q0 * 8)), v3);
      alignas(16) seam_bf16 v5[8];
      seam_load<8>(in1 + ((i1 * ((idx_t)seam_k.v[3])) + (q0 * 8)), v5);
      float v4_0 = seam_convert<float>(v3[0]);
      float v4_1 = seam_convert<float>(v3[1]);
      float v4_2 = seam_convert<float>(v3[2]);
      float v4_3 = seam_convert<float>(v3[3]);
      float v4_4 = seam_convert<float>(v3[4]);
      float v4_5 = seam_convert<float>(v3[5]);
      float v4_6 = seam_convert<float>(v3[6]);
      float v4_7 = seam_convert<float>(v3[7]);
      float v6_0 = seam_convert<float>(v5[0]);
      float v6_1 = seam_convert<float>(v5[1]);
      float v6_2 = seam_convert<float>(v5[2]);
      float v6_3 = seam_convert<float>(v5[3]);
      float v6_4 = seam_convert<float>(v5[4]);
      float v6_5 = seam_convert<float>(v5[5]);
      float v6_6 = seam_convert<float>(v5[6]);
      float v6_7 = seam_convert<float>(v5[7]);
      float v7_0 = (v4_0 + v6_0);
      float v7_1 = (v4_1 + v6_1);
      float v7_2 = (v4_2 + v6_2);
      float v7_3 = (v4_3 + v6_3);
      float v7_4 = (v4_4 + v6_4);
      float v7_5 = (v4_5 + v6_5);
      float v7_6 = (v4_6 + v6_6);
      float v7_7 = (v4_7 + v6_7);
      alignas(16) seam_bf16 v8[8];
      v8[0] = seam_convert<seam_bf16>(v7_0);
      v8[1] = seam_convert<seam_bf16>(v7_1);
      v8[2] = seam_convert<seam_bf16>(v7_2);
      v8[3] = seam_convert<seam_bf16>(v7_3);
      v8[4] = seam_convert<seam_bf16>(v7_4);
      v8[5] = seam_convert<seam_bf16>(v7_5);
      v8[6] = seam_convert<seam_bf16>(v7_6);
      v8[7] = seam_convert<seam_bf16>(v7_7);
      seam_store<8>(out0 + (chunk0 * 8), v8);
    }
  }
}
