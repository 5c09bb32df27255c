// The parameters every lowered kernel starts from: one per kernel-fusion input (buffer or scalar, in
// input order), then one per output; and whether its index arithmetic needs 64 bits.
#pragma once

#include <vector>

#include "ir/fusion.h"
#include "lower/kernel_ir.h"

namespace seam {

// Appends the parameters to `kernel` and sets kernel.index64 from the largest extent any index reaches
// (outputs, input spans through their strides, every value's elements, and `other_extent`, e.g. a row
// kernel's reduced shape). Returns, per node id, the parameter index of each input (-1 for other nodes).
std::vector<int> declare_kernel_params(const Fusion& fusion, kir::Kernel& kernel, int64_t other_extent = 0);

}  // namespace seam
