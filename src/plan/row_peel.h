// Whether a row kernel peels its rows (lower/row_peel.h; docs/CODEGEN.md, "Reductions"): the plan's
// choice between the widest vector that divides the row and a wider one aligned to memory whose edge
// lanes are masked.
#pragma once

#include "plan/row_plan.h"

namespace seam {

// The vector a peeled row kernel reads at, 0 for none. Peeled: the rows allow it (lower/row_peel.h), the
// knob row_peel is on, and the widest vector of the row's smallest element (16 bytes or the alignment
// class) is wider than the widest that divides the row and that one loads fewer than kPeelBelowBytes;
// rows of at least two such vectors.
int plan_row_peel(const RowPlanInput& in);

// Accesses narrower than this (bytes) make a peel worth its masks: 8-byte vectors already run the
// row kernels near the copy floor, 2- and 4-byte ones at a fraction of it.
constexpr int kPeelBelowBytes = 8;

}  // namespace seam
