// Loop-invariant code motion for the kernel IR's Loop statements (an inlined reduction's terms in a loop).
#pragma once

#include "lower/kernel_ir.h"

namespace seam {

// Moves the statements of every Loop's body (nested blocks included) that do not depend on the loop to
// just before it, keeping their order: lets and value definitions that read neither the loop variable nor
// anything defined or assigned inside the loop. Legal because lets and definitions are pure and read only
// what is defined before them; what one loop iteration assigns stays inside.
void hoist_loop_invariants(kir::Block& body);

}  // namespace seam
