// The Normalization predicate's pairs of row and outer reductions (schedule/outer_reduction_pair.h):
// what one row kernel can compute, and what it keeps apart.
#include "schedule/outer_reduction_pair.h"

#include <gtest/gtest.h>

#include "ir/builder.h"
#include "schedule/registry.h"

namespace seam {
namespace {

using enum DType;

bool normalization(const Fusion& f, std::vector<int32_t> group) {
  std::sort(group.begin(), group.end());
  return can_schedule(SchedulerKind::Normalization, f, group);
}

TEST(OuterReductionPair, AcceptsSumsOverTheRowsNextToRowReductions) {
  Builder b;
  Value x = b.cast(b.input(Type::tensor(BFloat16, {8, 16}), "x"), Float32);  // %1
  Value rows = b.sum(x, {1}, true);                                          // %2
  Value columns = b.sum(x, {0});                                             // %3: outer
  Value cast = b.cast(columns, BFloat16);                                    // %4: per column
  Value y = b.sub(x, b.expand(rows, {8, 16}));                               // %5, %6
  Fusion f = b.finish({cast, y});
  EXPECT_TRUE(fuses_as_outer_reduction(f, rows, columns));
  EXPECT_TRUE(fuses_as_outer_reduction(f, columns, rows));
  EXPECT_TRUE(normalization(f, {x.id, rows.id, columns.id, cast.id, y.id - 1, y.id}));
  // Heredity: without the row reduction, the cast of the outer sum stays with it.
  EXPECT_TRUE(normalization(f, {x.id, columns.id, cast.id}));
  EXPECT_EQ(complementary_part(ReductionSignature{{8, 16}, {1}}), (Shape{16}));
}

TEST(OuterReductionPair, KeepsApartWhatTheKernelCannotFinish) {
  Builder b;
  Value x = b.cast(b.input(Type::tensor(BFloat16, {8, 16}), "x"), Float32);
  Value rows = b.sum(x, {1}, true);
  Value max = b.reduce(OpKind::Max, x, {0});  // not a sum
  Value columns = b.sum(x, {0});
  Value spread = b.expand(b.broadcast(columns, {0}), {8, 16});  // read per element: after every row
  Fusion f = b.finish({rows, max, b.add(OpKind::Add, {x, spread})});
  EXPECT_FALSE(fuses_as_outer_reduction(f, rows, max));
  EXPECT_FALSE(fuses_as_outer_reduction(f, rows, columns));
  EXPECT_FALSE(normalization(f, {x.id, rows.id, columns.id}));

  Builder d;
  Value x64 = d.input(Type::tensor(Float64, {8, 16}), "x");  // an f64 sum: not an f32 accumulator
  Fusion g = d.finish({d.sum(x64, {1}), d.sum(x64, {0})});
  EXPECT_FALSE(fuses_as_outer_reduction(g, g.outputs()[0].value, g.outputs()[1].value));

  Builder s;  // square: the rows' and the columns' shapes are the same
  Value sq = s.input(Type::tensor(Float32, {16, 16}), "x");
  Fusion h = s.finish({s.sum(sq, {1}), s.sum(sq, {0})});
  EXPECT_FALSE(fuses_as_outer_reduction(h, h.outputs()[0].value, h.outputs()[1].value));

  Builder z;  // no rows: nothing would launch, yet the sums over the rows are zeros to write
  Value empty = z.input(Type::tensor(Float32, {0, 16}), "x");
  Fusion e = z.finish({z.sum(empty, {1}), z.sum(empty, {0})});
  EXPECT_FALSE(fuses_as_outer_reduction(e, e.outputs()[0].value, e.outputs()[1].value));

  Builder o;  // overlapping axes
  Value x3 = o.input(Type::tensor(Float32, {4, 8, 16}), "x");
  Fusion k = o.finish({o.sum(x3, {1, 2}), o.sum(x3, {0, 1})});
  EXPECT_FALSE(fuses_as_outer_reduction(k, k.outputs()[0].value, k.outputs()[1].value));
}

}  // namespace
}  // namespace seam
