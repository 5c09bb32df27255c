// 14 kernel(s) for fusion transformer_1_layers_b1_t64

// group 0: row kernel, 64 rows of 256 reduced elements, 1 rows x 256 threads per block
// launch: row kernel: block 256 (1 rows x 256 threads), grid 64 blocks, no register cap, lanes contiguous
#include "seam_device.cuh"

SEAM_KERNEL void __launch_bounds__(256) transformer_1_layers_b1_t64_k0(const seam_bf16* __restrict__ in0, const seam_bf16* __restrict__ in1, seam_bf16* __restrict__ out0) {
  typedef int idx_t;
  __shared__ __align__(16) unsigned char seam_scratch[2048];
  const seam_rows<1, 256, true> seam_row_ctx(seam_scratch);
  const int seam_lane = seam_row_ctx.lane;
  const int seam_lanes = 256;
  for (long long seam_first_row = (long long)blockIdx.x * 1; seam_first_row < 64LL; seam_first_row += (long long)gridDim.x * 1) {
    const idx_t row = (idx_t)(seam_first_row + seam_row_ctx.slot);
    const idx_t seam_row_extent = row < 64 ? 256 : 0;
    (void)seam_row_extent;
    float v2_0 = seam_convert<float>(((seam_i64)0LL));
    for (idx_t k3 = seam_lane; k3 < seam_row_extent; k3 += seam_lanes) {
      seam_bf16 v5_0 = *(in0 + ((row * 256) + k3));
      float v6_0 = seam_convert<float>(v5_0);
      float v7_0 = (v6_0 * v6_0);
      float v8_0 = (v2_0 + v7_0);
      v2_0 = v8_0;
    }
    float v9_0 = seam_row_reduce_sum(v2_0, seam_row_ctx);
    for (idx_t k10 = seam_lane; k10 < seam_row_extent; k10 += seam_lanes) {
      seam_bf16 v12_0 = *(in0 + ((row * 256) + k10));
      float v13_0 = seam_convert<float>(v12_0);
      double v14_0 = seam_convert<double>(256.0);
      float v15_0 = seam_convert<float>(v14_0);
      float v16_0 = (v9_0 / v15_0);
      double v17_0 = seam_convert<double>(1e-05);
      float v18_0 = seam_convert<float>(v17_0);
      float v19_0 = (v16_0 + v18_0);
      float v20_0 = seam_rsqrt(v19_0);
      float v21_0 = (v13_0 * v20_0);
      seam_bf16 v22_0 = *(in1 + k10);
      float v23_0 = seam_convert<float>(v22_0);
      float v24_0 = (v21_0 * v23_0);
      seam_bf16 v25_0 = seam_convert<seam_bf16>(v24_0);
      out0[(k10 + (row * 256))] = v25_0;
    }
  }
}

// group 1: linear, run by a library routine (no generated code)

// group 2: 4 chunked output(s), lanes 8 x4 copies 8 1 x4 copies 16 x8 copies
// launch: block 128, chunks/thread 1, grid uncapped, vectors <= 16 B, branch-free, rows tiled by 2 (32 in runs), copies <= 16, uniform branches, reused loads kept in L2
#include "seam_device.cuh"

SEAM_KERNEL void __launch_bounds__(128) transformer_1_layers_b1_t64_k2(const seam_bf16* __restrict__ in0, const seam_bf16* __restrict__ in1, const seam_bf16* __restrict__ in2, seam_bf16* __restrict__ out0, seam_bf16* __restrict__ out1, seam_bf16* __restrict__ out2, bool* __restrict__ out3) {
  typedef int idx_t;
  for (idx_t g = (idx_t)blockIdx.x * blockDim.x + threadIdx.x; g < 6912; g += (idx_t)gridDim.x * blockDim.x) {
    if (g < 512) {
      const idx_t chunk0 = g - 0;
      const idx_t q0 = (chunk0 % 4);
      const idx_t i1 = ((chunk0 / 4) % 64);
      const idx_t i2 = (chunk0 / 256);
      alignas(16) seam_bf16 v4[8];
      seam_load<8>(in2 + ((i1 * 384) + (((q0 * 8) + 160) + (i2 * 192))), v4);
      const idx_t e5 = (((q0 * 8) + (i1 * 32)) + ((i2 * 4) * 2048));
      seam_store<8>(out0 + e5, v4);
      seam_store<8>(out0 + (e5 + 2048), v4);
      seam_store<8>(out0 + (e5 + 4096), v4);
      seam_store<8>(out0 + (e5 + 6144), v4);
    } else if (g < 2560) {
      const idx_t chunk1 = g - 512;
      const idx_t q6 = (chunk1 % 4);
      const idx_t i7 = ((chunk1 / 4) % 2);
      const idx_t i8 = ((chunk1 / 8) % 8);
      const idx_t i10 = (chunk1 / 64);
      alignas(16) seam_bf16 v11[8];
      seam_load<8>(in2 + (((i7 + (i10 * 2)) * 384) + (((q6 * 8) + ((i8 % 4) * 32)) + ((i8 / 4) * 192))), v11);
      alignas(16) seam_bf16 v13[8];
      seam_load_keep<8>(in0 + (((i7 + (i10 * 2)) * 32) + (q6 * 8)), v13);
      alignas(16) seam_bf16 v20[8];
      seam_load<8>(in2 + ((q6 * 8) < 16 ? (((i7 + (i10 * 2)) * 384) + ((((q6 * 8) + 16) + ((i8 % 4) * 32)) + ((i8 / 4) * 192))) : (((i7 + (i10 * 2)) * 384) + ((((q6 * 8) + -16) + ((i8 % 4) * 32)) + ((i8 / 4) * 192)))), v20);
      alignas(16) seam_bf16 v24[8];
      seam_load_keep<8>(in1 + (((i7 + (i10 * 2)) * 32) + (q6 * 8)), v24);
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
      bool v22_0 = (q6 * 8) < 16;
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
      seam_store<8>(out1 + (((q6 * 8) + ((i7 + (i10 * 2)) * 32)) + (i8 * 2048)), v28);
    } else if (g < 6656) {
      const idx_t chunk2 = g - 2560;
      const idx_t i29 = (chunk2 % 64);
      const idx_t i30 = ((chunk2 / 64) % 32);
      const idx_t i31 = (chunk2 / 2048);
      seam_bf16 v33_0 = *(in2 + ((i29 * 384) + ((i30 + 128) + (i31 * 192))));
      seam_bf16 v35_0 = *(in0 + ((i29 * 32) + i30));
      seam_bf16 v42_0 = *(in2 + (i30 < 16 ? ((i29 * 384) + ((i30 + 144) + (i31 * 192))) : ((i29 * 384) + ((i30 + 112) + (i31 * 192)))));
      seam_bf16 v46_0 = *(in1 + ((i29 * 32) + i30));
      const idx_t e51 = ((i29 + (i30 * 64)) + ((i31 * 4) * 2048));
      float v34_0 = seam_convert<float>(v33_0);
      float v36_0 = seam_convert<float>(v35_0);
      float v37_0 = (v34_0 * v36_0);
      float v40_0 = seam_convert<float>(v42_0);
      float v41_0 = (-v40_0);
      bool v44_0 = i30 < 16;
      float v45_0 = (v44_0 ? v41_0 : v40_0);
      float v47_0 = seam_convert<float>(v46_0);
      float v48_0 = (v45_0 * v47_0);
      float v49_0 = (v37_0 + v48_0);
      seam_bf16 v50_0 = seam_convert<seam_bf16>(v49_0);
      out2[e51] = v50_0;
      out2[(e51 + 2048)] = v50_0;
      out2[(e51 + 4096)] = v50_0;
      out2[(e51 + 6144)] = v50_0;
    } else if (g < 6912) {
      const idx_t chunk3 = g - 6656;
      const idx_t q52 = (chunk3 % 4);
      const idx_t i53 = (chunk3 / 4);
      const idx_t e59 = ((q52 * 16) + (i53 * 64));
      seam_i64 v56_0 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)(i53) * (seam_i64)((seam_i64)1LL));
      seam_i64 v57_0 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)((q52 * 16) + 0) * (seam_i64)((seam_i64)1LL));
      seam_i64 v57_1 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)((q52 * 16) + 1) * (seam_i64)((seam_i64)1LL));
      seam_i64 v57_2 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)((q52 * 16) + 2) * (seam_i64)((seam_i64)1LL));
      seam_i64 v57_3 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)((q52 * 16) + 3) * (seam_i64)((seam_i64)1LL));
      seam_i64 v57_4 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)((q52 * 16) + 4) * (seam_i64)((seam_i64)1LL));
      seam_i64 v57_5 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)((q52 * 16) + 5) * (seam_i64)((seam_i64)1LL));
      seam_i64 v57_6 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)((q52 * 16) + 6) * (seam_i64)((seam_i64)1LL));
      seam_i64 v57_7 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)((q52 * 16) + 7) * (seam_i64)((seam_i64)1LL));
      seam_i64 v57_8 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)((q52 * 16) + 8) * (seam_i64)((seam_i64)1LL));
      seam_i64 v57_9 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)((q52 * 16) + 9) * (seam_i64)((seam_i64)1LL));
      seam_i64 v57_10 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)((q52 * 16) + 10) * (seam_i64)((seam_i64)1LL));
      seam_i64 v57_11 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)((q52 * 16) + 11) * (seam_i64)((seam_i64)1LL));
      seam_i64 v57_12 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)((q52 * 16) + 12) * (seam_i64)((seam_i64)1LL));
      seam_i64 v57_13 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)((q52 * 16) + 13) * (seam_i64)((seam_i64)1LL));
      seam_i64 v57_14 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)((q52 * 16) + 14) * (seam_i64)((seam_i64)1LL));
      seam_i64 v57_15 = seam_convert<seam_i64>((seam_i64)((seam_i64)0LL) + (seam_i64)((q52 * 16) + 15) * (seam_i64)((seam_i64)1LL));
      alignas(16) bool v58[16];
      v58[0] = seam_ge(v56_0, v57_0);
      v58[1] = seam_ge(v56_0, v57_1);
      v58[2] = seam_ge(v56_0, v57_2);
      v58[3] = seam_ge(v56_0, v57_3);
      v58[4] = seam_ge(v56_0, v57_4);
      v58[5] = seam_ge(v56_0, v57_5);
      v58[6] = seam_ge(v56_0, v57_6);
      v58[7] = seam_ge(v56_0, v57_7);
      v58[8] = seam_ge(v56_0, v57_8);
      v58[9] = seam_ge(v56_0, v57_9);
      v58[10] = seam_ge(v56_0, v57_10);
      v58[11] = seam_ge(v56_0, v57_11);
      v58[12] = seam_ge(v56_0, v57_12);
      v58[13] = seam_ge(v56_0, v57_13);
      v58[14] = seam_ge(v56_0, v57_14);
      v58[15] = seam_ge(v56_0, v57_15);
      seam_store<16>(out3 + e59, v58);
      seam_store<16>(out3 + (e59 + 4096), v58);
      seam_store<16>(out3 + (e59 + 8192), v58);
      seam_store<16>(out3 + (e59 + 12288), v58);
      seam_store<16>(out3 + (e59 + 16384), v58);
      seam_store<16>(out3 + (e59 + 20480), v58);
      seam_store<16>(out3 + (e59 + 24576), v58);
      seam_store<16>(out3 + (e59 + 28672), v58);
    }
  }
}

// group 3: matmul, run by a library routine (no generated code)

// group 4: row kernel, 512 rows of 64 reduced elements, 4 rows x 64 threads per block
// launch: row kernel: block 256 (4 rows x 64 threads), grid 128 blocks, no register cap, lanes contiguous
#include "seam_device.cuh"

SEAM_KERNEL void __launch_bounds__(256) transformer_1_layers_b1_t64_k4(const seam_bf16* __restrict__ in0, const bool* __restrict__ in1, seam_bf16* __restrict__ out0) {
  typedef int idx_t;
  __shared__ __align__(16) unsigned char seam_scratch[2048];
  const seam_rows<4, 64, true> seam_row_ctx(seam_scratch);
  const int seam_lane = seam_row_ctx.lane;
  const int seam_lanes = 64;
  for (long long seam_first_row = (long long)blockIdx.x * 4; seam_first_row < 512LL; seam_first_row += (long long)gridDim.x * 4) {
    const idx_t row = (idx_t)(seam_first_row + seam_row_ctx.slot);
    const idx_t seam_row_extent = row < 512 ? 64 : 0;
    (void)seam_row_extent;
    const idx_t r0 = (row % 64);
    const idx_t r1 = (row / 64);
    float v3_0 = seam_convert<float>(seam_double_from_bits(18442240474082181120ULL));
    for (idx_t k4 = seam_lane; k4 < seam_row_extent; k4 += seam_lanes) {
      bool v6_0 = *(in1 + (((r1 * 4096) + (r0 * 64)) + k4));
      seam_bf16 v7_0 = *(in0 + (((r1 * 4096) + (r0 * 64)) + k4));
      float v8_0 = seam_convert<float>(v7_0);
      double v9_0 = seam_convert<double>(0.17677669529663687);
      float v10_0 = seam_convert<float>(v9_0);
      float v11_0 = (v8_0 * v10_0);
      double v12_0 = seam_convert<double>(seam_double_from_bits(18442240474082181120ULL));
      float v13_0 = seam_convert<float>(v12_0);
      float v14_0 = (v6_0 ? v11_0 : v13_0);
      float v15_0 = seam_maximum(v3_0, v14_0);
      v3_0 = v15_0;
    }
    float v16_0 = seam_row_reduce_max(v3_0, seam_row_ctx);
    float v17_0 = seam_convert<float>(((seam_i64)0LL));
    for (idx_t k18 = seam_lane; k18 < seam_row_extent; k18 += seam_lanes) {
      bool v20_0 = *(in1 + (((r1 * 4096) + (r0 * 64)) + k18));
      seam_bf16 v21_0 = *(in0 + (((r1 * 4096) + (r0 * 64)) + k18));
      float v22_0 = seam_convert<float>(v21_0);
      double v23_0 = seam_convert<double>(0.17677669529663687);
      float v24_0 = seam_convert<float>(v23_0);
      float v25_0 = (v22_0 * v24_0);
      double v26_0 = seam_convert<double>(seam_double_from_bits(18442240474082181120ULL));
      float v27_0 = seam_convert<float>(v26_0);
      float v28_0 = (v20_0 ? v25_0 : v27_0);
      float v29_0 = (v28_0 - v16_0);
      float v30_0 = seam_exp(v29_0);
      float v31_0 = (v17_0 + v30_0);
      v17_0 = v31_0;
    }
    float v32_0 = seam_row_reduce_sum(v17_0, seam_row_ctx);
    for (idx_t k33 = seam_lane; k33 < seam_row_extent; k33 += seam_lanes) {
      bool v35_0 = *(in1 + (((r1 * 4096) + (r0 * 64)) + k33));
      seam_bf16 v36_0 = *(in0 + (((r1 * 4096) + (r0 * 64)) + k33));
      float v37_0 = seam_convert<float>(v36_0);
      double v38_0 = seam_convert<double>(0.17677669529663687);
      float v39_0 = seam_convert<float>(v38_0);
      float v40_0 = (v37_0 * v39_0);
      double v41_0 = seam_convert<double>(seam_double_from_bits(18442240474082181120ULL));
      float v42_0 = seam_convert<float>(v41_0);
      float v43_0 = (v35_0 ? v40_0 : v42_0);
      float v44_0 = (v43_0 - v16_0);
      float v45_0 = seam_exp(v44_0);
      float v46_0 = (v45_0 / v32_0);
      seam_bf16 v47_0 = seam_convert<seam_bf16>(v46_0);
      out0[((k33 + (r0 * 64)) + (r1 * 4096))] = v47_0;
    }
  }
}

// group 5: matmul, run by a library routine (no generated code)

// group 6: 1 chunked output(s), lanes 8
// launch: block 128, chunks/thread 1, grid uncapped, vectors <= 16 B, branch-free, rows tiled by 2 (32 in runs), copies <= 16, uniform branches, reused loads kept in L2
#include "seam_device.cuh"

SEAM_KERNEL void __launch_bounds__(128) transformer_1_layers_b1_t64_k6(const seam_bf16* __restrict__ in0, seam_bf16* __restrict__ out0) {
  typedef int idx_t;
  for (idx_t g = (idx_t)blockIdx.x * blockDim.x + threadIdx.x; g < 2048; g += (idx_t)gridDim.x * blockDim.x) {
    if (g < 2048) {
      const idx_t chunk0 = g - 0;
      const idx_t q0 = (chunk0 % 32);
      const idx_t i1 = (chunk0 / 32);
      alignas(16) seam_bf16 v3[8];
      seam_load<8>(in0 + ((((q0 / 4) * 2048) + (i1 * 32)) + ((q0 * 8) % 32)), v3);
      seam_store<8>(out0 + (chunk0 * 8), v3);
    }
  }
}

// group 7: linear, run by a library routine (no generated code)

// group 8: row kernel, 64 rows of 256 reduced elements, 1 rows x 256 threads per block
// launch: row kernel: block 256 (1 rows x 256 threads), grid 64 blocks, no register cap, lanes contiguous
#include "seam_device.cuh"

SEAM_KERNEL void __launch_bounds__(256) transformer_1_layers_b1_t64_k8(const seam_bf16* __restrict__ in0, const seam_bf16* __restrict__ in1, const seam_bf16* __restrict__ in2, seam_bf16* __restrict__ out0, seam_bf16* __restrict__ out1) {
  typedef int idx_t;
  __shared__ __align__(16) unsigned char seam_scratch[2048];
  const seam_rows<1, 256, true> seam_row_ctx(seam_scratch);
  const int seam_lane = seam_row_ctx.lane;
  const int seam_lanes = 256;
  for (long long seam_first_row = (long long)blockIdx.x * 1; seam_first_row < 64LL; seam_first_row += (long long)gridDim.x * 1) {
    const idx_t row = (idx_t)(seam_first_row + seam_row_ctx.slot);
    const idx_t seam_row_extent = row < 64 ? 256 : 0;
    (void)seam_row_extent;
    float v2_0 = seam_convert<float>(((seam_i64)0LL));
    for (idx_t k3 = seam_lane; k3 < seam_row_extent; k3 += seam_lanes) {
      seam_bf16 v5_0 = *(in0 + ((row * 256) + k3));
      float v6_0 = seam_convert<float>(v5_0);
      seam_bf16 v7_0 = *(in2 + ((row * 256) + k3));
      float v8_0 = seam_convert<float>(v7_0);
      float v9_0 = (v6_0 + v8_0);
      seam_bf16 v10_0 = seam_convert<seam_bf16>(v9_0);
      float v11_0 = seam_convert<float>(v10_0);
      float v12_0 = (v11_0 * v11_0);
      float v13_0 = (v2_0 + v12_0);
      v2_0 = v13_0;
    }
    float v14_0 = seam_row_reduce_sum(v2_0, seam_row_ctx);
    for (idx_t k15 = seam_lane; k15 < seam_row_extent; k15 += seam_lanes) {
      seam_bf16 v17_0 = *(in0 + ((row * 256) + k15));
      float v18_0 = seam_convert<float>(v17_0);
      seam_bf16 v19_0 = *(in2 + ((row * 256) + k15));
      float v20_0 = seam_convert<float>(v19_0);
      float v21_0 = (v18_0 + v20_0);
      seam_bf16 v22_0 = seam_convert<seam_bf16>(v21_0);
      out0[(k15 + (row * 256))] = v22_0;
      float v23_0 = seam_convert<float>(v22_0);
      double v24_0 = seam_convert<double>(256.0);
      float v25_0 = seam_convert<float>(v24_0);
      float v26_0 = (v14_0 / v25_0);
      double v27_0 = seam_convert<double>(1e-05);
      float v28_0 = seam_convert<float>(v27_0);
      float v29_0 = (v26_0 + v28_0);
      float v30_0 = seam_rsqrt(v29_0);
      float v31_0 = (v23_0 * v30_0);
      seam_bf16 v32_0 = *(in1 + k15);
      float v33_0 = seam_convert<float>(v32_0);
      float v34_0 = (v31_0 * v33_0);
      seam_bf16 v35_0 = seam_convert<seam_bf16>(v34_0);
      out1[(k15 + (row * 256))] = v35_0;
    }
  }
}

// group 9: linear, run by a library routine (no generated code)

// group 10: linear, run by a library routine (no generated code)

// group 11: 1 chunked output(s), lanes 8
// launch: block 128, chunks/thread 1, grid uncapped, vectors <= 16 B, branch-free, rows tiled by 2 (32 in runs), copies <= 16, uniform branches, reused loads kept in L2
#include "seam_device.cuh"

SEAM_KERNEL void __launch_bounds__(128) transformer_1_layers_b1_t64_k11(const seam_bf16* __restrict__ in0, const seam_bf16* __restrict__ in1, seam_bf16* __restrict__ out0) {
  typedef int idx_t;
  for (idx_t g = (idx_t)blockIdx.x * blockDim.x + threadIdx.x; g < 5632; g += (idx_t)gridDim.x * blockDim.x) {
    if (g < 5632) {
      const idx_t chunk0 = g - 0;
      const idx_t q0 = (chunk0 % 88);
      const idx_t i1 = (chunk0 / 88);
      alignas(16) seam_bf16 v3[8];
      seam_load<8>(in0 + ((i1 * 704) + (q0 * 8)), v3);
      alignas(16) seam_bf16 v7[8];
      seam_load<8>(in1 + ((i1 * 704) + (q0 * 8)), v7);
      float v4_0 = seam_convert<float>(v3[0]);
      float v4_1 = seam_convert<float>(v3[1]);
      float v4_2 = seam_convert<float>(v3[2]);
      float v4_3 = seam_convert<float>(v3[3]);
      float v4_4 = seam_convert<float>(v3[4]);
      float v4_5 = seam_convert<float>(v3[5]);
      float v4_6 = seam_convert<float>(v3[6]);
      float v4_7 = seam_convert<float>(v3[7]);
      float v5_0 = seam_sigmoid(v4_0);
      float v5_1 = seam_sigmoid(v4_1);
      float v5_2 = seam_sigmoid(v4_2);
      float v5_3 = seam_sigmoid(v4_3);
      float v5_4 = seam_sigmoid(v4_4);
      float v5_5 = seam_sigmoid(v4_5);
      float v5_6 = seam_sigmoid(v4_6);
      float v5_7 = seam_sigmoid(v4_7);
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

SEAM_KERNEL void __launch_bounds__(128) transformer_1_layers_b1_t64_k13(const seam_bf16* __restrict__ in0, const seam_bf16* __restrict__ in1, seam_bf16* __restrict__ out0) {
  typedef int idx_t;
  for (idx_t g = (idx_t)blockIdx.x * blockDim.x + threadIdx.x; g < 2048; g += (idx_t)gridDim.x * blockDim.x) {
    if (g < 2048) {
      const idx_t chunk0 = g - 0;
      const idx_t q0 = (chunk0 % 32);
      const idx_t i1 = (chunk0 / 32);
      alignas(16) seam_bf16 v3[8];
      seam_load<8>(in0 + ((i1 * 256) + (q0 * 8)), v3);
      alignas(16) seam_bf16 v5[8];
      seam_load<8>(in1 + ((i1 * 256) + (q0 * 8)), v5);
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
