// A kernel-IR pass over a branch-free chunk program: the pieces of a cat each load under their own guards,
// and at most one piece holds at a lane, so the j-th load of each piece can be one load whose address is
// selected by the cat's boundaries. RoPE's rotate-half (cat(-x[d + n/2], x[d - n/2])) then issues one
// partner load per chunk instead of one per piece, and the q/k/v pieces of RoPE's backward output read
// their three gradients through one load with a selected pointer.
//
// Two rounds, each repeated until nothing merges (innermost cats first): loads of the same input (the
// offset is selected), then loads of different inputs of one dtype (the pointer is selected). Only
// adjacent pieces merge; a merged load spanning some of a cat's pieces keeps a guard for that span.
#pragma once

#include "lower/kernel_ir.h"

namespace seam {

// Merges sibling-piece loads in the top-level statements of `body` and returns the number of loads
// removed. Lets stay defined before use; the merged load takes the place of the last load it replaces, so
// callers hoist loads before their uses afterwards (as lower_output_program does).
int merge_guarded_loads(kir::Block& body);

}  // namespace seam
