// The IR verifier: re-checks a whole fusion. Builder::finish runs it; tests run it after every pass.
#pragma once

#include "ir/fusion.h"

namespace seam {

// Throws seam::Error naming the first offending value: operands defined after use, attributes out of
// schema order, a stored type that differs from the inferred one, bad or duplicate outputs.
void verify(const Fusion& fusion);

// True when `name` may name a fusion, an input or an output: [A-Za-z_][A-Za-z0-9_.]*
bool is_identifier(std::string_view name);

}  // namespace seam
