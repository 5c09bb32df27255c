// A kernel-IR pass over a branch-free chunk program: the pieces of a cat each load from the inputs under
// their own guards, and at most one piece holds at a lane, so the j-th load of each piece from the same
// input can be one load whose address is selected by the cat's boundaries. RoPE's rotate-half
// (cat(-x[d + n/2], x[d - n/2])) then issues one partner load per chunk instead of one per piece.
#pragma once

#include "lower/kernel_ir.h"

namespace seam {

// Merges sibling-piece loads in the top-level statements of `body` (innermost cats first, repeated until
// nothing merges) and returns the number of loads removed. Statements keep an order in which every let is
// defined before use; the merged load takes the place of the last load it replaces, so callers hoist loads
// before their uses afterwards (as lower_pointwise does).
int merge_guarded_loads(kir::Block& body);

}  // namespace seam
