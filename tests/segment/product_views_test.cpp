// Views of computed values that only matrix products read (segment/mark_cheap_ops.cpp): the product reads
// the value in place through a transpose flag or leading dimension, so the kernel that computes it writes
// it once instead of also writing the view; views the library cannot read in place, or that another
// kernel also reads, stay values a kernel writes; and the kernels still compute what the interpreter does.
#include <gtest/gtest.h>

#include <algorithm>

#include "segment/segment.h"
#include "testing/whole_tool_check.h"
#include "text/parser.h"

namespace seam {
namespace {

// A linear layer's backward: the incoming gradient g is computed by a pointwise kernel (bf16 [4, 16, 32]),
// flattened to rows and read by the input gradient (g @ W) and, transposed, by the weight gradient
// (g^T @ x).
constexpr const char* kWeightGradient = R"(
fusion weight_gradient {
  %dy = input {name="dy"} : bf16[4,16,32]
  %h = input {name="h"} : bf16[4,16,32]
  %x = input {name="x"} : bf16[64,24]
  %w = input {name="w"} : bf16[32,24]
  %dy32 = cast %dy {dtype=f32} : f32[4,16,32]
  %h32 = cast %h {dtype=f32} : f32[4,16,32]
  %s = sigmoid %h32 : f32[4,16,32]
  %g32 = mul %dy32, %s : f32[4,16,32]
  %g = cast %g32 {dtype=bf16} : bf16[4,16,32]
  %rows = reshape %g {shape=[64,32]} : bf16[64,32]
  %dx = matmul %rows, %w : bf16[64,24]
  %gt = permute %rows {perm=[1,0]} : bf16[32,64]
  %dw = matmul %gt, %x : bf16[32,24]
  return dx=%dx, dw=%dw
}
)";

// The same gradient also read transposed by a pointwise kernel: the transpose is written once for both.
constexpr const char* kTransposeAlsoReadByAKernel = R"(
fusion transpose_also_read_by_a_kernel {
  %h = input {name="h"} : bf16[64,32]
  %x = input {name="x"} : bf16[64,24]
  %h32 = cast %h {dtype=f32} : f32[64,32]
  %e = exp %h32 : f32[64,32]
  %g = cast %e {dtype=bf16} : bf16[64,32]
  %gt = permute %g {perm=[1,0]} : bf16[32,64]
  %dw = matmul %gt, %x : bf16[32,24]
  %gt32 = cast %gt {dtype=f32} : f32[32,64]
  %n = neg %gt32 : f32[32,64]
  return dw=%dw, n=%n
}
)";

// Every other column of a computed value: neither matrix axis is contiguous, so no GEMM layout reads it.
constexpr const char* kStridedColumns = R"(
fusion strided_columns {
  %h = input {name="h"} : f32[16,64]
  %w = input {name="w"} : f32[32,8]
  %e = exp %h : f32[16,64]
  %cols = slice %e {starts=[0,0], stops=[16,64], steps=[1,2]} : f32[16,32]
  %y = matmul %cols, %w : f32[16,8]
  return y=%y
}
)";

// Attention's gradient: [b, h, T, d] computed, permuted to [b, T, h, d] and flattened to rows [b*T, h*d],
// which no strides express over the [b, h, T, d] value. The rows are written once (the input gradient
// reads them); the weight gradient reads their transpose in place, over the written rows.
constexpr const char* kHeadsFlattened = R"(
fusion heads_flattened {
  %dq = input {name="dq"} : bf16[2,4,8,16]
  %x = input {name="x"} : bf16[16,24]
  %w = input {name="w"} : bf16[64,24]
  %dq32 = cast %dq {dtype=f32} : f32[2,4,8,16]
  %s = mul %dq32, %dq32 : f32[2,4,8,16]
  %g = cast %s {dtype=bf16} : bf16[2,4,8,16]
  %p = permute %g {perm=[0,2,1,3]} : bf16[2,8,4,16]
  %rows = reshape %p {shape=[16,64]} : bf16[16,64]
  %dx = matmul %rows, %w : bf16[16,24]
  %rt = permute %rows {perm=[1,0]} : bf16[64,16]
  %dw = matmul %rt, %x : bf16[64,24]
  return dx=%dx, dw=%dw
}
)";

SegmentedFusion segment(const char* text) {
  return segment_fusion(parse_fusion(text), reproducible_segment_options());
}

// The values launching kernels write for other kernels or as outputs, by the op that computes them.
std::vector<OpKind> written_ops(const SegmentedFusion& s) {
  std::vector<OpKind> ops;
  for (const SegmentGroup& g : s.groups) {
    if (g.kind == SchedulerKind::NoOp || g.kind == SchedulerKind::Matmul) continue;
    for (Value v : g.outputs) ops.push_back(s.fusion.node(v).op);
  }
  return ops;
}

TEST(ProductViews, TheWeightGradientReadsTheGradientTransposedInPlace) {
  SegmentedFusion s = segment(kWeightGradient);
  EXPECT_EQ(s.num_kernels(), 3);  // the pointwise kernel and the two products
  const std::vector<OpKind> written = written_ops(s);
  ASSERT_EQ(written.size(), 1u);  // the flattened gradient, once: not its transpose
  EXPECT_NE(written[0], OpKind::Permute);
  // The pointwise kernel reads dy and h and writes g: 3 x 2048 bf16.
  for (const SegmentGroup& g : s.groups) {
    if (g.kind == SchedulerKind::Pointwise) {
      EXPECT_EQ(g.boundary_bytes, 3 * 2048 * 2);
    }
  }
}

TEST(ProductViews, ATransposeAnotherKernelReadsIsWrittenOnce) {
  SegmentedFusion s = segment(kTransposeAlsoReadByAKernel);
  const std::vector<OpKind> written = written_ops(s);
  EXPECT_EQ(std::count(written.begin(), written.end(), OpKind::Permute), 1);
  EXPECT_EQ(s.num_kernels(), 2);
  for (const SegmentGroup& g : s.groups) {
    if (g.kind == SchedulerKind::Matmul) {
      EXPECT_TRUE(g.duplicated.empty());
    }
  }
}

TEST(ProductViews, AViewWithoutAGemmLayoutIsWrittenOut) {
  SegmentedFusion s = segment(kStridedColumns);
  const std::vector<OpKind> written = written_ops(s);
  EXPECT_EQ(std::count(written.begin(), written.end(), OpKind::Slice), 1);
}

TEST(ProductViews, AViewOfAWrittenViewIsReadOverIt) {
  SegmentedFusion s = segment(kHeadsFlattened);
  const std::vector<OpKind> written = written_ops(s);
  ASSERT_EQ(written.size(), 1u) << "the rows, not also their transpose";
  EXPECT_EQ(written[0], OpKind::Reshape);
  EXPECT_EQ(s.num_kernels(), 3);
}

TEST(ProductViews, HostKernelsMatchTheInterpreter) {
  for (const char* text : {kWeightGradient, kTransposeAlsoReadByAKernel, kStridedColumns, kHeadsFlattened})
    EXPECT_EQ(host_backend_disagreement(parse_fusion(text)), "");
}

}  // namespace
}  // namespace seam
