// Vector-width decisions of the pointwise lowering, and their results through the host backend.
#include <gtest/gtest.h>

#include "ir/builder.h"
#include "lower/kir_printer.h"
#include "lower/lower_pointwise.h"
#include "testing/host_lowering.h"

namespace seam {
namespace {

using enum DType;

// Lowers, runs on the host backend, compares with the interpreter; returns each output's lanes.
std::vector<int> lanes_and_check(const Fusion& fusion) {
  kir::Kernel kernel = lower_and_check_on_host(fusion, LoweringOptions{}, Tolerance{1e-6, 1e-6}, 3);
  std::vector<int> lanes;
  for (const kir::OutputProgram& p : kernel.outputs) lanes.push_back(p.lanes);
  return lanes;
}

TEST(Vectorize, ContiguousCopyUses16ByteVectors) {
  Builder b("copy");
  Value x = b.input(Type::tensor(BFloat16, {4, 64}));
  EXPECT_EQ(lanes_and_check(b.finish({b.neg(x)})), (std::vector<int>{8}));
}

// A run of lanes that starts unaligned must not cross a row of a reshaped (here: expanded) tensor: the
// elements 1 and 2 of [a,a,b,b,...] come from different rows. Found on the GPU (random fusion 7032).
TEST(Vectorize, UnalignedSliceBeforeReshapeFallsBackToScalar) {
  Builder b("unaligned");
  Value x = b.input(Type::tensor(Float32, {4}));
  Value wide = b.reshape(b.expand(b.broadcast(x, {1}), {4, 2}), {8});
  Value y = b.slice_axis(wide, 0, 1, 5);
  EXPECT_EQ(lanes_and_check(b.finish({y})), (std::vector<int>{1}));
}

TEST(Vectorize, AlignedCatOnTheVectorAxisStaysVectorized) {
  Builder b("cat");
  Value x = b.input(Type::tensor(BFloat16, {2, 64}));
  Value lo = b.slice_axis(x, 1, 0, 32), hi = b.slice_axis(x, 1, 32, 64);
  Value y = b.cat({b.neg(hi), lo}, 1);  // rotate-half, boundaries on multiples of 8
  EXPECT_EQ(lanes_and_check(b.finish({y})), (std::vector<int>{8}));
}

TEST(Vectorize, CatBoundaryInsideAVectorNarrowsTheWidth) {
  Builder b("cat_odd");
  Value x = b.input(Type::tensor(BFloat16, {2, 8}));
  Value y = b.input(Type::tensor(BFloat16, {2, 4}));
  Value z = b.input(Type::tensor(BFloat16, {2, 4}));
  Value c = b.cat({b.slice_axis(x, 1, 0, 2), y, b.slice_axis(x, 1, 2, 4), z}, 1);  // boundaries 2, 6, 8
  EXPECT_EQ(lanes_and_check(b.finish({c})), (std::vector<int>{2}));
}

// Rows of an odd width start at every alignment in turn: the load is marked unaligned (read in the widest
// accesses each address allows) and the output keeps its 8 lanes; without unaligned loads, one lane.
TEST(Vectorize, InputAtAnUnalignedOffsetKeepsTheVector) {
  Builder b("odd_rows");
  Value x = b.input(Type::tensor(BFloat16, {5, 67}));
  Value y = b.input(Type::tensor(BFloat16, {5, 64}));
  const Fusion fusion = b.finish({b.add(b.slice_axis(x, 1, 3, 67), y)});
  const kir::Kernel kernel = lower_and_check_on_host(fusion, LoweringOptions{}, Tolerance{1e-6, 1e-6}, 5);
  ASSERT_EQ(kernel.outputs.size(), 1u);
  EXPECT_EQ(kernel.outputs[0].lanes, 8);
  const std::string kir = print_kir(kernel);
  EXPECT_NE(kir.find(" unaligned"), std::string::npos) << kir;
  LoweringOptions aligned_only;
  aligned_only.unaligned_loads = false;
  EXPECT_EQ(lower_and_check_on_host(fusion, aligned_only, Tolerance{1e-6, 1e-6}, 5).outputs[0].lanes, 1);
}

// A pad whose boundary falls inside a vector (GPT-2's logits gradient, 50257 columns padded to 50304):
// the interior's vector loads read only the lanes inside (a lane mask), a per-lane select takes the pad
// value on the others, and the output keeps its 8 lanes. Under AddressSanitizer a lane read past a row's
// end in the last row would be reported.
TEST(Vectorize, PadBoundaryInsideAVectorMasksTheLanes) {
  for (const auto& [low, high] : {std::pair<int64_t, int64_t>{0, 3}, {3, 1}, {5, 0}}) {
    SCOPED_TRACE("pad low " + std::to_string(low) + " high " + std::to_string(high));
    Builder b("masked_pad");
    Value x = b.input(Type::tensor(Float32, {5, 64 - low - high}));
    Value row = b.input(Type::tensor(Float32, {5, 1}));
    Value inside = b.exp(b.add(x, b.expand(row, {5, 64 - low - high})));
    Value padded = b.pad(inside, {0, low}, {0, high}, Number::of_float(0.5));
    const Fusion fusion = b.finish({b.cast(padded, BFloat16)});
    const kir::Kernel kernel = lower_and_check_on_host(fusion, LoweringOptions{}, Tolerance{1e-2, 1e-2}, 7);
    EXPECT_EQ(kernel.outputs.at(0).lanes, 8);
    const std::string kir = print_kir(kernel);
    EXPECT_NE(kir.find("masked by"), std::string::npos) << kir;
    LoweringOptions aligned_only;
    aligned_only.unaligned_loads = false;
    EXPECT_LT(lower_and_check_on_host(fusion, aligned_only, Tolerance{1e-2, 1e-2}, 7).outputs.at(0).lanes, 8);
  }
}

// The same pad over a slice of rows of an odd width: masked and unaligned at once.
TEST(Vectorize, PadOfAnUnalignedSliceMasksAndReadsUnaligned) {
  Builder b("masked_unaligned");
  Value x = b.input(Type::tensor(BFloat16, {7, 61}));
  Value padded = b.pad(b.slice_axis(b.neg(x), 1, 2, 61), {0, 0}, {0, 5}, Number::of_float(0.0));
  const Fusion fusion = b.finish({padded});
  const kir::Kernel kernel = lower_and_check_on_host(fusion, LoweringOptions{}, Tolerance{1e-6, 1e-6}, 9);
  EXPECT_EQ(kernel.outputs.at(0).lanes, 8);
  const std::string kir = print_kir(kernel);
  EXPECT_NE(kir.find("unaligned"), std::string::npos) << kir;
}

// Rows of an odd width as outputs (GPT-2's [8192, 50257] logits): chunks of 8 per row, the last one masked,
// every store and load unaligned; the rows' per-row operand read once per chunk. Short rows keep the
// dividing width (a masked chunk would be most of the row).
TEST(Vectorize, RaggedRowsKeepTheVector) {
  Builder b("ragged");
  Value x = b.input(Type::tensor(BFloat16, {7, 203}));
  Value row = b.input(Type::tensor(Float32, {7, 1}));
  Value y = b.exp(b.mul(b.cast(x, Float32), b.expand(row, {7, 203})));
  const Fusion fusion = b.finish({b.cast(y, BFloat16), b.neg(x)});
  const kir::Kernel kernel = lower_and_check_on_host(fusion, LoweringOptions{}, Tolerance{1e-2, 1e-2}, 11);
  ASSERT_EQ(kernel.outputs.size(), 2u);
  for (const kir::OutputProgram& p : kernel.outputs) {
    EXPECT_EQ(p.lanes, 8);
    EXPECT_TRUE(p.ragged);
    EXPECT_EQ(p.chunks, 7 * 26);
  }
  EXPECT_NE(print_kir(kernel).find("masked by"), std::string::npos);
  Builder s("short_rows");
  Value z = s.input(Type::tensor(BFloat16, {7, 13}));
  EXPECT_EQ(lanes_and_check(s.finish({s.neg(z)})), (std::vector<int>{1}));
}

// A ragged output over a pad whose boundary falls inside a vector: one mask at a time, so the pad's output
// takes the narrower, dividing width.
TEST(Vectorize, RaggedRowsOverAMaskedPadNarrow) {
  Builder b("ragged_pad");
  Value x = b.input(Type::tensor(Float32, {3, 150}));
  Value padded = b.pad(b.neg(x), {0, 0}, {0, 3}, Number::of_float(1.0));  // 153 columns
  const kir::Kernel kernel =
      lower_and_check_on_host(b.finish({padded}), LoweringOptions{}, Tolerance{1e-6, 1e-6}, 13);
  EXPECT_EQ(kernel.outputs.at(0).lanes, 1);
}

TEST(Vectorize, StridedInputAlongTheVectorAxisIsScalar) {
  Builder b("strided");
  Value x = b.input(Type::tensor(Float32, {4, 8}), "x", {1, 4});  // a transposed layout
  EXPECT_EQ(lanes_and_check(b.finish({b.neg(x)})), (std::vector<int>{1}));
}

TEST(Vectorize, BroadcastAlongTheVectorAxisLoadsOnce) {
  Builder b("bcast");
  Value x = b.input(Type::tensor(Float32, {4, 1}));
  Value y = b.input(Type::tensor(Float32, {4, 8}));
  Value z = b.add(b.expand(x, {4, 8}), y);
  EXPECT_EQ(lanes_and_check(b.finish({z})), (std::vector<int>{4}));
}

}  // namespace
}  // namespace seam
