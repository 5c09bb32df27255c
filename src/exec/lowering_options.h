// The lowering options of a kernel from its launch parameters: the one place where LaunchParams'
// code-generation choices (vector width of the alignment class, branch-free pieces, row tiling, block
// size) reach the lowerings, for pointwise kernels and for the chunk programs of row kernels alike.
#pragma once

#include <string>

#include "lower/lower_pointwise.h"
#include "lower/lower_rows.h"
#include "schedule/launch_params.h"

namespace seam {

LoweringOptions pointwise_lowering_options(const LaunchParams& launch, std::string kernel_name);
RowLoweringOptions row_lowering_options(const LaunchParams& launch, std::string kernel_name);

}  // namespace seam
