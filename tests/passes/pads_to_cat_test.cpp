#include "passes/pads_to_cat.h"

#include <gtest/gtest.h>

#include <cmath>

#include "interp/interpreter.h"
#include "ir/builder.h"
#include "passes/dead_code.h"

namespace seam {
namespace {

int count(const Fusion& f, OpKind op) {
  int n = 0;
  for (const Node& node : f.nodes()) n += node.op == op;
  return n;
}

// RoPE's backward shape: g*cos + pad(slice(g*sin, n/2:n), high=n/2) + pad(-slice(g*sin, 0:n/2), low=n/2).
Fusion rotate_half_gradient(bool adjacent = true) {
  Builder b("grad");
  Value g = b.input(Type::tensor(DType::Float32, {2, 8}), "g");
  Value s = b.input(Type::tensor(DType::Float32, {2, 8}), "s");
  Value gs = b.mul(g, s);
  Value hi = b.pad(b.slice_axis(gs, 1, 4, 8), {0, 0}, {0, 4}, Number::of_int(0));
  // Not adjacent: the interior [5, 8) leaves a gap after [0, 4).
  Value lo = b.pad(b.neg(b.slice_axis(gs, 1, 0, adjacent ? 4 : 3)), {0, adjacent ? 4 : 5}, {0, 0},
                   Number::of_int(0));
  return b.finish({b.add(b.add(b.mul(g, g), hi), lo)});
}

TEST(PadsToCat, AdjacentZeroPadsInASumBecomeOneCat) {
  Fusion before = rotate_half_gradient();
  Fusion after = eliminate_dead_code(pads_to_cat(before));
  EXPECT_EQ(count(after, OpKind::Pad), 0);
  EXPECT_EQ(count(after, OpKind::Cat), 1);
  // Same values, bit for bit (the trailing + 0 keeps the sign of zero), on inputs with signed zeros.
  HostTensor g = HostTensor::zeros(DType::Float32, {2, 8}), s = HostTensor::zeros(DType::Float32, {2, 8});
  for (int64_t i = 0; i < 16; ++i) {
    g.set_double(i, i % 3 == 0 ? -0.0 : 0.25 * static_cast<double>(i - 7));
    s.set_double(i, i % 5 == 0 ? -0.0 : 0.5 * static_cast<double>(3 - i));
  }
  HostTensor x = interpret(before, {g, s})[0], y = interpret(after, {g, s})[0];
  for (int64_t i = 0; i < 16; ++i) {
    EXPECT_EQ(x.get_double(i), y.get_double(i)) << i;
    EXPECT_EQ(std::signbit(x.get_double(i)), std::signbit(y.get_double(i))) << i;
  }
}

TEST(PadsToCat, PadsThatDoNotMeetStay) {
  Fusion after = eliminate_dead_code(pads_to_cat(rotate_half_gradient(/*adjacent=*/false)));
  EXPECT_EQ(count(after, OpKind::Cat), 0);
  EXPECT_EQ(count(after, OpKind::Pad), 2);
}

TEST(PadsToCat, NonZeroPadValueStays) {
  Builder b("f");
  Value x = b.input(Type::tensor(DType::Float32, {4}), "x");
  Value p = b.pad(b.slice_axis(x, 0, 0, 2), {0}, {2}, Number::of_float(1.0));
  Value q = b.pad(b.slice_axis(x, 0, 2, 4), {2}, {0}, Number::of_int(0));
  Fusion after = eliminate_dead_code(pads_to_cat(b.finish({b.add(p, q)})));
  EXPECT_EQ(count(after, OpKind::Cat), 0);
}

}  // namespace
}  // namespace seam
