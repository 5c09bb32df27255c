// cumsum fusions shared by the host-backend, NVRTC and GPU tests (docs/CODEGEN.md, "Scans"): lines of
// 1, 31, 32, 33, 1000, 4097 and 100000 elements (inside a warp, at and across its edge, several chunks
// of a block, one more than a power of two, many chunks) along the last, first and a middle axis, every
// dtype, transposed inputs, a scan of a view (copied first) and pointwise work around a scan.
#pragma once

#include <string>
#include <vector>

#include "interp/compare.h"
#include "ir/fusion.h"

namespace seam::testing_scan {

struct ScanCase {
  std::string name;
  Fusion fusion;
  int64_t extent = 0;  // elements along the scanned axis, for the tolerance
};

std::vector<ScanCase> scan_cases();

// One cumsum of an input of `dtype` and `shape` (laid out over `strides` when not empty) along `axis`.
Fusion cumsum_fusion(const std::string& name, DType dtype, const Shape& shape, int64_t axis,
                     const Shape& strides = {});

// How far a kernel's scan may be from the interpreter's: the kernels keep f32 running sums over lines of
// `extent` inputs in [-1, 1) where the interpreter keeps doubles, so the absolute error grows with the
// line; each output is then rounded to its dtype (one ulp apart where the two sums straddle a rounding
// boundary). Integer sums are exact.
Tolerance scan_tolerance(DType dtype, int64_t extent);

}  // namespace seam::testing_scan
