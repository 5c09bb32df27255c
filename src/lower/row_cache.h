// Persistent row kernels (kir::RowLaunch::iterations > 0) read each element of a row from memory once:
// every load of a row loop that depends on both the row and the loop's vector goes through a register
// array (kir::RowCache) that a first loop over the row fills, so that a softmax's three passes or a
// normalization's two read registers after the first. Loads of the same input at the same offset in
// several loops share one array (the persistent row emitter names loop and element indices the same in
// every loop, so equal offsets print equal).
#pragma once

#include "lower/kernel_ir.h"

namespace seam {

// Adds the caches and the filling loop (before the first row loop) to `launch`, and turns the cached
// loads into reads of their array. Loads under branches, guarded or chosen by piece stay loads. A load
// that depends on the row but not on the loop's vector (a per-row scalar) becomes a per-row cache, filled
// before the filling loop, so that its latency overlaps the row's other loads.
void cache_row_loads(kir::RowLaunch& launch);

// Whether the caches' fills of `launch` (after cache_row_loads) can be issued for a later row while the
// block computes the current one (kir::RowLaunch::load_ahead): persistent, not peeled nor clustered, and
// nothing before the fills but index Lets and constants.
bool row_fills_loadable_ahead(const kir::RowLaunch& launch);

}  // namespace seam
