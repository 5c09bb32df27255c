// A literal of the kernel IR (a Number, as kir::Expr holds it) as C++ source for generated code: bools as
// true/false, integers as 64-bit literals, floats as shortest round-trip decimals (infinities and NaNs by
// their bits).
#pragma once

#include <string>

#include "lower/kernel_ir.h"

namespace seam {

std::string literal_text(const Number& n);

}  // namespace seam
