// dead_code: removes the nodes no output depends on. Inputs always stay, used or not: they are the
// calling convention.
#pragma once

#include <vector>

#include "ir/fusion.h"

namespace seam {

Fusion eliminate_dead_code(const Fusion& fusion);

// One flag per node: true when some output depends on it (an output itself included). Inputs are
// live only when used.
std::vector<bool> live_nodes(const Fusion& fusion);

}  // namespace seam
