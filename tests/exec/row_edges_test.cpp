// Row kernels at the edges of the plan (docs/CODEGEN.md, "Reductions"), on the host backend with poisoned
// outputs against the reference interpreter: rows no wide vector divides (peeled: vectors aligned to
// memory, edge lanes masked) with weights broadcast over rows, per-row values broadcast along them and
// strided inputs, persistent and streamed, f32/f16/bf16 and integers, N from 7 to 12289, M from 1 to
// many; rows over thread block clusters. The host runs one thread per row, so what it checks is the
// lowering each variant prints.
#include <gtest/gtest.h>

#include "exec/executable.h"
#include "interp/compare.h"
#include "interp/interpreter.h"
#include "plan/row_peel.h"
#include "plan/row_plan.h"
#include "testing/row_fusions.h"
#include "text/printer.h"

namespace seam {
namespace {

using enum DType;

Tolerance tolerance(DType dtype) {
  if (dtype == Float32) return {1e-5, 1e-5};
  return default_tolerance(dtype);
}

// Runs `fusion` on the host with `launch` and compares with the interpreter; returns its row launch.
kir::RowLaunch check(const Fusion& fusion, const LaunchParams& launch = {}) {
  ExecutableOptions options;
  options.backend = Backend::Host;
  options.poison_outputs = true;
  options.segment.rules.limits.max_inlined_reduction = 0;
  options.launch = launch;
  auto exe = Executable::compile(fusion, options);
  const std::vector<HostTensor> inputs = random_inputs(fusion, 11);
  const std::vector<HostTensor> expected = interpret(fusion, inputs);
  const std::vector<HostTensor> actual = exe->run(inputs);
  EXPECT_EQ(actual.size(), expected.size());
  for (size_t o = 0; o < std::min(actual.size(), expected.size()); ++o) {
    const Comparison c = compare_tensors(actual[o], expected[o], tolerance(expected[o].dtype()));
    EXPECT_TRUE(c.ok) << fusion.name() << " output " << o << ": " << c.message << "\n"
                      << print_fusion(fusion);
  }
  for (const CompiledStep& step : exe->steps())
    if (step.kernel.rows) return *step.kernel.rows;
  ADD_FAILURE() << fusion.name() << ": no row kernel";
  return {};
}

LaunchParams streamed() {
  LaunchParams p;
  p.row_persistent = false;
  return p;
}

TEST(RowEdges, RmsNormPeelsRowsNoWideVectorDivides) {
  for (DType dtype : {BFloat16, Float16, Float32}) {
    const int widest = 16 / static_cast<int>(dtype_size(dtype));
    for (int64_t n : {7, 33, 4097, 12289}) {
      const kir::RowLaunch rows = check(rms_norm_fusion(3, n, dtype));
      // Rows of at least two wide vectors are peeled at the widest vector.
      EXPECT_EQ(rows.peel, n >= 2 * widest) << dtype_name(dtype) << " N=" << n;
      if (rows.peel) {
        EXPECT_EQ(rows.vector, widest);
      }
      EXPECT_GT(rows.iterations, 0);
    }
  }
  // A row a wide vector divides is not peeled.
  const kir::RowLaunch even = check(rms_norm_fusion(2, 5000, BFloat16));
  EXPECT_FALSE(even.peel);
  EXPECT_EQ(even.vector, 8);
}

TEST(RowEdges, PeeledRowsFromOneToManyStreamedAndPersistent) {
  EXPECT_TRUE(check(rms_norm_fusion(1, 4097, BFloat16)).peel);
  EXPECT_TRUE(check(rms_norm_fusion(100, 33, BFloat16)).peel);  // every shift, many times
  EXPECT_TRUE(check(rms_norm_fusion(9, 4097, BFloat16), streamed()).peel);
  // Online max and sum when streamed: the lanes outside the row add -inf to the max, 0 to the sum.
  for (const LaunchParams& p : {LaunchParams{}, streamed()}) {
    EXPECT_TRUE(check(softmax_fusion(3, 4097, BFloat16), p).peel);
    EXPECT_TRUE(check(softmax_fusion(5, 33, Float32, true), p).peel);
  }
  // The identities of integer sums, maxima and minima.
  EXPECT_TRUE(check(integer_row_reductions(3, 33)).peel);
  EXPECT_TRUE(check(integer_row_reductions(2, 4097), streamed()).peel);
  // The knob turns the peel off: vectors of one element.
  LaunchParams unpeeled;
  unpeeled.row_peel = false;
  const kir::RowLaunch off = check(rms_norm_fusion(3, 33, BFloat16), unpeeled);
  EXPECT_FALSE(off.peel);
  EXPECT_EQ(off.vector, 1);
}

TEST(RowEdges, PeeledRowsReadStridedAndBroadcastInputsLaneByLane) {
  // x's rows 40 (then 4100) elements apart: not laid out like the rows, read lane by lane; the weight
  // [N] and the per-row bias [M, 1] broadcast along the row.
  EXPECT_TRUE(check(rms_norm_fusion(4, 33, BFloat16, 40, true)).peel);
  EXPECT_TRUE(check(rms_norm_fusion(2, 4097, Float16, 4100, true)).peel);
  EXPECT_TRUE(check(rms_norm_fusion(5, 37, Float32, 37 * 2, false), streamed()).peel);
}

// Rows over thread block clusters (thresholds forced down so that short rows take them): the row's
// threads numbered across the cluster's blocks, with and without a peel. The host runs a row on one
// thread, so this checks the lowering's bookkeeping; tests/gpu runs the combines.
TEST(RowEdges, RowsOverClusters) {
  LaunchParams small;
  small.row_cluster_above = 32;
  const kir::RowLaunch peeled = check(softmax_fusion(3, 4097, BFloat16), small);
  EXPECT_TRUE(peeled.peel);
  EXPECT_GT(peeled.cluster, 1);
  EXPECT_EQ(peeled.rows_per_block, 1);
  EXPECT_GE(static_cast<int64_t>(peeled.iterations) * peeled.threads_per_row * peeled.cluster,
            peeled.vectors());
  const kir::RowLaunch one_row = check(rms_norm_fusion(1, 8192, Float32, 0, true), small);
  EXPECT_GT(one_row.cluster, 1);
  EXPECT_FALSE(one_row.peel);
  // Capped at one block: no cluster.
  small.row_cluster_max = 1;
  EXPECT_EQ(check(softmax_fusion(3, 4097, BFloat16), small).cluster, 1);
}

// The plan's clusters at the benchmark's long rows (bf16 softmax, one input cached): 256-thread blocks of
// 64 elements each where 8 blocks suffice, else 512 threads; none where the row fits 256 threads.
TEST(RowEdges, PlanSplitsLongRowsOverClusters) {
  auto layout_of = [](int64_t m, int64_t n, int cluster_above = 1024) {
    RowPlanInput in;
    in.cluster_above = cluster_above;
    in.shape.shape = {m, n};
    in.shape.axes = {1};
    in.shape.rows = m;
    in.shape.reduced = n;
    in.shape.inner_reduced = true;
    in.smallest_element_bytes = 2;
    in.cached_bytes_per_element = 2;
    return plan_row_layout(in, plan_row_vector(in));
  };
  const RowLayout fits = layout_of(4096, 16384);
  EXPECT_EQ(fits.cluster, 1);
  EXPECT_EQ(fits.threads_per_row, 256);
  // One block holds 32768 (512 threads x 64 elements): no cluster by default (on the H200 the
  // single block ran at 95% of the floor, 2 x 256 at 74%); forced with row_cluster_above.
  const RowLayout one = layout_of(2048, 32768);
  EXPECT_EQ(one.cluster, 1);
  EXPECT_EQ(one.threads_per_row, 512);
  const RowLayout two = layout_of(2048, 32768, 256);
  EXPECT_EQ(two.cluster, 2);
  EXPECT_EQ(two.threads_per_row, 256);
  EXPECT_EQ(two.iterations, 8);
  const RowLayout four = layout_of(1024, 65536);
  EXPECT_EQ(four.cluster, 4);
  EXPECT_EQ(four.threads_per_row, 256);
  const RowLayout eight = layout_of(256, 262144);
  EXPECT_EQ(eight.cluster, 8);
  EXPECT_EQ(eight.threads_per_row, 512);
  EXPECT_EQ(eight.iterations, 8);
  const RowLayout streamed = layout_of(16, 1 << 22);  // more than a cluster's registers hold
  EXPECT_EQ(streamed.cluster, 1);
  EXPECT_EQ(streamed.iterations, 0);
}

TEST(RowEdges, PlanPeelsOnlyWhereVectorsWouldNarrow) {
  auto input = [](int64_t n, int element_bytes) {
    RowPlanInput in;
    in.shape.shape = {64, n};
    in.shape.axes = {1};
    in.shape.rows = 64;
    in.shape.reduced = n;
    in.shape.inner_reduced = true;
    in.smallest_element_bytes = element_bytes;
    in.cached_bytes_per_element = element_bytes;
    return in;
  };
  EXPECT_EQ(plan_row_peel(input(4097, 2)), 8);
  EXPECT_EQ(plan_row_peel(input(4098, 2)), 8);  // vectors of 2 (4 bytes) otherwise
  EXPECT_EQ(plan_row_peel(input(4100, 2)), 0);  // vectors of 4 (8 bytes) are kept
  EXPECT_EQ(plan_row_peel(input(4096, 2)), 0);
  EXPECT_EQ(plan_row_peel(input(4097, 4)), 4);
  EXPECT_EQ(plan_row_peel(input(7, 2)), 0);  // shorter than two vectors
  RowPlanInput narrow = input(4097, 2);
  narrow.max_vector_bytes = 4;  // the alignment class allows 4-byte accesses at most: 2 of bf16
  EXPECT_EQ(plan_row_peel(narrow), 2);
  narrow.max_vector_bytes = 2;  // one element at a time anyway
  EXPECT_EQ(plan_row_peel(narrow), 0);
  RowPlanInput outer = input(4097, 2);
  outer.shape.axes = {0};
  outer.shape.inner_reduced = false;
  EXPECT_EQ(plan_row_peel(outer), 0);
  // A peeled row's layout covers its most vectors: 4097 bf16 spans up to 513.
  const RowLayout peeled = plan_row_layout(input(4097, 2), 8, true);
  EXPECT_TRUE(peeled.peel);
  EXPECT_GE(static_cast<int64_t>(peeled.iterations) * peeled.threads_per_row, 513);
}

}  // namespace
}  // namespace seam
