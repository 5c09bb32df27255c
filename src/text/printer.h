// The printer of the text format (docs/FORMAT.md): the canonical form, one statement per line, values
// named %0, %1, ... by node index and attributes in schema order, so print(parse(print(f))) == print(f).
#pragma once

#include <string>

#include "ir/fusion.h"

namespace seam {

std::string print_fusion(const Fusion& fusion);

}  // namespace seam
