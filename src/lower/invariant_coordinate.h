// Which part of a chunk coordinate a lowered body ignores: when every use of the coordinate `x` (in
// loads, guards, lets; not in stores) is `x / m` (or `(x * k) / m` with k dividing m), the body computes
// the same for all x in an aligned block of gcd(m...) consecutive values.
//  - Over the whole body: the chunk can be computed once per block and stored to each copy, so an
//    expanded tensor (GQA's k and v heads, copied qpk times) is written from one load, not one per copy.
//  - Over its branches only: the branch taken is the same within a block, so a chunk order that gives a
//    warp chunks of one block keeps the warp from diverging (RoPE backward: dqkv's q, k and v slots).
#pragma once

#include <cstdint>
#include <string>

#include "lower/kernel_ir.h"

namespace seam {

// The largest divisor of `extent` such that `body`'s values (everything but its Store statements) are
// unchanged when `variable` moves within an aligned block of that many values: `extent` when the body
// never reads it, 1 when it reads it other than divided.
int64_t invariant_block(const kir::Block& body, const std::string& variable, int64_t extent);
// The same over the bounds of the body's If statements only: the branches a chunk takes.
int64_t branch_invariant_block(const kir::Block& body, const std::string& variable, int64_t extent);

// Loads of `body` (nested blocks included) and how many of them read neither `variable` nor a let
// computed from it (address, guards and choices): what a chunk covering several values of the
// variable loads once (RoPE's cos/sin for several heads).
struct LoadCount {
  int total = 0;
  int invariant = 0;
};
LoadCount loads_invariant_in(const kir::Block& body, const std::string& variable);
// Marks those loads `reused`: chunks that differ only in `variable` read the same elements.
void mark_loads_invariant_in(kir::Block& body, const std::string& variable);

}  // namespace seam
