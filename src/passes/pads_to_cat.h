// pads_to_cat: a sum of zero pads whose interiors are adjacent along one axis becomes one cat.
//   pad(a, [l, h]) + pad(b, [l + |a|, h'])        -> pad(cat(a, b), [l, h']) + 0
//   (m + pad(a, ...)) + pad(b, ...)               -> (m + pad(cat(a, b), ...)) + 0
// Autodiff writes the gradient of a slice as a zero pad and sums the pads (RoPE's backward: the two
// halves of rotate-half come back as pad(.., high=n/2) + pad(.., low=n/2)); as one cat the pieces are
// exclusive, so the lowering selects between them instead of adding two mostly-zero terms, and sibling
// loads merge (lower/merge_guarded_loads.h).
//
// Exact, bit for bit: at every element at most one pad is non-zero, so each original sum adds its one
// non-zero term and +0s; the trailing "+ 0" repeats the only effect the dropped +0 additions had (turning
// a -0 result into +0), so the results are the same values including the sign of zero.
#pragma once

#include "ir/fusion.h"

namespace seam {

Fusion pads_to_cat(const Fusion& fusion);

}  // namespace seam
