// Does RoPE forward's memory pattern itself cap W8 (head size 96) below the head size 128 rows?
// seam's W8 rope-only bs 2 kernel runs at 90-92% of the floor by kernel durations where the head size 128
// rows reach 95-97% (bench/RESULTS.md, sessions 6-7), with the floor's bytes and the same instructions per
// byte. This probe takes generated code out of the question: hand-written kernels that move q and k
// out of litgpt's interleaved qkv into (B, heads, T, head size), 16-byte vectors, 128 threads, one vector a
// thread, in several chunk orders, with and without the rotation (cos/sin of (T, head size), kept in L2),
// for W8's and W1's shapes, next to a plain copy of the same bytes. Not part of the CMake build:
//   nvcc -O3 -arch=sm_90 -o gather_probe bench/experiments/gather_probe.cu && ./gather_probe
// `./gather_probe --once`: bs 2 only, each kernel launched once (checked, not timed), for Nsight Compute.
// Method: 3 input sets rotated, 5 warm-up launches, events around 50 back-to-back launches / 50 (close to
// the kernels' own durations, bench/RESULTS.md session 7 call 9), the median of 5 such rounds.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

#include "probe_check.cuh"


// Chunk orders: which 16-byte output vector a thread takes.
enum Order : int {
  kRowMajor = 0,    // lane, t, head, batch; q pass then k pass (seam's order below 4 MiB slabs)
  kPairs = 1,       // lane, t % 2, head, batch, t / 2 (seam's W8 order: rows tiled by 2)
  kTokenMajor = 2,  // lane, head, batch, t: a token's heads together (reads close, writes scattered)
  kQkTogether = 3,  // lane over q's row then k's (adjacent in qkv), t % 2, head, batch, t / 2
};

struct Place {
  int lane, t, h, b, slot;
};

template <int B, int T, int NH, int HS, int ORDER>
__device__ Place place_of(int g) {
  constexpr int V = HS / 8;
  constexpr int per_pass = B * NH * T * V;
  Place p;
  if (ORDER == kQkTogether) {
    const int l2 = g % (2 * V);
    p.slot = l2 / V;
    p.lane = l2 % V;
    const int tl = (g / (2 * V)) % 2;
    p.h = (g / (4 * V)) % NH;
    p.b = (g / (4 * V * NH)) % B;
    p.t = (g / (4 * V * NH * B)) * 2 + tl;
    return p;
  }
  p.slot = g >= per_pass;
  const int c = g - p.slot * per_pass;
  p.lane = c % V;
  if (ORDER == kRowMajor) {
    p.t = (c / V) % T;
    p.h = (c / (V * T)) % NH;
    p.b = c / (V * T * NH);
  } else if (ORDER == kPairs) {
    const int tl = (c / V) % 2;
    p.h = (c / (2 * V)) % NH;
    p.b = (c / (2 * V * NH)) % B;
    p.t = (c / (2 * V * NH * B)) * 2 + tl;
  } else {
    p.h = (c / V) % NH;
    p.b = (c / (V * NH)) % B;
    p.t = c / (V * NH * B);
  }
  return p;
}

__device__ uint4 rotate(uint4 x, uint4 partner, uint4 c, uint4 s, bool negate_partner) {
  const __nv_bfloat162* xv = reinterpret_cast<const __nv_bfloat162*>(&x);
  const __nv_bfloat162* pv = reinterpret_cast<const __nv_bfloat162*>(&partner);
  const __nv_bfloat162* cv = reinterpret_cast<const __nv_bfloat162*>(&c);
  const __nv_bfloat162* sv = reinterpret_cast<const __nv_bfloat162*>(&s);
  uint4 out;
  __nv_bfloat162* ov = reinterpret_cast<__nv_bfloat162*>(&out);
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    float2 xf = __bfloat1622float2(xv[i]), pf = __bfloat1622float2(pv[i]);
    float2 cf = __bfloat1622float2(cv[i]), sf = __bfloat1622float2(sv[i]);
    if (negate_partner) pf = make_float2(-pf.x, -pf.y);
    ov[i] = __floats2bfloat162_rn(xf.x * cf.x + pf.x * sf.x, xf.y * cf.y + pf.y * sf.y);
  }
  return out;
}

template <int B, int T, int NH, int HS, int ORDER, bool ROPE>
__global__ void __launch_bounds__(128)
    rope_probe(const uint4* __restrict__ qkv, const uint4* __restrict__ cos, const uint4* __restrict__ sin,
               uint4* __restrict__ q, uint4* __restrict__ k) {
  constexpr int V = HS / 8;
  const int g = blockIdx.x * 128 + threadIdx.x;
  if (g >= 2 * B * NH * T * V) return;
  const Place p = place_of<B, T, NH, HS, ORDER>(g);
  const long row = ((long)(p.b * T + p.t) * NH * 3 + p.h * 3 + p.slot) * V;
  uint4 x = qkv[row + p.lane];
  if (ROPE) {
    const uint4 partner = qkv[row + (p.lane + V / 2) % V];
    x = rotate(x, partner, __ldg(cos + p.t * V + p.lane), __ldg(sin + p.t * V + p.lane), p.lane < V / 2);
  }
  uint4* out = p.slot ? k : q;
  out[((long)(p.b * NH + p.h) * T + p.t) * V + p.lane] = x;
}

// Both halves of a rotation per thread (lanes l and l + V/2): each x vector is loaded once, as its own and
// as its partner, where rope_probe loads it twice (the partner load mostly from L1).
template <int B, int T, int NH, int HS, int ORDER>
__global__ void __launch_bounds__(128)
    rope_halves(const uint4* __restrict__ qkv, const uint4* __restrict__ cos, const uint4* __restrict__ sin,
                uint4* __restrict__ q, uint4* __restrict__ k) {
  constexpr int V = HS / 8, H = V / 2;
  const int g = blockIdx.x * 128 + threadIdx.x;
  if (g >= 2 * B * NH * T * H) return;
  const Place p = place_of<B, T, NH, HS / 2, ORDER>(g);  // lane in [0, H): the first half's vector
  const long row = ((long)(p.b * T + p.t) * NH * 3 + p.h * 3 + p.slot) * V;
  const uint4 x0 = qkv[row + p.lane], x1 = qkv[row + p.lane + H];
  const uint4* c = cos + p.t * V + p.lane;
  const uint4* s = sin + p.t * V + p.lane;
  const uint4 y0 = rotate(x0, x1, __ldg(c), __ldg(s), true), y1 = rotate(x1, x0, __ldg(c + H), __ldg(s + H), false);
  uint4* out = (p.slot ? k : q) + ((long)(p.b * NH + p.h) * T + p.t) * V + p.lane;
  out[0] = y0;
  out[H] = y1;
}

// `per` row-major chunks per thread, a block apart, all loads before the stores: more bytes in flight.
template <int B, int T, int NH, int HS, int per>
__global__ void __launch_bounds__(128)
    move_many(const uint4* __restrict__ qkv, uint4* __restrict__ q, uint4* __restrict__ k) {
  constexpr int V = HS / 8, total = 2 * B * NH * T * V;
  const int base = blockIdx.x * 128 * per + threadIdx.x;
  uint4 x[per];
  long to[per];
#pragma unroll
  for (int i = 0; i < per; ++i) {
    const int g = base + i * 128;
    if (g >= total) break;
    const Place p = place_of<B, T, NH, HS, kRowMajor>(g);
    x[i] = qkv[((long)(p.b * T + p.t) * NH * 3 + p.h * 3 + p.slot) * V + p.lane];
    to[i] = ((long)(p.b * NH + p.h) * T + p.t) * V + p.lane + (p.slot ? (long)B * NH * T * V : 0);
  }
#pragma unroll
  for (int i = 0; i < per; ++i) {
    if (base + i * 128 >= total) break;
    (to[i] >= (long)B * NH * T * V ? k + (to[i] - (long)B * NH * T * V) : q + to[i])[0] = x[i];
  }
}

__device__ uint32_t shared_address(const void* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

// The copy engine of the SM (cp.async.bulk, Hopper): one warp per block moves R rows of one head, each lane
// asking for one row (HS * 2 bytes) into shared memory, then one bulk store writes the R rows, contiguous in
// the output. Many bytes in flight without registers: does the pattern cap the rate, or the requests?
template <int B, int T, int NH, int HS, int R>
__global__ void __launch_bounds__(32)
    move_bulk(const __nv_bfloat16* __restrict__ qkv, __nv_bfloat16* __restrict__ q, __nv_bfloat16* __restrict__ k) {
  __shared__ alignas(128) __nv_bfloat16 rows[R * HS];
  __shared__ alignas(8) uint64_t barrier;
  constexpr int row_bytes = HS * 2, tiles = T / R;
  const int tile = blockIdx.x % tiles, h = blockIdx.x / tiles % NH, b = blockIdx.x / (tiles * NH) % B;
  const int slot = blockIdx.x / (tiles * NH * B);
  const int lane = threadIdx.x;
  const uint32_t bar = shared_address(&barrier);
  if (lane == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(R * row_bytes) : "memory");
  }
  __syncwarp();
  for (int r = lane; r < R; r += 32) {
    const int t = tile * R + r;
    const __nv_bfloat16* src = qkv + ((long)(b * T + t) * NH * 3 + h * 3 + slot) * HS;
    asm volatile(
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
            shared_address(rows + r * HS)),
        "l"(src), "r"(row_bytes), "r"(bar)
        : "memory");
  }
  asm volatile(
      "{\n .reg .pred done;\n wait%=:\n mbarrier.try_wait.parity.shared::cta.b64 done, [%0], 0;\n"
      " @!done bra wait%=;\n}" ::"r"(bar)
      : "memory");
  if (lane == 0) {
    __nv_bfloat16* dst = (slot ? k : q) + ((long)(b * NH + h) * T + tile * R) * HS;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(dst),
                 "r"(shared_address(rows)), "r"(R * row_bytes)
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
  }
}

__global__ void copy_one(const uint4* __restrict__ src, uint4* __restrict__ dst, long n) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = src[i];
}

__global__ void fill(uint32_t* p, long n, uint32_t seed) {
  for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
    uint32_t x = static_cast<uint32_t>(i) * 2654435761u ^ seed;
    x ^= x >> 15;
    x *= 2246822519u;
    // Finite bf16 pairs: keep exponents small so the rotation never makes inf/nan.
    p[i] = (x & 0x807f807fu) | 0x3f003f00u;
  }
}

float stream_us(const std::function<void(int, cudaStream_t)>& launch, cudaStream_t s) {
  const int iterations = 50, rounds = 5;
  for (int i = 0; i < 5; ++i) launch(i % 3, s);
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  std::vector<float> per;
  for (int r = 0; r < rounds; ++r) {
    CHECK(cudaEventRecord(a, s));
    for (int i = 0; i < iterations; ++i) launch(i % 3, s);
    CHECK(cudaEventRecord(b, s));
    CHECK(cudaGetLastError());
    CHECK(cudaEventSynchronize(b));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    per.push_back(ms * 1e3f / iterations);
  }
  CHECK(cudaEventDestroy(a));
  CHECK(cudaEventDestroy(b));
  std::sort(per.begin(), per.end());
  return per[rounds / 2];
}

struct Buffers {
  uint4 *qkv[3], *cos, *sin, *q[3], *k[3];
};

std::vector<unsigned char> download(const void* p, size_t bytes) {
  std::vector<unsigned char> h(bytes);
  CHECK(cudaMemcpy(h.data(), p, bytes, cudaMemcpyDeviceToHost));
  return h;
}

template <int B, int T, int NH, int HS, int ORDER, bool ROPE>
void launch_probe(const Buffers& m, int set, cudaStream_t s) {
  constexpr long chunks = 2L * B * NH * T * (HS / 8);
  rope_probe<B, T, NH, HS, ORDER, ROPE>
      <<<(chunks + 127) / 128, 128, 0, s>>>(m.qkv[set], m.cos, m.sin, m.q[set], m.k[set]);
}

template <int B, int T, int NH, int HS, int ORDER>
void launch_halves(const Buffers& m, int set, cudaStream_t s) {
  constexpr long threads = 2L * B * NH * T * (HS / 16);
  rope_halves<B, T, NH, HS, ORDER><<<(threads + 127) / 128, 128, 0, s>>>(m.qkv[set], m.cos, m.sin, m.q[set], m.k[set]);
}

template <int B, int T, int NH, int HS, int per>
void launch_many(const Buffers& m, int set, cudaStream_t s) {
  constexpr long chunks = 2L * B * NH * T * (HS / 8);
  move_many<B, T, NH, HS, per><<<(chunks + 128 * per - 1) / (128 * per), 128, 0, s>>>(m.qkv[set], m.q[set], m.k[set]);
}

template <int B, int T, int NH, int HS, int R>
void launch_bulk(const Buffers& m, int set, cudaStream_t s) {
  move_bulk<B, T, NH, HS, R><<<2 * B * NH * (T / R), 32, 0, s>>>(
      reinterpret_cast<const __nv_bfloat16*>(m.qkv[set]), reinterpret_cast<__nv_bfloat16*>(m.q[set]),
      reinterpret_cast<__nv_bfloat16*>(m.k[set]));
}

template <int B, int T, int NH, int HS>
void shape(const char* name, double rate, bool once) {
  const size_t qkv_bytes = size_t{2} * B * T * NH * 3 * HS, out_bytes = size_t{2} * B * NH * T * HS;
  const size_t table_bytes = size_t{2} * T * HS;
  Buffers m;
  for (int i = 0; i < 3; ++i) {
    CHECK(cudaMalloc(&m.qkv[i], qkv_bytes));
    CHECK(cudaMalloc(&m.q[i], out_bytes));
    CHECK(cudaMalloc(&m.k[i], out_bytes));
    fill<<<1024, 256>>>(reinterpret_cast<uint32_t*>(m.qkv[i]), static_cast<long>(qkv_bytes / 4), 7u + i);
  }
  CHECK(cudaMalloc(&m.cos, table_bytes));
  CHECK(cudaMalloc(&m.sin, table_bytes));
  fill<<<64, 256>>>(reinterpret_cast<uint32_t*>(m.cos), static_cast<long>(table_bytes / 4), 99u);
  fill<<<64, 256>>>(reinterpret_cast<uint32_t*>(m.sin), static_cast<long>(table_bytes / 4), 98u);
  CHECK(cudaGetLastError());
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const double moved = 4.0 * out_bytes + 2.0 * table_bytes;  // q, k read and written; cos, sin read
  const double floor_us = moved / rate * 1e6;
  const long copy_vectors = static_cast<long>(2 * out_bytes / 16);
  uint4* copy_dst[3];
  for (int i = 0; i < 3; ++i) CHECK(cudaMalloc(&copy_dst[i], 2 * out_bytes));
  auto copy_launch = [&](int set, cudaStream_t st) {
    copy_one<<<(copy_vectors + 127) / 128, 128, 0, st>>>(m.qkv[set], copy_dst[set], copy_vectors);
  };
  if (once) copy_launch(0, s);
  const float copy = once ? 0.0f : stream_us(copy_launch, s);
  if (!once)
    std::printf("| %s | copy kernel, same bytes | %.1f | %.1f | %.1f%% | 100%% |\n", name, floor_us, copy,
                100.0 * floor_us / copy);
  struct Variant {
    const char* name;
    void (*launch)(const Buffers&, int, cudaStream_t);
    bool rope;
  };
  const Variant variants[] = {
      {"move, row-major", launch_probe<B, T, NH, HS, kRowMajor, false>, false},
      {"move, pairs", launch_probe<B, T, NH, HS, kPairs, false>, false},
      {"move, token-major", launch_probe<B, T, NH, HS, kTokenMajor, false>, false},
      {"move, q and k together", launch_probe<B, T, NH, HS, kQkTogether, false>, false},
      {"move, row-major, 4 vectors/thread", launch_many<B, T, NH, HS, 4>, false},
      {"move, bulk copies, 32 rows/warp", launch_bulk<B, T, NH, HS, 32>, false},
      {"move, bulk copies, 64 rows/warp", launch_bulk<B, T, NH, HS, 64>, false},
      {"rope, row-major", launch_probe<B, T, NH, HS, kRowMajor, true>, true},
      {"rope, pairs", launch_probe<B, T, NH, HS, kPairs, true>, true},
      {"rope, token-major", launch_probe<B, T, NH, HS, kTokenMajor, true>, true},
      {"rope, q and k together", launch_probe<B, T, NH, HS, kQkTogether, true>, true},
      {"rope, both halves a thread, row-major", launch_halves<B, T, NH, HS, kRowMajor>, true},
      {"rope, both halves a thread, pairs", launch_halves<B, T, NH, HS, kPairs>, true},
  };
  // Every order must write the same outputs as row-major (with and without the rotation).
  std::vector<unsigned char> want_q[2], want_k[2];
  for (const Variant& v : variants) {
    CHECK(cudaMemset(m.q[0], 0, out_bytes));
    CHECK(cudaMemset(m.k[0], 0, out_bytes));
    v.launch(m, 0, s);
    CHECK(cudaStreamSynchronize(s));
    std::vector<unsigned char> got_q = download(m.q[0], out_bytes), got_k = download(m.k[0], out_bytes);
    if (want_q[v.rope].empty()) {
      want_q[v.rope] = got_q;
      want_k[v.rope] = got_k;
      if (!v.rope) {  // row-major movement against the definition, on the host
        std::vector<unsigned char> src = download(m.qkv[0], qkv_bytes);
        for (long r = 0; r < 2L * B * NH * T; r += 997) {
          const long slot = r / (B * NH * T), rest = r % (B * NH * T);
          const long b = rest / (NH * T), h = rest / T % NH, t = rest % T;
          const unsigned char* from = src.data() + ((b * T + t) * NH * 3 + h * 3 + slot) * HS * 2;
          const unsigned char* to = (slot ? got_k : got_q).data() + rest * HS * 2;
          if (std::memcmp(from, to, HS * 2) != 0) {
            std::fprintf(stderr, "gather_probe: %s row %ld moved wrong\n", name, r);
            std::exit(1);
          }
        }
      }
    } else if (got_q != want_q[v.rope] || got_k != want_k[v.rope]) {
      std::fprintf(stderr, "gather_probe: %s %s differs from row-major\n", name, v.name);
      std::exit(1);
    }
  }
  for (const Variant& v : variants) {
    if (once) break;
    const float us = stream_us([&](int set, cudaStream_t st) { v.launch(m, set, st); }, s);
    std::printf("| %s | %s | %.1f | %.1f | %.1f%% | %.1f%% |\n", name, v.name, floor_us, us,
                100.0 * floor_us / us, 100.0 * copy / us);
  }
  for (int i = 0; i < 3; ++i) {
    CHECK(cudaFree(m.qkv[i]));
    CHECK(cudaFree(m.q[i]));
    CHECK(cudaFree(m.k[i]));
    CHECK(cudaFree(copy_dst[i]));
  }
  CHECK(cudaFree(m.cos));
  CHECK(cudaFree(m.sin));
  CHECK(cudaStreamDestroy(s));
}

int main(int argc, char** argv) {
  const bool once = argc > 1 && std::strcmp(argv[1], "--once") == 0;
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  // The floor's rate: the driver's copy of 2 GiB moved, as bench_rope_gpu measures it.
  const size_t half = size_t{1} << 30;
  void *src, *dst;
  CHECK(cudaMalloc(&src, half));
  CHECK(cudaMalloc(&dst, half));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const float big = stream_us(
      [&](int, cudaStream_t st) { CHECK(cudaMemcpyAsync(dst, src, half, cudaMemcpyDeviceToDevice, st)); }, s);
  const double rate = 2.0 * half / (big * 1e-6);
  CHECK(cudaFree(src));
  CHECK(cudaFree(dst));
  std::printf("%s, copy rate %.3f TB/s (driver copy, 2 GiB moved)\n\n", prop.name, rate / 1e12);
  std::printf("| shape | kernel | floor us | us | %% of floor | %% of copy |\n|---|---|---|---|---|---|\n");
  shape<2, 4096, 32, 96>("W8 bs 2 (hs 96)", rate, once);
  if (!once) shape<1, 4096, 32, 96>("W8 bs 1 (hs 96)", rate, once);
  shape<2, 4096, 32, 128>("W1 bs 2 (hs 128)", rate, once);
  if (!once) shape<1, 4096, 32, 128>("W1 bs 1 (hs 128)", rate, once);
  return 0;
}
