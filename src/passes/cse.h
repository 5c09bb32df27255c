// cse: common subexpression elimination. Two nodes with the same op, the same (already merged) operands,
// the same attributes and the same type compute the same value, so the later one is replaced by the
// earlier one. Identical leaves (const, full, iota) merge too; inputs never do: each is a distinct
// argument of the calling convention.
#pragma once

#include <string>

#include "ir/fusion.h"
#include "passes/rewrite.h"

namespace seam {

Fusion eliminate_common_subexpressions(const Fusion& fusion);

// A string that two proposed nodes share exactly when they compute the same value by construction:
// op, operands, attributes (numbers printed round-trip exact, -0.0 apart from 0.0) and declared type.
std::string cse_key(const ProposedNode& node);

}  // namespace seam
