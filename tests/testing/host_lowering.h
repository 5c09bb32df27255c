// Lowers a fusion with lower_pointwise, runs the kernel through the host backend and compares every
// output with the interpreter (gtest expectations), for tests of lowering decisions.
#pragma once

#include <cstdint>

#include "interp/compare.h"
#include "ir/fusion.h"
#include "lower/kernel_ir.h"
#include "lower/lower_pointwise.h"

namespace seam {

// Returns the lowered kernel so that the test can inspect its decisions.
kir::Kernel lower_and_check_on_host(const Fusion& fusion, LoweringOptions options, Tolerance tolerance,
                                    uint64_t input_seed);

}  // namespace seam
