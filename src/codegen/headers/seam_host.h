// The host side of generated kernels (the host C++ backend, compiled by the system compiler): the same
// kernel bodies as on the GPU, with seam's exact host rounding helpers.
#pragma once

#include <math.h>
#include <string.h>

#include "support/half.h"

#define SEAM_FN inline
#define SEAM_KERNEL extern "C"
#define SEAM_UNROLL(n)

// Set by the host backend when it loads the module (exec/host_interrupt.h): nonzero asks the kernel
// running to stop. Kernels look at it between chunks of their work, often enough that a run stops
// within a fraction of a second, and return; the backend then reports the run as interrupted.
extern "C" {
volatile const int* seam_host_interrupt = 0;
}
SEAM_FN bool seam_interrupted() { return seam_host_interrupt != 0 && *seam_host_interrupt != 0; }
#define SEAM_STOP_IF_INTERRUPTED() \
  if (seam_interrupted()) return

SEAM_FN float seam_bits_to_float(unsigned int bits) {
  float out;
  memcpy(&out, &bits, sizeof out);
  return out;
}
SEAM_FN float seam_f16_bits_to_float(unsigned short bits) { return seam::f16_bits_to_float(bits); }
SEAM_FN unsigned short seam_float_to_bf16_bits(float x) { return seam::float_to_bf16_bits(x); }
SEAM_FN unsigned short seam_float_to_f16_bits(float x) { return seam::float_to_f16_bits(x); }
SEAM_FN unsigned short seam_double_to_bf16_bits(double x) { return seam::double_to_bf16_bits(x); }
SEAM_FN unsigned short seam_double_to_f16_bits(double x) { return seam::double_to_f16_bits(x); }

SEAM_FN double seam_double_from_bits(unsigned long long bits) {
  double out;
  memcpy(&out, &bits, sizeof out);
  return out;
}

// The first index out of range wins (docs/CODEGEN.md, "Indexing"); host kernels run on one thread.
SEAM_FN void seam_record_index_error(long long* error, int op, long long index, long long extent, int axis) {
  if (error[0] != 0) return;
  error[0] = op + 1;
  error[1] = index;
  error[2] = extent;
  error[3] = axis;
}

#include "seam_common.h"
#include "support/erfinv.h"

SEAM_FN float seam_erfinv(float a) { return (float)seam::erfinv(a); }
SEAM_FN double seam_erfinv(double a) { return seam::erfinv(a); }
SEAM_FN float seam_erfcinv(float a) { return (float)seam::erfcinv(a); }
SEAM_FN double seam_erfcinv(double a) { return seam::erfcinv(a); }

// The GPU's approximate math (seam_device.cuh) is exact on the host.
SEAM_FN float seam_exp_approx(float a) { return seam_exp(a); }
SEAM_FN float seam_log_approx(float a) { return seam_log(a); }
SEAM_FN float seam_div_approx(float a, float b) { return seam_div(a, b); }
SEAM_FN float seam_reciprocal_approx(float a) { return seam_reciprocal(a); }
SEAM_FN float seam_rsqrt_approx(float a) { return seam_rsqrt(a); }
SEAM_FN float seam_sigmoid_approx(float a) { return seam_sigmoid(a); }

template <int N, class T>
SEAM_FN void seam_load(const T* __restrict__ src, T* dst) {
  memcpy(dst, src, N * sizeof(T));
}
template <int N, class T>
SEAM_FN void seam_store(T* __restrict__ dst, const T* src) {
  memcpy(dst, src, N * sizeof(T));
}
// A vector at an unaligned offset (kir::Expr::unaligned): memcpy needs no alignment.
template <int N, class T>
SEAM_FN void seam_load_unaligned(const T* __restrict__ src, T* dst) {
  memcpy(dst, src, N * sizeof(T));
}
// Cache hints mean nothing on the host.
template <int N, class T>
SEAM_FN void seam_load_keep(const T* __restrict__ src, T* dst) {
  seam_load<N>(src, dst);
}
template <int N, class T>
SEAM_FN void seam_store_stream(T* __restrict__ dst, const T* src) {
  seam_store<N>(dst, src);
}

// A row group's fills loaded ahead (kir::RowLaunch::load_ahead), taken from the NAME_next registers.
template <int N, class T>
SEAM_FN void seam_copy_lanes(const T* src, T* dst) {
  memcpy(dst, src, N * sizeof(T));
}

// A peeled row loop's vector (kir::Expr::row_edge, Store::row_edge): only the lanes in `lanes`
// (seam_row_lanes), element by element, so that nothing outside the row is touched.
template <int N, bool Aligned, class T>
SEAM_FN void seam_load_edge(const T* __restrict__ src, T* dst, unsigned lanes) {
  for (int l = 0; l < N; ++l) {
    if ((lanes >> l) & 1u)
      memcpy(dst + l, src + l, sizeof(T));
    else
      dst[l] = T();
  }
}
template <int N, bool Stream, bool Aligned = true, class T>
SEAM_FN void seam_store_edge(T* __restrict__ dst, const T* src, unsigned lanes) {
  for (int l = 0; l < N; ++l)
    if ((lanes >> l) & 1u) memcpy(dst + l, src + l, sizeof(T));
}

// A persistent row kernel's register array on the host, where one thread's share is the whole row:
// `vectors` entries of N elements, on the heap.
template <class T, int N>
struct seam_row_cache {
  T* data;
  explicit seam_row_cache(long long vectors) : data(new T[vectors * N]) {}
  ~seam_row_cache() { delete[] data; }
  seam_row_cache(const seam_row_cache&) = delete;
  seam_row_cache& operator=(const seam_row_cache&) = delete;
  T* operator[](long long i) const { return data + i * N; }
};

// Row kernels run one thread per row on the host: combining over the row's threads is the identity.
struct seam_rows {};
template <class T>
SEAM_FN T seam_row_reduce_sum(T v, const seam_rows&) {
  return v;
}
template <class T>
SEAM_FN T seam_row_reduce_prod(T v, const seam_rows&) {
  return v;
}
template <class T>
SEAM_FN T seam_row_reduce_max(T v, const seam_rows&) {
  return v;
}
template <class T>
SEAM_FN T seam_row_reduce_min(T v, const seam_rows&) {
  return v;
}

template <bool Approx>
SEAM_FN void seam_row_reduce_online(float&, float&, const seam_rows&) {}

// Outer reductions of row kernels (seam_device.cuh has the GPU's): the host runs the grid's blocks one
// after the other, with the same workspace layout, counters and order of the sums.
inline float* seam_outer_partials(float* workspace, int reduction, long long columns, long long blocks,
                                  long long block, int header) {
  return workspace + header + ((long long)reduction * blocks + block) * columns;
}
template <int N>
struct seam_outer_row {
  float* data;
  float* operator[](long long vector) const { return data + vector * N; }
};
template <int N>
inline void seam_outer_zero(const seam_outer_row<N>& row, long long vectors) {
  for (long long i = 0; i < vectors * N; ++i) row.data[i] = 0.0f;
}
inline bool seam_outer_last_to_arrive(float* counter_word, long long arrivals) {
  unsigned int counter;
  memcpy(&counter, counter_word, sizeof counter);
  const bool last = counter == static_cast<unsigned int>(arrivals - 1);
  counter = last ? 0u : counter + 1u;
  memcpy(counter_word, &counter, sizeof counter);
  return last;
}
inline void seam_outer_sum_rows(const float* rows, long long count, long long columns, float* out) {
  for (long long c = 0; c < columns; ++c) {
    float total = rows[c];
    for (long long b = 1; b < count; ++b) total += rows[b * columns + c];
    out[c] = total;
  }
}
inline bool seam_outer_arrive(float* workspace, int reductions, long long columns, long long blocks,
                              long long block, int group_size, int header) {
  const long long groups = (blocks + group_size - 1) / group_size, group = block / group_size;
  const long long first = group * group_size;
  const long long members = blocks - first < group_size ? blocks - first : group_size;
  float* group_rows = workspace + header + (long long)reductions * blocks * columns;
  float* totals = group_rows + (long long)reductions * groups * columns;
  if (!seam_outer_last_to_arrive(workspace + 1 + group, members)) return false;
  for (int j = 0; j < reductions; ++j)
    seam_outer_sum_rows(workspace + header + ((long long)j * blocks + first) * columns, members, columns,
                        group_rows + ((long long)j * groups + group) * columns);
  if (!seam_outer_last_to_arrive(workspace, groups)) return false;
  for (int j = 0; j < reductions; ++j)
    seam_outer_sum_rows(group_rows + (long long)j * groups * columns, groups, columns,
                        totals + (long long)j * columns);
  return true;
}
inline float seam_outer_total(const float* workspace, int reduction, long long columns, long long column,
                              int reductions, long long blocks, int group_size, int header) {
  const long long groups = (blocks + group_size - 1) / group_size;
  return workspace[header + ((long long)reductions * (blocks + groups) + reduction) * columns + column];
}
