#include "plan/row_cluster.h"

#include <algorithm>

namespace seam {
namespace {

// A clustered block's preferred threads: 256 x 64 elements, what runs RMSNorm at 94-99% for N = 4096-16384.
constexpr int64_t kClusterBlockThreads = 256;

}  // namespace

std::optional<RowLayout> plan_row_cluster(const RowPlanInput& in, int vector, int64_t vectors) {
  if (in.cluster_max < 2 || !in.shape.inner_reduced) return std::nullopt;
  const int64_t bytes_per_iteration = static_cast<int64_t>(vector) * in.cached_bytes_per_element;
  // Whether `threads` threads of a block, `iterations` vectors each, keep them in registers (65536 per
  // multiprocessor over the block, at most 255 a thread, kReservedRegisters for the rest).
  auto fits = [&](int64_t threads, int64_t iterations) {
    const int64_t registers = std::min<int64_t>(255, 65536 / threads);
    return iterations * bytes_per_iteration / 4 + kReservedRegisters <= registers;
  };
  auto layout = [&](int cluster, int64_t threads, int64_t elements) -> std::optional<RowLayout> {
    const int64_t iterations = ceil_div(ceil_div(vectors, cluster), threads);
    if (iterations * vector > elements || !fits(threads, iterations)) return std::nullopt;
    RowLayout l;
    l.vector = vector;
    l.lanes_contiguous = true;
    l.rows_per_block = 1;
    l.threads_per_row = static_cast<int>(threads);
    l.iterations = static_cast<int>(iterations);
    l.cluster = cluster;
    return l;
  };
  std::optional<RowLayout> chosen;
  for (int cluster = 2; cluster <= in.cluster_max && !chosen; cluster *= 2)
    for (int64_t threads = 32;
         threads <= std::min<int64_t>(in.cluster_above, kClusterBlockThreads) && !chosen; threads *= 2)
      chosen = layout(cluster, threads, kPreferredRowElements);
  for (int64_t elements : {kPreferredRowElements, 2 * kPreferredRowElements})
    for (int64_t threads = 32; threads <= 1024 && !chosen; threads *= 2)
      for (int cluster = 2; cluster <= in.cluster_max && !chosen; cluster *= 2)
        chosen = layout(cluster, threads, elements);
  if (!chosen) return std::nullopt;
  // Too few rows to give every multiprocessor a few warps (decode): larger clusters, each block a
  // smaller slice.
  const int64_t threads_wanted = static_cast<int64_t>(in.sm_count) * 256;
  const int64_t rows = std::max<int64_t>(in.shape.rows, 1);
  while (chosen->cluster * 2 <= in.cluster_max &&
         rows * chosen->cluster * chosen->threads_per_row < threads_wanted &&
         static_cast<int64_t>(chosen->cluster) * 2 * chosen->threads_per_row <= vectors) {
    chosen->cluster *= 2;
    chosen->iterations =
        static_cast<int>(ceil_div(ceil_div(vectors, chosen->cluster), chosen->threads_per_row));
  }
  return chosen;
}

}  // namespace seam
