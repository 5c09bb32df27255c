// Fusions that use the random ops (docs/RANDOM.md) in the ways a kernel can read them: dropout with
// run-time seed and offset, every dtype, reads through movement ops (permuted, sliced, broadcast,
// reshaped, concatenated), reductions over random values, vector-width rows, seeds at the edges of their
// range. The host backend and the GPU must give the interpreter's values bit for bit on each.
#pragma once

#include <string>
#include <vector>

#include "ir/fusion.h"

namespace seam {

std::vector<Fusion> random_ops_fusions();

}  // namespace seam
