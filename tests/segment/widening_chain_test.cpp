// Chains of widening ops of computed values (segment/mark_cheap_ops.cpp) are recomputed in each kernel
// that reads them, so the narrow root crosses kernel boundaries instead of the wide result; a row kernel
// never holds a moving chain together with its root, and the kernels still compute what the
// interpreter does (host backend).
#include <gtest/gtest.h>

#include <algorithm>

#include "segment/mark_cheap_ops.h"
#include "segment/segment.h"
#include "testing/whole_tool_check.h"
#include "text/parser.h"

namespace seam {
namespace {

// x = bf16(exp(a)) is read widened to f32 after each of two products: once by the kernel between them,
// once by the kernel after the second. Materialized, cast(x) would cross as f32 into one of them.
constexpr const char* kWidenedAcrossProducts = R"(
fusion widened_across_products {
  %a = input {name="a"} : bf16[16,64]
  %w = input {name="w"} : bf16[64,64]
  %a32 = cast %a {dtype=f32} : f32[16,64]
  %e = exp %a32 : f32[16,64]
  %x = cast %e {dtype=bf16} : bf16[16,64]
  %m1 = matmul %x, %w : bf16[16,64]
  %x32 = cast %x {dtype=f32} : f32[16,64]
  %m1_32 = cast %m1 {dtype=f32} : f32[16,64]
  %p = mul %x32, %m1_32 : f32[16,64]
  %p16 = cast %p {dtype=bf16} : bf16[16,64]
  %m2 = matmul %p16, %w : bf16[16,64]
  %m2_32 = cast %m2 {dtype=f32} : f32[16,64]
  %s = add %x32, %m2_32 : f32[16,64]
  %y = cast %s {dtype=bf16} : bf16[16,64]
  return y=%y
}
)";

// A rotary table computed in one kernel (bf16 [16, 8]) and expanded to [4, 16, 8] f32 by kernels on both
// sides of a product: the table crosses, not its expansion.
constexpr const char* kExpandedTable = R"(
fusion expanded_table {
  %pos = input {name="pos"} : f32[16,8]
  %q = input {name="q"} : bf16[4,16,8]
  %w = input {name="w"} : bf16[8,8]
  %c = cos %pos : f32[16,8]
  %t = cast %c {dtype=bf16} : bf16[16,8]
  %t32 = cast %t {dtype=f32} : f32[16,8]
  %tb = broadcast %t32 {axes=[0]} : f32[1,16,8]
  %te = expand %tb {shape=[4,16,8]} : f32[4,16,8]
  %q32 = cast %q {dtype=f32} : f32[4,16,8]
  %r = mul %q32, %te : f32[4,16,8]
  %r16 = cast %r {dtype=bf16} : bf16[4,16,8]
  %rm = reshape %r16 {shape=[64,8]} : bf16[64,8]
  %m = matmul %rm, %w : bf16[64,8]
  %m3 = reshape %m {shape=[4,16,8]} : bf16[4,16,8]
  %m32 = cast %m3 {dtype=f32} : f32[4,16,8]
  %o = mul %m32, %te : f32[4,16,8]
  %y = cast %o {dtype=bf16} : bf16[4,16,8]
  return y=%y
}
)";

// RMSNorm of a residual sum computed in the same kernel: the cast of the computed sum is a chain whose
// root sits in the row kernel, which a cast alone may (it is pointwise at the root's shape).
constexpr const char* kNormOfComputedSum = R"(
fusion norm_of_computed_sum {
  %a = input {name="a"} : bf16[8,128]
  %b = input {name="b"} : bf16[8,128]
  %w = input {name="w"} : bf16[128]
  %x = add %a, %b : bf16[8,128]
  %x32 = cast %x {dtype=f32} : f32[8,128]
  %sq = mul %x32, %x32 : f32[8,128]
  %ss = sum %sq {axes=[1], keepdim=true} : f32[8,1]
  %n = const {value=128.0} : f32
  %mean = div %ss, %n : f32[8,1]
  %r = rsqrt %mean : f32[8,1]
  %re = expand %r {shape=[8,128]} : f32[8,128]
  %xn = mul %x32, %re : f32[8,128]
  %w32 = cast %w {dtype=f32} : f32[128]
  %wb = broadcast %w32 {axes=[0]} : f32[1,128]
  %we = expand %wb {shape=[8,128]} : f32[8,128]
  %yf = mul %xn, %we : f32[8,128]
  %y = cast %yf {dtype=bf16} : bf16[8,128]
  return y=%y, x=%x
}
)";

// A loss's pick: the labels are computed (shifted with a pad, as a language model's are) and compared
// with a class index into a [rows, classes] mask that two kernels read: the row kernel summing each row's
// picked score and the column sums counting each class's rows. Recomputed in both, the [rows] labels
// cross instead of the mask.
constexpr const char* kClassCompare = R"(
fusion class_compare {
  %labels = input {name="labels"} : i64[2,8]
  %scores = input {name="scores"} : f32[16,24]
  %padded = pad %labels {low=[0,0], high=[0,1], value=-100} : i64[2,9]
  %shifted = slice %padded {starts=[0,1], stops=[2,9], steps=[1,1]} : i64[2,8]
  %target = reshape %shifted {shape=[16]} : i64[16]
  %tb = broadcast %target {axes=[1]} : i64[16,1]
  %te = expand %tb {shape=[16,24]} : i64[16,24]
  %classes = iota {start=0, step=1} : i64[24]
  %cb = broadcast %classes {axes=[0]} : i64[1,24]
  %ce = expand %cb {shape=[16,24]} : i64[16,24]
  %hit = eq %ce, %te : bool[16,24]
  %zero = full {value=0.0} : f32[16,24]
  %picked = where %hit, %scores, %zero : f32[16,24]
  %sum = sum %picked {axes=[1], keepdim=false} : f32[16]
  %ones = cast %hit {dtype=f32} : f32[16,24]
  %count = sum %ones {axes=[0], keepdim=false} : f32[24]
  return sum=%sum, count=%count, shifted=%shifted
}
)";

SegmentedFusion segment(const Fusion& fusion, bool chains) {
  SegmentOptions options = reproducible_segment_options();
  options.rules.recompute_widening_chains = chains;
  return segment_fusion(fusion, options);
}

// Bytes of the values of `dtype` that launching kernels read from other kernels (fusion inputs aside).
int64_t crossing_bytes(const SegmentedFusion& s, DType dtype) {
  int64_t total = 0;
  for (const SegmentGroup& g : s.groups) {
    if (g.kind == SchedulerKind::NoOp) continue;
    for (Value v : g.inputs)
      if (s.fusion.node(v).op != OpKind::Input && s.fusion.type(v).dtype == dtype)
        total += s.fusion.type(v).bytes();
  }
  return total;
}

TEST(WideningChains, TheNarrowRootCrossesInsteadOfItsF32Cast) {
  Fusion f = parse_fusion(kWidenedAcrossProducts);
  SegmentedFusion with = segment(f, true), without = segment(f, false);
  EXPECT_EQ(crossing_bytes(with, DType::Float32), 0);
  EXPECT_GT(crossing_bytes(without, DType::Float32), 0);
  EXPECT_LT(with.boundary_bytes(), without.boundary_bytes());
  EXPECT_LE(with.num_kernels(), without.num_kernels());
}

TEST(WideningChains, AComputedTableCrossesInsteadOfItsExpansion) {
  Fusion f = parse_fusion(kExpandedTable);
  SegmentedFusion with = segment(f, true), without = segment(f, false);
  EXPECT_EQ(crossing_bytes(with, DType::Float32), 0);
  EXPECT_LT(with.boundary_bytes(), without.boundary_bytes());
}

TEST(WideningChains, ARowKernelKeepsACastOfItsOwnValue) {
  Fusion f = parse_fusion(kNormOfComputedSum);
  SegmentedFusion s = segment(f, true);
  EXPECT_EQ(s.num_kernels(), 1);
  EXPECT_EQ(s.groups.back().kind, SchedulerKind::Normalization);
}

TEST(WideningChains, AClassCompareIsRecomputedWhereItIsRead) {
  Fusion f = parse_fusion(kClassCompare);
  const int32_t hit = 10;  // %hit, the compare
  ASSERT_EQ(f.node(Value{hit}).op, OpKind::Eq);
  EXPECT_TRUE(mark_cheap_ops(f, true)[hit]);
  EXPECT_FALSE(mark_cheap_ops(f, false)[hit]);
  SegmentedFusion with = segment(f, true);
  EXPECT_EQ(crossing_bytes(with, DType::Bool), 0);
  EXPECT_EQ(crossing_bytes(with, DType::Float32), 0);
  for (const SegmentGroup& g : with.groups) {  // both reduction kernels compute it
    EXPECT_TRUE(std::find(g.duplicated.begin(), g.duplicated.end(), hit) != g.duplicated.end());
  }
}

TEST(WideningChains, HostKernelsMatchTheInterpreter) {
  for (const char* text : {kWidenedAcrossProducts, kExpandedTable, kNormOfComputedSum, kClassCompare})
    EXPECT_EQ(host_backend_disagreement(parse_fusion(text)), "");
}

}  // namespace
}  // namespace seam
