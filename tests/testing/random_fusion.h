// Random well-typed fusions for property tests: every op of the table appears across seeds, operands
// are made to fit (casts, broadcast, expand, reshape, slice, pad) and extents stay small so that the
// interpreter runs them quickly.
#pragma once

#include <cstdint>

#include "ir/fusion.h"

namespace seam {

struct RandomFusionOptions {
  int num_ops = 24;                       // ops chosen at random; fitting their operands adds more
  int max_rank = 3;                       // of shapes chosen at random (broadcast may add one more axis)
  int64_t max_extent = 4;                 // of extents chosen at random
  double zero_extent_probability = 0.03;  // chance that a chosen extent is 0
  // Chance that a chosen extent is one near the size limits (2^31 - 1 to 2^40 + 1, ir/limits.h), for
  // tests of size arithmetic: ops whose types break the limits are rejected by Builder and skipped.
  double huge_extent_probability = 0.0;

  // Which ops may be chosen. Inputs are always allowed; movement ops and casts also appear to fit
  // operands whatever these say.
  bool pointwise = true;   // unary, binary, where, cast
  bool movement = true;    // broadcast, expand, squeeze, reshape, permute, slice, pad, cat
  bool reductions = true;  // sum, max, min
  bool opaque = true;      // matmul, linear
  bool leaves = true;      // full, iota, const
  // uniform, normal. Off by default so that adding them changed no seed's fusion; tests of random
  // numbers and the every-op coverage turn it on.
  bool random = false;
  // index_select, gather, take_along_axis, select (indices in range).
  bool indexing = true;
  // cumsum, cumprod, cummin, cummax. Off by default so that adding them changed no seed's fusion.
  bool scans = false;
  // scatter (indices in range, a tensor or scalar source). Off by default so that adding it changed no
  // seed's fusion.
  bool scatters = false;

  bool scalar_inputs = true;    // inputs of scalar type
  bool strided_inputs = true;   // inputs with a strides attribute (permuted, padded, broadcast layouts)
  bool special_values = false;  // inf, -inf and nan literals
};

// The same seed and options always give the same fusion. Outputs are all sinks plus a few other
// values, some of them named.
Fusion random_fusion(uint64_t seed, const RandomFusionOptions& options = {});

}  // namespace seam
