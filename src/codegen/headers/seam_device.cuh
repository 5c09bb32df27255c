// The device side of generated kernels (compiled by NVRTC): qualifiers, bit casts, half-precision
// conversions with the GPU's own round-to-nearest-even instructions, wide loads and stores, then the
// helpers shared with the host backend.
#pragma once

#define SEAM_FN __device__ __forceinline__
#define SEAM_KERNEL extern "C" __global__
#define SEAM_PRAGMA(text) _Pragma(#text)
#define SEAM_UNROLL(n) SEAM_PRAGMA(unroll n)
#define SEAM_STOP_IF_INTERRUPTED() ((void)0)  // a host run's check (seam_host.h); a launch runs to its end

SEAM_FN float seam_bits_to_float(unsigned int bits) { return __uint_as_float(bits); }
SEAM_FN float seam_f16_bits_to_float(unsigned short bits) {
  float out;
  asm("cvt.f32.f16 %0, %1;" : "=f"(out) : "h"(bits));
  return out;
}
SEAM_FN unsigned short seam_float_to_bf16_bits(float x) {
  unsigned short out;
  asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(out) : "f"(x));
  return out;
}
SEAM_FN unsigned short seam_float_to_f16_bits(float x) {
  unsigned short out;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(out) : "f"(x));
  return out;
}
SEAM_FN unsigned short seam_double_to_bf16_bits(double x) {
  unsigned short out;
  asm("cvt.rn.bf16.f64 %0, %1;" : "=h"(out) : "d"(x));
  return out;
}
SEAM_FN unsigned short seam_double_to_f16_bits(double x) {
  unsigned short out;
  asm("cvt.rn.f16.f64 %0, %1;" : "=h"(out) : "d"(x));
  return out;
}

SEAM_FN double seam_double_from_bits(unsigned long long bits) {
  return __longlong_as_double((long long)bits);
}

// The first index out of range wins (docs/CODEGEN.md, "Indexing"): the thread that claims the record
// fills it; the runtime reads it after the stream synchronizes.
SEAM_FN void seam_record_index_error(long long* error, int op, long long index, long long extent, int axis) {
  if (atomicCAS(reinterpret_cast<unsigned long long*>(error), 0ULL, (unsigned long long)(op + 1)) != 0ULL)
    return;
  error[1] = index;
  error[2] = extent;
  error[3] = axis;
}

#include "seam_common.h"

SEAM_FN float seam_erfinv(float a) { return erfinvf(a); }
SEAM_FN double seam_erfinv(double a) { return erfinv(a); }
SEAM_FN float seam_erfcinv(float a) { return erfcinvf(a); }
SEAM_FN double seam_erfcinv(double a) { return erfcinv(a); }

// Approximate f32 math by the special-function unit, for values that only reach 16-bit floating outputs
// (kir::Expr::approximate, docs/CODEGEN.md "Approximate math"). The .ftz forms are one instruction each;
// without .ftz the compiler wraps each in a subnormal range check and two scalings, which made
// cross-entropy issue-bound. Results below 2^-126 become zero, far below any 16-bit output's tolerance.
SEAM_FN float seam_exp2_approx_ftz(float a) {
  float r;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(a));
  return r;
}
SEAM_FN float seam_exp_approx(float a) { return seam_exp2_approx_ftz(a * 1.4426950408889634f); }
SEAM_FN float seam_log_approx(float a) {
  float r;
  asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(a));
  return r * 0.6931471805599453f;
}
SEAM_FN float seam_div_approx(float a, float b) { return __fdividef(a, b); }
SEAM_FN float seam_reciprocal_approx(float a) { return __fdividef(1.0f, a); }
SEAM_FN float seam_rsqrt_approx(float a) {
  float r;
  asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(a));
  return r;
}
SEAM_FN float seam_sigmoid_approx(float a) { return __fdividef(1.0f, 1.0f + seam_exp_approx(-a)); }

// N consecutive elements in one access where N * sizeof(T) is 4, 8 or 16 bytes. The generated code
// asks for N > 1 only where it proved the address aligned to N elements; arrays are declared alignas(16).
template <int Bytes>
struct seam_wide;
template <>
struct seam_wide<4> {
  typedef unsigned int type;
};
template <>
struct seam_wide<8> {
  typedef uint2 type;
};
template <>
struct seam_wide<16> {
  typedef uint4 type;
};

template <int N, class T>
SEAM_FN void seam_load(const T* __restrict__ src, T* dst) {
  if constexpr (N * sizeof(T) == 4 || N * sizeof(T) == 8 || N * sizeof(T) == 16) {
    typedef typename seam_wide<(int)(N * sizeof(T))>::type V;
    *reinterpret_cast<V*>(dst) = __ldg(reinterpret_cast<const V*>(src));
  } else if constexpr (N * sizeof(T) % 16 == 0) {  // wider than a vector: 16-byte pieces
    constexpr int piece = 16 / sizeof(T);
#pragma unroll
    for (int l = 0; l < N; l += piece) seam_load<piece>(src + l, dst + l);
  } else {
#pragma unroll
    for (int l = 0; l < N; ++l) dst[l] = src[l];
  }
}

template <int N, class T>
SEAM_FN void seam_store(T* __restrict__ dst, const T* src) {
  if constexpr (N * sizeof(T) == 4 || N * sizeof(T) == 8 || N * sizeof(T) == 16) {
    typedef typename seam_wide<(int)(N * sizeof(T))>::type V;
    *reinterpret_cast<V*>(dst) = *reinterpret_cast<const V*>(src);
  } else if constexpr (N * sizeof(T) % 16 == 0) {
    constexpr int piece = 16 / sizeof(T);
#pragma unroll
    for (int l = 0; l < N; l += piece) seam_store<piece>(dst + l, src + l);
  } else {
#pragma unroll
    for (int l = 0; l < N; ++l) dst[l] = src[l];
  }
}

// A row group's fills loaded ahead (kir::RowLaunch::load_ahead), taken from the NAME_next registers.
template <int N, class T>
SEAM_FN void seam_copy_lanes(const T* src, T* dst) {
  seam_store<N>(dst, src);
}

// A pointwise chunk's vector at an offset not a multiple of its width (kir::Expr::unaligned without
// row_edge): every lane, in the widest accesses the address allows. The rows of an odd-width tensor start
// at every alignment in turn, so the test is per access; it is uniform across a warp except where the
// warp crosses a row.
template <int N, class T>
SEAM_FN void seam_load_unaligned(const T* __restrict__ src, T* dst) {
  const unsigned long long address = (unsigned long long)src;
  if constexpr (N * sizeof(T) % 16 == 0) {
    if ((address & 15) == 0) {
      seam_load<N>(src, dst);
      return;
    }
  }
  if constexpr (sizeof(T) < 8 && N * sizeof(T) % 8 == 0) {
    if ((address & 7) == 0) {
#pragma unroll
      for (int l = 0; l < N; l += 8 / sizeof(T)) seam_load<8 / sizeof(T)>(src + l, dst + l);
      return;
    }
  }
  if constexpr (sizeof(T) < 4 && N * sizeof(T) % 4 == 0) {
    if ((address & 3) == 0) {
#pragma unroll
      for (int l = 0; l < N; l += 4 / sizeof(T)) seam_load<4 / sizeof(T)>(src + l, dst + l);
      return;
    }
  }
#pragma unroll
  for (int l = 0; l < N; ++l) dst[l] = src[l];
}

// A peeled row loop's vector (kir::Expr::row_edge): the lanes in `lanes` (seam_row_lanes) only, zero in
// the others. With every lane inside: one wide access where the address is aligned (`Aligned`: a tensor
// laid out like the row kernel's), else the widest accesses the address allows (a weight broadcast over
// rows starts at a different alignment per row, the same for every thread of the row); at a row's edge
// lane by lane.
template <int N, bool Aligned, class T>
SEAM_FN void seam_load_edge(const T* __restrict__ src, T* dst, unsigned lanes) {
  if (lanes == (1u << N) - 1u) {
    if constexpr (Aligned) {
      seam_load<N>(src, dst);
      return;
    } else if constexpr (N * sizeof(T) == 16 && N % 4 == 0) {  // 16-byte vectors: as measured in rows
      seam_load_unaligned<N>(src, dst);
      return;
    }
  }
#pragma unroll
  for (int l = 0; l < N; ++l) dst[l] = (lanes >> l) & 1u ? src[l] : T();
}

// Cache hints (kir::Kernel::keep_reused_loads, streaming_stores). A load that other chunks repeat (a
// broadcast input) is kept in L2 with an evict-last policy; stores go out evict-first (st.global.cs), so
// that streamed data does not push the reused lines out. 16-byte accesses only; others as above.
template <int N, class T>
SEAM_FN void seam_load_keep(const T* __restrict__ src, T* dst) {
  if constexpr (N * sizeof(T) == 16) {
    unsigned long long policy;
    asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
    uint4 v;
    asm("ld.global.nc.L1::evict_last.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;"
        : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
        : "l"(src), "l"(policy));
    *reinterpret_cast<uint4*>(dst) = v;
  } else {
    seam_load<N>(src, dst);
  }
}

template <int N, class T>
SEAM_FN void seam_store_stream(T* __restrict__ dst, const T* src) {
  if constexpr (N * sizeof(T) == 16) {
    __stcs(reinterpret_cast<uint4*>(dst), *reinterpret_cast<const uint4*>(src));
  } else {
    seam_store<N>(dst, src);
  }
}

// ---- row kernels: combining a value over the threads of a row (docs/CODEGEN.md, "Reductions") ----------
// A block holds RowsPerBlock rows of ThreadsPerRow threads (both powers of two, the block a multiple of a
// warp); the threads of a row are consecutive (LanesContiguous) or RowsPerBlock apart. `scratch` is
// shared memory of 8 bytes per thread. Every thread of a block must call each reduction (they
// synchronize); every thread of the row gets the same result. Cluster > 1 (kir::RowLaunch::cluster): a
// row per thread block cluster of that many blocks (RowsPerBlock 1), the row's threads numbered across
// the cluster's blocks in rank order; every thread of the cluster must call each reduction.
SEAM_FN unsigned seam_cluster_rank() {
  unsigned rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  return rank;
}
// A barrier over every thread of the cluster, ordering shared memory accesses across its blocks.
SEAM_FN void seam_cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::
                   : "memory");
}
// `local` (this block's shared memory) in the block of rank `rank` of the cluster (distributed shared
// memory, a generic address).
template <class T>
SEAM_FN const T* seam_cluster_peer(const T* local, unsigned rank) {
  unsigned long long peer;
  asm volatile("mapa.u64 %0, %1, %2;" : "=l"(peer) : "l"(local), "r"(rank));
  return reinterpret_cast<const T*>(peer);
}

template <int RowsPerBlock, int ThreadsPerRow, bool LanesContiguous, int Cluster = 1>
struct seam_rows {
  static_assert(Cluster == 1 || (RowsPerBlock == 1 && LanesContiguous), "a cluster shares one row");
  unsigned char* scratch;
  int slot;  // the row of this thread within the block
  int lane;  // this thread's index among the threads of its row (of the cluster's blocks)
  SEAM_FN explicit seam_rows(unsigned char* shared)
      : scratch(shared),
        slot(LanesContiguous ? (int)threadIdx.x / ThreadsPerRow : (int)threadIdx.x % RowsPerBlock),
        lane((LanesContiguous ? (int)threadIdx.x % ThreadsPerRow : (int)threadIdx.x / RowsPerBlock) +
             (Cluster > 1 ? (int)seam_cluster_rank() * ThreadsPerRow : 0)) {}
};

struct seam_sum_op {
  template <class T>
  SEAM_FN static T apply(T a, T b) {
    return seam_add(a, b);
  }
};
struct seam_prod_op {
  template <class T>
  SEAM_FN static T apply(T a, T b) {
    return seam_mul(a, b);
  }
};
struct seam_max_op {
  template <class T>
  SEAM_FN static T apply(T a, T b) {
    return seam_maximum(a, b);
  }
};
struct seam_min_op {
  template <class T>
  SEAM_FN static T apply(T a, T b) {
    return seam_minimum(a, b);
  }
};

// The block's value `v` (the same on every thread) combined over the cluster's blocks in rank order:
// each block publishes it in the last 8 bytes of its scratch (past what the block combine uses), and
// every thread reads all of them.
template <class Op, class T, int Cluster>
SEAM_FN T seam_cluster_combine(T v, unsigned char* scratch) {
  T* published = reinterpret_cast<T*>(scratch + blockDim.x * 8 - 8);
  seam_cluster_sync();  // every block is done reading the previous value
  if (threadIdx.x == 0) *published = v;
  seam_cluster_sync();
  T result = *seam_cluster_peer(published, 0);
#pragma unroll
  for (unsigned rank = 1; rank < Cluster; ++rank)
    result = Op::apply(result, *seam_cluster_peer(published, rank));
  return result;
}

template <class Op, class T, int R, int P, bool C, int Cluster>
SEAM_FN T seam_row_reduce(T v, const seam_rows<R, P, C, Cluster>& rows) {
  if constexpr (Cluster > 1) {
    return seam_cluster_combine<Op, T, Cluster>(seam_row_reduce<Op>(v, seam_rows<R, P, C>(rows.scratch)),
                                                rows.scratch);
  }
  T* shared = reinterpret_cast<T*>(rows.scratch);
  if constexpr (P == 1) {
    return v;
  } else if constexpr (C) {
    // Butterfly inside the warp: every lane ends with the combination of its group of min(P, 32) lanes.
    constexpr int in_warp = P < 32 ? P : 32;
#pragma unroll
    for (int offset = in_warp / 2; offset > 0; offset >>= 1)
      v = Op::apply(v, __shfl_xor_sync(0xffffffffu, v, offset));
    if constexpr (P <= 32) {
      return v;
    } else {
      // Then across the row's warps through shared memory, in the same order on every thread.
      constexpr int warps = P / 32;
      __syncthreads();  // earlier readers of the scratch are done
      if (threadIdx.x % 32 == 0) shared[threadIdx.x / 32] = v;
      __syncthreads();
      const T* mine = shared + rows.slot * warps;
      T result = mine[0];
#pragma unroll
      for (int w = 1; w < warps; ++w) result = Op::apply(result, mine[w]);
      return result;
    }
  } else {
    // A tree over the row's threads, RowsPerBlock apart in shared memory.
    __syncthreads();
    shared[threadIdx.x] = v;
    __syncthreads();
#pragma unroll
    for (int offset = P / 2; offset > 0; offset >>= 1) {
      if (rows.lane < offset)
        shared[threadIdx.x] = Op::apply(shared[threadIdx.x], shared[threadIdx.x + offset * R]);
      __syncthreads();
    }
    return shared[rows.slot];
  }
}

template <class T, class Rows>
SEAM_FN T seam_row_reduce_sum(T v, const Rows& rows) {
  return seam_row_reduce<seam_sum_op>(v, rows);
}
template <class T, class Rows>
SEAM_FN T seam_row_reduce_prod(T v, const Rows& rows) {
  return seam_row_reduce<seam_prod_op>(v, rows);
}
template <class T, class Rows>
SEAM_FN T seam_row_reduce_max(T v, const Rows& rows) {
  return seam_row_reduce<seam_max_op>(v, rows);
}
template <class T, class Rows>
SEAM_FN T seam_row_reduce_min(T v, const Rows& rows) {
  return seam_row_reduce<seam_min_op>(v, rows);
}

// The online pair (m, s) of this thread's part of the row (seam_online_combine) combined over the row's
// threads (and the cluster's blocks) in one exchange: every thread of the row ends with the row's pair.
// Same rules as seam_row_reduce; the pair takes the 8 bytes per thread of scratch.
template <bool Approx, int R, int P, bool C, int Cluster>
SEAM_FN void seam_row_reduce_online(float& m, float& s, const seam_rows<R, P, C, Cluster>& rows) {
  float* shared = reinterpret_cast<float*>(rows.scratch);
  if constexpr (Cluster > 1) {
    seam_row_reduce_online<Approx>(m, s, seam_rows<R, P, C>(rows.scratch));
    float* published = reinterpret_cast<float*>(rows.scratch + blockDim.x * 8 - 8);
    seam_cluster_sync();  // every block is done reading the previous pair
    if (threadIdx.x == 0) {
      published[0] = m;
      published[1] = s;
    }
    seam_cluster_sync();
    const float* first = seam_cluster_peer(published, 0);
    m = first[0];
    s = first[1];
#pragma unroll
    for (unsigned rank = 1; rank < Cluster; ++rank) {
      const float* other = seam_cluster_peer(published, rank);
      seam_online_combine<Approx>(m, s, other[0], other[1]);
    }
  } else if constexpr (P == 1) {
    return;
  } else if constexpr (C) {
    constexpr int in_warp = P < 32 ? P : 32;
#pragma unroll
    for (int offset = in_warp / 2; offset > 0; offset >>= 1) {
      const float m2 = __shfl_xor_sync(0xffffffffu, m, offset), s2 = __shfl_xor_sync(0xffffffffu, s, offset);
      seam_online_combine<Approx>(m, s, m2, s2);
    }
    if constexpr (P > 32) {
      constexpr int warps = P / 32;
      __syncthreads();  // earlier readers of the scratch are done
      if (threadIdx.x % 32 == 0) {
        shared[2 * (threadIdx.x / 32)] = m;
        shared[2 * (threadIdx.x / 32) + 1] = s;
      }
      __syncthreads();
      const float* mine = shared + 2 * rows.slot * warps;
      m = mine[0];
      s = mine[1];
#pragma unroll
      for (int w = 1; w < warps; ++w) seam_online_combine<Approx>(m, s, mine[2 * w], mine[2 * w + 1]);
    }
  } else {
    // A tree over the row's threads, RowsPerBlock apart: maxima in the scratch's first half, sums after.
    float* sums = shared + blockDim.x;
    __syncthreads();
    shared[threadIdx.x] = m;
    sums[threadIdx.x] = s;
    __syncthreads();
#pragma unroll
    for (int offset = P / 2; offset > 0; offset >>= 1) {
      if (rows.lane < offset) {
        float mm = shared[threadIdx.x], ss = sums[threadIdx.x];
        seam_online_combine<Approx>(mm, ss, shared[threadIdx.x + offset * R], sums[threadIdx.x + offset * R]);
        shared[threadIdx.x] = mm;
        sums[threadIdx.x] = ss;
      }
      __syncthreads();
    }
    m = shared[rows.slot];
    s = sums[rows.slot];
  }
}

// Peeled row loops' stores (aligned: outputs are laid out like the row kernel's reduced tensor; rows
// peeled by columns: not, then the widest stores the address allows, as seam_load_edge's loads: written
// out the same way, since a shared helper taking the access as a lambda changed the loads' machine code).
template <int N, bool Stream, bool Aligned = true, class T>
SEAM_FN void seam_store_edge(T* __restrict__ dst, const T* src, unsigned lanes) {
  if (lanes == (1u << N) - 1u) {
    if constexpr (Aligned) {
      if constexpr (Stream)
        seam_store_stream<N>(dst, src);
      else
        seam_store<N>(dst, src);
      return;
    } else if constexpr (N * sizeof(T) == 16 && N % 4 == 0) {
      const unsigned long long address = (unsigned long long)dst;
      if ((address & 15) == 0) {
        seam_store<N>(dst, src);
        return;
      }
      if ((address & 7) == 0) {
        seam_store<N / 2>(dst, src);
        seam_store<N / 2>(dst + N / 2, src + N / 2);
        return;
      }
      if ((address & 3) == 0) {
#pragma unroll
        for (int l = 0; l < N; l += N / 4) seam_store<N / 4>(dst + l, src + l);
        return;
      }
    }
  }
#pragma unroll
  for (int l = 0; l < N; ++l)
    if ((lanes >> l) & 1u) dst[l] = src[l];
}

// ---- outer reductions of row kernels (docs/CODEGEN.md, "Reductions") -----------------------------------
// The workspace (kir::OuterWorkspace), in f32 words: `header` words of arrival counters (0: the groups',
// 1 + g: group g's), then per outer reduction a row of `columns` partials per block of the grid, then
// per outer reduction a row per group of `group_size` consecutive blocks.
SEAM_FN float* seam_outer_partials(float* workspace, int reduction, long long columns, int header) {
  return workspace + header + ((long long)reduction * gridDim.x + blockIdx.x) * columns;
}

// A streamed kernel's accumulator: its block's workspace row, as vectors of N.
template <int N>
struct seam_outer_row {
  float* data;
  SEAM_FN float* operator[](long long vector) const { return data + vector * N; }
};
template <int N>
SEAM_FN void seam_outer_zero(const seam_outer_row<N>& row, int lane, int lanes, long long vectors) {
  for (long long k = lane; k < vectors; k += lanes)
#pragma unroll
    for (int l = 0; l < N; ++l) row[k][l] = 0.0f;
}

// A persistent kernel's accumulator: registers, `Iterations` vectors of N per thread.
template <int Iterations, int N>
SEAM_FN void seam_outer_zero(float (&acc)[Iterations][N]) {
#pragma unroll
  for (int i = 0; i < Iterations; ++i)
#pragma unroll
    for (int l = 0; l < N; ++l) acc[i][l] = 0.0f;
}

// Writes a persistent block's partials to its workspace row: the rows of the block in slot order, each
// adding to what the slots before it wrote (a fixed order), the block synchronized between slots.
template <int Iterations, int N, int R, int P, bool C>
SEAM_FN void seam_outer_store(const float (&acc)[Iterations][N], float* partials,
                              const seam_rows<R, P, C>& rows, long long vectors) {
  for (int slot = 0; slot < R; ++slot) {
    if (rows.slot == slot) {
#pragma unroll
      for (int i = 0; i < Iterations; ++i) {
        const long long k = rows.lane + (long long)i * P;
        if (k < vectors) {
          float* p = partials + k * N;
#pragma unroll
          for (int l = 0; l < N; ++l) p[l] = slot == 0 ? acc[i][l] : p[l] + acc[i][l];
        }
      }
    }
    if (R > 1) __syncthreads();
  }
}

// Whether this thread's block is the last to arrive at `counter` of `arrivals` (every thread of the
// block gets the answer); the last resets the counter for the next launch. Loads after a true answer
// see what the others wrote before arriving.
SEAM_FN bool seam_outer_last_to_arrive(unsigned int* counter, unsigned int arrivals) {
  __shared__ bool last;
  __threadfence();  // this block's writes are visible before its arrival counts
  __syncthreads();
  if (threadIdx.x == 0) {
    last = atomicAdd(counter, 1u) == arrivals - 1;
    if (last) atomicExch(counter, 0u);
  }
  __syncthreads();
  const bool result = last;
  __syncthreads();  // every thread read `last` before a next call writes it
  if (result) __threadfence();
  return result;
}

// out[c] = rows[0][c] + rows[1][c] + ... (`count` rows of `columns`, added in row order) for every column,
// by the block: each thread takes 4 columns a block apart and loads 8 rows of each before adding them, so
// that 32 loads per thread are in flight (one multiprocessor reads every row: latency bound otherwise).
// Loads bypass L1: other multiprocessors wrote the rows.
SEAM_FN void seam_outer_sum_rows(const float* rows, unsigned int count, long long columns, float* out) {
  const long long stride = blockDim.x;
  for (long long c0 = threadIdx.x; c0 < columns; c0 += 4 * stride) {
    float total[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (unsigned int b0 = 0; b0 < count; b0 += 8) {
      float v[4][8];
#pragma unroll
      for (int j = 0; j < 4; ++j)
#pragma unroll
        for (int i = 0; i < 8; ++i) {
          const long long c = c0 + j * stride;
          v[j][i] = c < columns && b0 + i < count ? __ldcg(rows + (b0 + i) * columns + c) : 0.0f;
        }
#pragma unroll
      for (int j = 0; j < 4; ++j)
#pragma unroll
        for (int i = 0; i < 8; ++i)
          if (b0 + i < count) total[j] = b0 + i == 0 ? v[j][i] : total[j] + v[j][i];
    }
#pragma unroll
    for (int j = 0; j < 4; ++j)
      if (c0 + j * stride < columns) out[c0 + j * stride] = total[j];
  }
}

// After every thread wrote its partials: the last block of each group sums the group's rows in block
// order into the group's row; the last group's block sums the group rows in group order into the totals
// row and returns true on every thread, which then read the totals (seam_outer_total).
SEAM_FN bool seam_outer_arrive(float* workspace, int reductions, long long columns, int group_size,
                               int header) {
  unsigned int* counters = reinterpret_cast<unsigned int*>(workspace);
  const unsigned int blocks = gridDim.x, groups = (blocks + group_size - 1) / group_size;
  const unsigned int group = blockIdx.x / group_size, first = group * group_size;
  const unsigned int members = blocks - first < (unsigned int)group_size ? blocks - first : group_size;
  float* group_rows = workspace + header + (long long)reductions * blocks * columns;
  float* totals = group_rows + (long long)reductions * groups * columns;
  if (!seam_outer_last_to_arrive(counters + 1 + group, members)) return false;
  for (int j = 0; j < reductions; ++j)
    seam_outer_sum_rows(workspace + header + ((long long)j * blocks + first) * columns, members, columns,
                        group_rows + ((long long)j * groups + group) * columns);
  if (!seam_outer_last_to_arrive(counters, groups)) return false;
  for (int j = 0; j < reductions; ++j)
    seam_outer_sum_rows(group_rows + (long long)j * groups * columns, groups, columns,
                        totals + (long long)j * columns);
  __syncthreads();  // the totals row is the block's: visible to its threads after this
  return true;
}

// The total of outer reduction `reduction` at `column` (after seam_outer_arrive returned true).
SEAM_FN float seam_outer_total(const float* workspace, int reduction, long long columns, long long column,
                               int reductions, int group_size, int header) {
  const long long blocks = gridDim.x, groups = (blocks + group_size - 1) / group_size;
  return workspace[header + ((long long)reductions * (blocks + groups) + reduction) * columns + column];
}
