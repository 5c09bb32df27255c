// A kernel-IR pass: a value computed twice from the same arguments in one scope (two casts of one load,
// which the fusion spells as casts of different slices that meet at the same address; RoPE backward's
// cos/sin loads, one per summed head) is computed once.
// NVRTC would merge them too; doing it here keeps its input, and its compile time, smaller, with the same
// cubin byte for byte on every RoPE kernel and the transformer stack (docs/CODEGEN.md, "The kernel IR").
#pragma once

#include "lower/kernel_ir.h"

namespace seam {

// Removes recomputations of loads (inputs are read-only: same address, same guards), literals, converts,
// calls and selects in `body` and its nested blocks (a value defined in a block serves that block and the
// blocks inside it), renaming their uses. Values that read a variable assigned anywhere (Declare/Assign)
// are left alone. In-bounds tests stay: merging them changed ptxas's output for GQA backward (checked by
// comparing cubins). Returns the number of statements removed.
int cse_values(kir::Block& body);

}  // namespace seam
