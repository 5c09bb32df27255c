// The device side of generated kernels (compiled by NVRTC): qualifiers, bit casts, half-precision
// conversions with the GPU's own round-to-nearest-even instructions, wide loads and stores, then the
// helpers shared with the host backend.
#pragma once

#define SEAM_FN __device__ __forceinline__
#define SEAM_KERNEL extern "C" __global__
#define SEAM_PRAGMA(text) _Pragma(#text)
#define SEAM_UNROLL(n) SEAM_PRAGMA(unroll n)

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
// synchronize); every thread of the row gets the same result.
template <int RowsPerBlock, int ThreadsPerRow, bool LanesContiguous>
struct seam_rows {
  unsigned char* scratch;
  int slot;  // the row of this thread within the block
  int lane;  // this thread's index among the threads of its row
  SEAM_FN explicit seam_rows(unsigned char* shared)
      : scratch(shared),
        slot(LanesContiguous ? (int)threadIdx.x / ThreadsPerRow : (int)threadIdx.x % RowsPerBlock),
        lane(LanesContiguous ? (int)threadIdx.x % ThreadsPerRow : (int)threadIdx.x / RowsPerBlock) {}
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

template <class Op, class T, int R, int P, bool C>
SEAM_FN T seam_row_reduce(T v, const seam_rows<R, P, C>& rows) {
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
