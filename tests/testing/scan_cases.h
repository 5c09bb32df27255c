// Scan fusions shared by the host-backend, NVRTC and GPU tests (docs/CODEGEN.md, "Scans"). cumsum: lines
// of 1, 31, 32, 33, 1000, 4097 and 100000 elements (inside a warp, at and across its edge, several chunks
// of a block, one more than a power of two, many chunks) along the last, first and a middle axis, every
// dtype, transposed inputs, a scan of a view (copied first) and pointwise work around a scan. cumprod,
// cummin and cummax: every dtype, each fusion scanning a row of several chunks (the rows kernel), a middle
// axis and short lines (the lines kernel) and a transposed input; products of factors near 1 (values in
// [-1, 1) vanish within a few hundred factors), NaNs among the values and signed zeros for the extrema.
#pragma once

#include <string>
#include <vector>

#include "interp/compare.h"
#include "ir/fusion.h"

namespace seam::testing_scan {

struct ScanCase {
  std::string name;
  Fusion fusion;
  int64_t extent = 0;          // elements along the longest scanned axis, for the tolerance
  OpKind op = OpKind::Cumsum;  // the case's scans are all this op (cummin and cummax share a case)
  Tolerance tolerance(DType dtype) const;
};

// The cumsum cases.
std::vector<ScanCase> scan_cases();

// Per dtype one cumprod fusion and one of cummin and cummax. `small`: the rows kernel's line is just over
// two chunks and every fusion's values fit the whole-tool check's interpreter limit (host_backend_
// disagreement); otherwise lines of 100000 elements.
std::vector<ScanCase> product_and_extremum_cases(bool small);

// One scan `op` of an input of `dtype` and `shape` (laid out over `strides` when not empty) along `axis`.
Fusion scan_fusion(const std::string& name, OpKind op, DType dtype, const Shape& shape, int64_t axis,
                   const Shape& strides = {});

// One cumsum of an input of `dtype` and `shape` (laid out over `strides` when not empty) along `axis`.
Fusion cumsum_fusion(const std::string& name, DType dtype, const Shape& shape, int64_t axis,
                     const Shape& strides = {});

// How far a kernel's cumsum may be from the interpreter's: the kernels keep f32 running sums over lines of
// `extent` inputs in [-1, 1) where the interpreter keeps doubles, so the absolute error grows with the
// line; each output is then rounded to its dtype (one ulp apart where the two sums straddle a rounding
// boundary). Integer sums are exact.
Tolerance scan_tolerance(DType dtype, int64_t extent);

// The same for `op`: cumsum as above; cumprod relative (an f32 running product of a line of `extent` factors
// in any order, each output then rounded to its dtype: float_product_rtol), integer products exact; cummin
// and cummax exact in every dtype.
Tolerance scan_tolerance(OpKind op, DType dtype, int64_t extent);

// The relative tolerance of an f32 product of `extent` factors against an exact (double) one: six standard
// deviations of the random walk of its n-1 roundings, the bias of a tree order's roundings near 1, and the
// output's rounding.
double float_product_rtol(int64_t extent);

}  // namespace seam::testing_scan
