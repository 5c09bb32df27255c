// Row kernels with outer reductions (lower/outer_reductions.h): normalization backward's weight
// gradients, sums over the rows, in the launch that computes dx. On the host backend (which runs the
// grid's blocks one after the other with the GPU's workspace, counter and order of the final sum) with
// poisoned outputs against the reference interpreter: RMSNorm and LayerNorm backward and a plain
// sum over each axis of one tensor; bf16 and f32; persistent and streamed rows; grids of one block
// (every block loops over many rows) up to one block per group of rows (the last block's spare
// slots idle). Shapes where the rows, a row and the whole tensor do not differ without extent-1 axes
// (M or N of 1) keep the outer sums in a kernel of their own (schedule/outer_reduction_pair.h).
#include <gtest/gtest.h>

#include "exec/executable.h"
#include "interp/compare.h"
#include "interp/interpreter.h"
#include "ir/builder.h"
#include "testing/norm_backward.h"
#include "text/printer.h"

namespace seam {
namespace {

using enum DType;

Tolerance tolerance(DType dtype) {
  if (dtype == Float32) return {1e-4, 1e-4};  // sums of up to 4099 rows, in another order
  return default_tolerance(dtype);
}

// Whether M x N gives the outer sums a kernel with the rows (outer_reduction_pair.h, condition 3).
bool fuses(int64_t m, int64_t n) { return m > 1 && n > 1 && m != n; }

void check(const Fusion& fusion, size_t outer_sums, int sm_count, bool persistent) {
  ExecutableOptions options;
  options.backend = Backend::Host;
  options.poison_outputs = true;
  options.segment.rules.limits.max_inlined_reduction = 0;
  options.launch.sm_count = sm_count;
  options.launch.row_persistent = persistent;
  const Shape& shape = fusion.type(fusion.inputs()[0]).shape;
  const std::string context = fusion.name() + " " + shape_to_string(shape) + " " +
                              std::string(dtype_name(fusion.type(fusion.inputs()[0]).dtype)) + " sm_count " +
                              std::to_string(sm_count) + (persistent ? " persistent" : " streamed");
  auto exe = Executable::compile(fusion, options);
  if (fuses(shape[0], shape[1])) {
    ASSERT_EQ(exe->steps().size(), 1u) << context;
    const CompiledStep& step = exe->steps()[0];
    ASSERT_TRUE(step.kernel.rows.has_value()) << context;
    const kir::RowLaunch& rows = *step.kernel.rows;
    EXPECT_EQ(rows.outer.size(), outer_sums) << context;
    EXPECT_EQ(step.grid.blocks, rows.partial_blocks) << context;
    EXPECT_LE(rows.partial_blocks, (rows.rows + rows.rows_per_block - 1) / rows.rows_per_block) << context;
    EXPECT_EQ(step.workspace_bytes, kir::workspace_bytes(step.kernel)) << context;
    if (!persistent) {
      EXPECT_EQ(rows.iterations, 0) << context;
    }
  }
  const std::vector<HostTensor> inputs = random_inputs(fusion, 7);
  const std::vector<HostTensor> expected = interpret(fusion, inputs);
  // Twice: the first run leaves the counter zero for the next.
  for (int run = 0; run < 2; ++run) {
    const std::vector<HostTensor> actual = exe->run(inputs);
    ASSERT_EQ(actual.size(), expected.size());
    for (size_t o = 0; o < actual.size(); ++o) {
      const Comparison c = compare_tensors(actual[o], expected[o], tolerance(expected[o].dtype()));
      EXPECT_TRUE(c.ok) << context << " run " << run << " output " << o << ": " << c.message;
    }
  }
}

// Every row count with a short row, every row length with 17 rows, and a few more.
const std::vector<std::pair<int64_t, int64_t>> kShapes = {
    {1, 64}, {2, 64},    {3, 64},    {17, 64},  {1000, 64}, {4099, 64}, {17, 1},
    {17, 7}, {17, 4096}, {17, 5000}, {3, 5000}, {1000, 7},  {4099, 7}};

TEST(OuterReduction, RmsNormBackward) {
  for (auto [m, n] : kShapes) {
    check(rmsnorm_backward(m, n, BFloat16), 1, 132, true);
    check(rmsnorm_backward(m, n, Float32), 1, 1, true);
  }
  check(rmsnorm_backward(1000, 4096, BFloat16), 1, 132, true);  // many blocks, groups of them
}

TEST(OuterReduction, LayerNormBackward) {
  for (size_t i = 0; i < kShapes.size(); ++i) {
    const auto [m, n] = kShapes[i];
    if (i % 2)
      check(layernorm_backward(m, n, Float32), 2, 3, true);
    else
      check(layernorm_backward(m, n, BFloat16), 2, 132, true);
  }
}

TEST(OuterReduction, SumsOverBothAxes) {
  for (size_t i = 0; i < kShapes.size(); ++i) {
    const auto [m, n] = kShapes[i];
    check(both_axes(m, n, i % 2 ? Float32 : BFloat16), 1, i % 3 ? 132 : 2, true);
  }
}

// The next row group loaded ahead into registers (LaunchParams::row_load_ahead; kir::RowLaunch::
// load_ahead) with the share and blocks per multiprocessor set by their knobs: blocks looping over many
// row groups, per-row scalars loaded ahead with the vectors, vectors of one element (rows of 7), a block
// per row group (no loop: nothing loaded ahead). The host takes each row's fills through the same
// next-group arrays.
TEST(OuterReduction, LoadedAhead) {
  struct Case {
    int64_t m, n;
    int share, threads_per_sm;
    bool ahead;
  };
  for (const Case& c : std::vector<Case>{{1000, 64, 0, 0, true},
                                         {4099, 64, 16, 768, true},
                                         {300, 2048, 8, 1024, true},
                                         {300, 4096, 16, 1024, true},
                                         {1000, 7, 0, 0, true},
                                         {2, 64, 0, 0, false}}) {
    ExecutableOptions options;
    options.backend = Backend::Host;
    options.poison_outputs = true;
    options.segment.rules.limits.max_inlined_reduction = 0;
    options.launch.sm_count = c.m == 2 ? 132 : 2;
    options.launch.row_load_ahead = true;
    options.launch.row_outer_share = c.share;
    options.launch.row_outer_threads_per_sm = c.threads_per_sm;
    for (const Fusion& fusion :
         {rmsnorm_backward(c.m, c.n, BFloat16), layernorm_backward(c.m, c.n, Float32)}) {
      const std::string context = fusion.name() + " " + std::to_string(c.m) + "x" + std::to_string(c.n);
      auto exe = Executable::compile(fusion, options);
      ASSERT_EQ(exe->steps().size(), 1u) << context;
      const kir::RowLaunch& rows = *exe->steps()[0].kernel.rows;
      EXPECT_EQ(rows.load_ahead, c.ahead) << context;
      if (c.share > 0) {
        EXPECT_LE(rows.iterations * rows.vector, c.share) << context;
      }
      if (c.threads_per_sm > 0) {
        EXPECT_EQ(rows.min_blocks_per_sm, c.threads_per_sm / rows.block_size()) << context;
      }
      const std::vector<HostTensor> inputs = random_inputs(fusion, 5);
      const std::vector<HostTensor> expected = interpret(fusion, inputs);
      const std::vector<HostTensor> actual = exe->run(inputs);
      for (size_t o = 0; o < actual.size(); ++o) {
        const Comparison cmp = compare_tensors(actual[o], expected[o], tolerance(expected[o].dtype()));
        EXPECT_TRUE(cmp.ok) << context << " output " << o << ": " << cmp.message;
      }
    }
  }
}

// Rows that no 16-byte vector divides (hidden sizes 1025, 4097): peeled by columns, a thread's vectors
// the same columns in every row (its accumulators stay per column), loads and stores of x, dy and dx in
// the accesses each row's alignment allows, the last vector masked; the workspace rows padded to whole
// vectors. Persistent and streamed, bf16 (vectors of 8) and f32 (4).
TEST(OuterReduction, PeeledByColumns) {
  for (auto [m, n] : std::vector<std::pair<int64_t, int64_t>>{{120, 4097}, {17, 1025}, {1000, 33}, {5, 19}})
    for (bool persistent : {true, false}) {
      ExecutableOptions options;
      options.backend = Backend::Host;
      options.poison_outputs = true;
      options.segment.rules.limits.max_inlined_reduction = 0;
      options.launch.sm_count = 2;
      options.launch.row_persistent = persistent;
      for (const Fusion& fusion : {rmsnorm_backward(m, n, BFloat16), layernorm_backward(m, n, Float32)}) {
        const std::string context = fusion.name() + " " + std::to_string(m) + "x" + std::to_string(n) +
                                    (persistent ? " persistent" : " streamed");
        auto exe = Executable::compile(fusion, options);
        ASSERT_EQ(exe->steps().size(), 1u) << context;
        const kir::RowLaunch& rows = *exe->steps()[0].kernel.rows;
        EXPECT_TRUE(rows.peel && rows.peel_columns) << context;
        EXPECT_EQ(rows.outer_columns() % rows.vector, 0) << context;
        const std::vector<HostTensor> inputs = random_inputs(fusion, 9);
        const std::vector<HostTensor> expected = interpret(fusion, inputs);
        for (int run = 0; run < 2; ++run) {
          const std::vector<HostTensor> actual = exe->run(inputs);
          for (size_t o = 0; o < actual.size(); ++o) {
            const Comparison cmp = compare_tensors(actual[o], expected[o], tolerance(expected[o].dtype()));
            EXPECT_TRUE(cmp.ok) << context << " run " << run << " output " << o << ": " << cmp.message;
          }
        }
      }
    }
}

// Streamed rows accumulate in the block's workspace row (a block holds one row).
TEST(OuterReduction, Streamed) {
  for (auto [m, n] : std::vector<std::pair<int64_t, int64_t>>{{3, 64}, {17, 5000}, {1000, 7}, {4099, 64}}) {
    check(rmsnorm_backward(m, n, BFloat16), 1, 132, false);
    check(layernorm_backward(m, n, Float32), 2, 1, false);
    check(both_axes(m, n, Float32), 1, 3, false);
  }
}

// A sum over leading axes alone in its kernel (a weight gradient the segmenter left apart) runs as the
// outer reduction of rows over the kept axes: a grid sized by the multiprocessors, each block's rows
// read along the row in vectors, partials combined by the last block; short row counts, other
// reductions and other accumulators keep the strided layout (a thread per column).
TEST(OuterReduction, LoneColumnSumsRunAsOuterReductions) {
  struct Case {
    Shape shape;
    int64_t axes;
    DType dtype;
    OpKind reduction;
    DType accumulator;
    bool outer;
  };
  for (const Case& c : std::vector<Case>{{{300, 512}, 1, BFloat16, OpKind::Sum, Float32, true},
                                         {{300, 64}, 1, Float32, OpKind::Sum, Float32, true},
                                         {{4, 75, 96}, 2, BFloat16, OpKind::Sum, Float32, true},
                                         {{256, 1000}, 1, BFloat16, OpKind::Sum, Float32, true},
                                         {{260, 1025}, 1, BFloat16, OpKind::Sum, Float32, true},
                                         {{100, 512}, 1, BFloat16, OpKind::Sum, Float32, false},
                                         {{256, 16392}, 1, BFloat16, OpKind::Sum, Float32, false},
                                         {{300, 64}, 1, Float32, OpKind::Max, Float32, false},
                                         {{300, 64}, 1, Float64, OpKind::Sum, Float64, false}}) {
    const Fusion fusion = weight_gradient_alone(c.shape, c.axes, c.dtype, c.reduction, c.accumulator);
    const std::string context = shape_to_string(c.shape) + " over " + std::to_string(c.axes) + " axes, " +
                                std::string(dtype_name(c.dtype)) + (c.outer ? " (outer)" : " (strided)");
    for (int sm_count : {2, 132}) {
      ExecutableOptions options;
      options.backend = Backend::Host;
      options.poison_outputs = true;
      options.segment.rules.limits.max_inlined_reduction = 0;
      options.launch.sm_count = sm_count;
      options.launch.row_persistent = sm_count > 2;  // streamed rows on the small grid
      auto exe = Executable::compile(fusion, options);
      ASSERT_EQ(exe->steps().size(), 1u) << context;
      const CompiledStep& step = exe->steps()[0];
      ASSERT_TRUE(step.kernel.rows.has_value()) << context;
      const kir::RowLaunch& rows = *step.kernel.rows;
      EXPECT_EQ(rows.outer.size(), c.outer ? 1u : 0u) << context;
      if (c.outer) {
        EXPECT_EQ(step.grid.blocks, rows.partial_blocks) << context;
        EXPECT_TRUE(rows.lanes_contiguous) << context;
      }
      if (c.shape.back() > 4096) continue;  // the plan is the point; running it adds seconds, not coverage
      const std::vector<HostTensor> inputs = random_inputs(fusion, 11);
      const std::vector<HostTensor> expected = interpret(fusion, inputs);
      for (int run = 0; run < 2; ++run) {
        const std::vector<HostTensor> actual = exe->run(inputs);
        ASSERT_EQ(actual.size(), expected.size());
        const Comparison cmp = compare_tensors(actual[0], expected[0], tolerance(expected[0].dtype()));
        EXPECT_TRUE(cmp.ok) << context << " sm_count " << sm_count << " run " << run << ": " << cmp.message;
      }
    }
  }
}

}  // namespace
}  // namespace seam
