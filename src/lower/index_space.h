// Row-major index spaces: the coordinates of a tensor (or of some of its axes) and the flat index that
// enumerates them, the last axis fastest, in the kernel IR's index algebra (lower/index_algebra.h) and
// in plain integers. Chunk, row, column and reduced-element indices are flat indices of such spaces.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/type.h"
#include "lower/index_algebra.h"

namespace seam {

// The flat index of `coordinates` in a row-major space of `extents`: coordinate d times the product of
// the extents after d, summed from the innermost axis out.
kir::Index linearize(const std::vector<kir::Index>& coordinates, const Shape& extents);

// How far the flat index moves when coordinate `axis` moves by one: the product of the extents after it.
int64_t row_major_stride(const Shape& extents, size_t axis);

// The offset of `coordinates` in a tensor of `strides`: coordinate d times stride d, summed from the
// outermost axis in. Input loads fold their offsets in this order, so equal offsets print equal.
kir::Index strided_offset(const std::vector<kir::Index>& coordinates, const Shape& strides);

// Where the outermost axis has extent 1 (an inner one's coordinate is `% 1`, always 0): AtZero folds its
// coordinate to 0; FromIndex keeps it an expression of the flat index, so that a space of one row or one
// chunk prints the text of a larger one (one kernel per size class), and a row index that runs past the
// rows (the last block's spare threads) keeps the excess.
enum class UnitAxes { AtZero, FromIndex };

// The coordinates of the flat index `linear` in a row-major space of `extents`: coordinate d is
// linear / (the product of the extents after d) % extents[d], the outermost without the remainder. An
// empty space (an extent 0) gives 0 everywhere: nothing runs there, and the arithmetic would divide by 0.
std::vector<kir::Index> delinearize(const kir::Index& linear, const Shape& extents,
                                    UnitAxes unit_axes = UnitAxes::AtZero);

// The coordinates of `linear` (0 <= linear < the product of `extents`) in a row-major space of `extents`.
Shape delinearize(int64_t linear, const Shape& extents);

}  // namespace seam
