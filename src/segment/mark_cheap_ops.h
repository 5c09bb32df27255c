// Marks ops cheap enough to be recomputed in every kernel that consumes them instead of being
// materialized: the segmenter then lets such an op's (smaller) operand cross a kernel boundary.
#pragma once

#include <vector>

#include "ir/fusion.h"

namespace seam {

// One flag per node of `fusion`, true when the node may be duplicated into each consuming kernel.
// `widening_chains`: also chains of widening ops of computed values (rule in mark_cheap_ops.cpp).
std::vector<bool> mark_cheap_ops(const Fusion& fusion, bool widening_chains = true);

}  // namespace seam
