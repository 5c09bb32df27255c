// What a plain copy reaches at the sizes of the RoPE rows (64 MB - 2 GB moved): the driver's device-to-device
// copy next to hand-written copy kernels of several launch shapes. It answers whether the ~4 us that every
// forward row and the driver's copy lose at 30-80 us (bench/RESULTS.md, session 6) is a launch shape's or
// the machine's. Not part of the CMake build (the project is C++ only): on the GPU machine
//   nvcc -O3 -arch=sm_90 -o copy_probe bench/experiments/copy_probe.cu -lcuda && ./copy_probe
// Method: 3 buffer pairs rotated, 5 warm-up launches, the median of 50 launches each between its own
// events ("single"), and the events around 50 back-to-back launches divided by 50 ("stream").
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#include "probe_check.cuh"


// One 16-byte vector per thread, a thread per vector: seam's forward launch shape.
__global__ void copy_one(const uint4* __restrict__ src, uint4* __restrict__ dst, long n) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = src[i];
}

// `per` vectors from `base`, a block apart, all loads before the stores.
template <int per>
__device__ void copy_vectors(const uint4* __restrict__ src, uint4* __restrict__ dst, long n, long base) {
  uint4 v[per];
#pragma unroll
  for (int k = 0; k < per; ++k) {
    long i = base + (long)k * blockDim.x;
    if (i < n) v[k] = src[i];
  }
#pragma unroll
  for (int k = 0; k < per; ++k) {
    long i = base + (long)k * blockDim.x;
    if (i < n) dst[i] = v[k];
  }
}

// `per` vectors per thread.
template <int per>
__global__ void copy_many(const uint4* __restrict__ src, uint4* __restrict__ dst, long n) {
  copy_vectors<per>(src, dst, n, (long)blockIdx.x * blockDim.x * per + threadIdx.x);
}

// A grid that fits the machine at once, each thread striding over the whole tensor, `per` vectors a step.
template <int per>
__global__ void copy_persistent(const uint4* __restrict__ src, uint4* __restrict__ dst, long n) {
  const long stride = (long)gridDim.x * blockDim.x * per;
  for (long base = (long)blockIdx.x * blockDim.x * per + threadIdx.x; base < n; base += stride)
    copy_vectors<per>(src, dst, n, base);
}

// Random-looking data (never time on constants: METHOD.md).
__global__ void fill(uint32_t* p, long n, uint32_t seed) {
  for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
    uint32_t x = static_cast<uint32_t>(i) * 2654435761u ^ seed;
    x ^= x >> 15;
    x *= 2246822519u;
    p[i] = x ^ (x >> 13);
  }
}

struct Result {
  float single_us, stream_us;
};

Result time_it(const std::function<void(int, cudaStream_t)>& launch, cudaStream_t s) {
  const int iterations = 50;
  for (int i = 0; i < 5; ++i) launch(i % 3, s);
  std::vector<cudaEvent_t> ev(2 * iterations + 2);
  for (auto& e : ev) CHECK(cudaEventCreate(&e));
  for (int i = 0; i < iterations; ++i) {
    CHECK(cudaEventRecord(ev[2 * i], s));
    launch(i % 3, s);
    CHECK(cudaEventRecord(ev[2 * i + 1], s));
  }
  CHECK(cudaEventRecord(ev[2 * iterations], s));
  for (int i = 0; i < iterations; ++i) launch(i % 3, s);
  CHECK(cudaEventRecord(ev[2 * iterations + 1], s));
  CHECK(cudaGetLastError());
  CHECK(cudaStreamSynchronize(s));
  std::vector<float> single;
  for (int i = 0; i < iterations; ++i) {
    float ms;
    CHECK(cudaEventElapsedTime(&ms, ev[2 * i], ev[2 * i + 1]));
    single.push_back(ms * 1e3f);
  }
  std::sort(single.begin(), single.end());
  float all;
  CHECK(cudaEventElapsedTime(&all, ev[2 * iterations], ev[2 * iterations + 1]));
  for (auto& e : ev) CHECK(cudaEventDestroy(e));
  return {single[iterations / 2], all * 1e3f / iterations};
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const int sms = prop.multiProcessorCount;
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const size_t max_half = size_t{1} << 30;  // 1 GiB read + 1 GiB written
  uint4 *src[3], *dst[3];
  for (int b = 0; b < 3; ++b) {
    CHECK(cudaMalloc(&src[b], max_half));
    CHECK(cudaMalloc(&dst[b], max_half));
    fill<<<sms * 8, 256>>>(reinterpret_cast<uint32_t*>(src[b]), static_cast<long>(max_half / 4), 17u + b);
    CHECK(cudaGetLastError());
  }
  // The copy rate of the largest size by the driver's copy: the floor's rate, as in bench_rope_gpu.
  Result big = time_it(
      [&](int b, cudaStream_t st) {
        CHECK(cudaMemcpyAsync(dst[b], src[b], max_half, cudaMemcpyDeviceToDevice, st));
      },
      s);
  const double rate = 2.0 * max_half / (big.single_us * 1e-6);
  std::printf("%s, %d SMs, copy rate %.3f TB/s (2 GiB moved, single launches)\n\n", prop.name, sms,
              rate / 1e12);
  std::printf("| MB moved | floor us | variant | single us | %% of floor | stream us | %% of floor |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  for (double mb : {64.0, 128.0, 256.0, 512.0, 2048.0}) {
    const size_t half = static_cast<size_t>(mb * 1e6 / 2) & ~size_t{255};
    const long n = static_cast<long>(half / 16);
    const double floor_us = 2.0 * half / rate * 1e6;
    struct Variant {
      const char* name;
      std::function<void(int, cudaStream_t)> launch;
    };
    std::vector<Variant> variants = {
        {"driver copy",
         [&](int b, cudaStream_t st) {
           CHECK(cudaMemcpyAsync(dst[b], src[b], half, cudaMemcpyDeviceToDevice, st));
         }},
        {"1 vector/thread, 128",
         [&](int b, cudaStream_t st) { copy_one<<<(n + 127) / 128, 128, 0, st>>>(src[b], dst[b], n); }},
        {"1 vector/thread, 256",
         [&](int b, cudaStream_t st) { copy_one<<<(n + 255) / 256, 256, 0, st>>>(src[b], dst[b], n); }},
        {"2 vectors/thread, 128",
         [&](int b, cudaStream_t st) { copy_many<2><<<(n + 255) / 256, 128, 0, st>>>(src[b], dst[b], n); }},
        {"4 vectors/thread, 128",
         [&](int b, cudaStream_t st) { copy_many<4><<<(n + 511) / 512, 128, 0, st>>>(src[b], dst[b], n); }},
        {"4 vectors/thread, 256",
         [&](int b, cudaStream_t st) { copy_many<4><<<(n + 1023) / 1024, 256, 0, st>>>(src[b], dst[b], n); }},
        {"persistent 16 x 128/SM, 1",
         [&](int b, cudaStream_t st) { copy_persistent<1><<<sms * 16, 128, 0, st>>>(src[b], dst[b], n); }},
        {"persistent 16 x 128/SM, 4",
         [&](int b, cudaStream_t st) { copy_persistent<4><<<sms * 16, 128, 0, st>>>(src[b], dst[b], n); }},
        {"persistent 8 x 256/SM, 2",
         [&](int b, cudaStream_t st) { copy_persistent<2><<<sms * 8, 256, 0, st>>>(src[b], dst[b], n); }},
        {"persistent 4 x 512/SM, 4",
         [&](int b, cudaStream_t st) { copy_persistent<4><<<sms * 4, 512, 0, st>>>(src[b], dst[b], n); }},
    };
    for (const Variant& v : variants) {
      Result r = time_it(v.launch, s);
      std::printf("| %.0f | %.1f | %s | %.1f | %.1f%% | %.1f | %.1f%% |\n", 2.0 * half / 1e6, floor_us,
                  v.name, r.single_us, 100.0 * floor_us / r.single_us, r.stream_us,
                  100.0 * floor_us / r.stream_us);
    }
  }
  // The last variant copied correctly: compare the start of each buffer pair.
  std::vector<unsigned char> got(1 << 20), want(1 << 20);
  for (int b = 0; b < 3; ++b) {
    CHECK(cudaMemcpy(got.data(), dst[b], got.size(), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(want.data(), src[b], want.size(), cudaMemcpyDeviceToHost));
    if (got != want) {
      std::fprintf(stderr, "copy_probe: buffer pair %d differs after the copies\n", b);
      return 1;
    }
  }
  return 0;
}
