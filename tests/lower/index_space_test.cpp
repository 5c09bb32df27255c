// Row-major index spaces (lower/index_space.h): delinearize and linearize are inverse on every flat index
// of a space, agree with the integer delinearize, keep or fold extent-1 axes as asked, and give 0 in an
// empty space instead of dividing by 0.
#include "lower/index_space.h"

#include <gtest/gtest.h>

namespace seam {
namespace {

using kir::Index;

std::vector<int64_t> values(const std::vector<Index>& coordinates) {
  std::vector<int64_t> out;
  for (const Index& c : coordinates) {
    const std::optional<int64_t> v = kir::constant_value(c);
    EXPECT_TRUE(v.has_value()) << kir::to_string(c);
    out.push_back(v.value_or(-1));
  }
  return out;
}

int64_t product(const Shape& extents) {
  int64_t p = 1;
  for (int64_t e : extents) p *= e;
  return p;
}

TEST(IndexSpace, DelinearizeAndLinearizeAreInverse) {
  for (const Shape& extents : {Shape{}, Shape{5}, Shape{3, 4}, Shape{2, 1, 3, 4}, Shape{1, 6}, Shape{4, 1}}) {
    for (int64_t linear = 0; linear < product(extents); ++linear) {
      const std::vector<Index> coordinates = delinearize(kir::constant(linear), extents);
      EXPECT_EQ(values(coordinates), delinearize(linear, extents)) << linear;
      EXPECT_EQ(kir::constant_value(linearize(coordinates, extents)), linear);
      // Row-major: the last axis fastest.
      const Shape at = delinearize(linear, extents);
      int64_t flat = 0;
      for (size_t d = 0; d < extents.size(); ++d) flat += at[d] * row_major_stride(extents, d);
      EXPECT_EQ(flat, linear);
      EXPECT_EQ(kir::constant_value(strided_offset(coordinates, contiguous_strides(extents))), linear);
    }
  }
}

TEST(IndexSpace, TheOutermostCoordinateTakesNoRemainder) {
  const Index i = kir::variable("i");  // unbounded: nothing folds
  const std::vector<Index> c = delinearize(i, {2, 3, 4});
  EXPECT_EQ(kir::to_string(c[0]), kir::to_string(kir::div(i, 12)));
  EXPECT_EQ(kir::to_string(c[1]), kir::to_string(kir::mod(kir::div(i, 4), 3)));
  EXPECT_EQ(kir::to_string(c[2]), kir::to_string(kir::mod(i, 4)));
}

TEST(IndexSpace, UnitAxesFoldOnlyWhenAsked) {
  const Index row = kir::variable("row", int64_t{1} << 31);  // runs past the 8 rows
  const std::vector<Index> folded = delinearize(row, {1, 8});
  EXPECT_EQ(kir::constant_value(folded[0]), 0);
  const std::vector<Index> kept = delinearize(row, {1, 8}, UnitAxes::FromIndex);
  EXPECT_EQ(kir::to_string(kept[0]), kir::to_string(kir::div(row, 8)));
  EXPECT_EQ(kir::to_string(kept[1]), kir::to_string(folded[1]));
  // An inner axis of extent 1 is 0 either way (% 1).
  EXPECT_EQ(kir::constant_value(delinearize(row, {8, 1}, UnitAxes::FromIndex)[1]), 0);
}

TEST(IndexSpace, AnEmptySpaceGivesZeros) {
  EXPECT_EQ(values(delinearize(kir::variable("i"), {3, 0, 2})), (std::vector<int64_t>{0, 0, 0}));
}

}  // namespace
}  // namespace seam
