#include "testing/scan_cases.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ir/builder.h"

namespace seam::testing_scan {

Fusion scan_fusion(const std::string& name, OpKind op, DType dtype, const Shape& shape, int64_t axis,
                   const Shape& strides) {
  Builder b(name);
  Value x = b.input(Type::tensor(dtype, shape), "x", strides);
  return b.finish({b.scan(op, x, axis)});
}

Fusion cumsum_fusion(const std::string& name, DType dtype, const Shape& shape, int64_t axis,
                     const Shape& strides) {
  return scan_fusion(name, OpKind::Cumsum, dtype, shape, axis, strides);
}

namespace {

// The rows kernel's chunk: up to 256 threads of 16 bytes each (lower/lower_scan.cpp).
int64_t chunk_of(DType dtype) {
  return 256 * std::clamp<int64_t>(16 / static_cast<int64_t>(dtype_size(dtype)), 2, 8);
}

// A product or extremum fusion of one dtype: `lines` rows of `row` elements (the rows kernel), a middle
// axis (the lines kernel), a transposed input along its rows (the rows kernel reading 4 elements apart)
// and its columns (short lines); floating cumprod also scans factors near 1, floating extrema values with
// NaNs and signed zeros (their signs as bools, which the comparison checks exactly).
Fusion product_or_extremum_fusion(const std::string& name, bool product, DType dtype, int64_t lines,
                                  int64_t row) {
  Builder b(name);
  const Value rows = b.input(Type::tensor(dtype, {lines, row}), "rows");
  const Value middle = b.input(Type::tensor(dtype, {3, 20, 4}), "middle");
  const Value transposed = b.input(Type::tensor(dtype, {4, 100}), "transposed", {1, 4});
  std::vector<Value> outputs;
  auto scan = [&](Value x, int64_t axis) {
    if (product) {
      outputs.push_back(b.cumprod(x, axis));
    } else {
      outputs.push_back(b.cummin(x, axis));
      outputs.push_back(b.cummax(x, axis));
    }
  };
  auto literal = [&](double value) { return b.constant(Number::of_float(value), dtype); };
  scan(rows, -1);
  scan(middle, 1);
  scan(transposed, 1);
  scan(transposed, 0);
  if (is_floating(dtype) && product) {
    // Factors 1 +- 2^-7 chosen by the sign (exact in every dtype and backend: no rounding before the scan
    // for the comparison's perturbations to excuse differences with): a long product that stays near 1.
    const Value up = b.binary(OpKind::Gt, rows, literal(0.0));
    scan(b.where(up, literal(1.0 + 0x1p-7), literal(1.0 - 0x1p-7)), 1);
  } else if (is_floating(dtype)) {
    const Value nan = literal(std::numeric_limits<double>::quiet_NaN());
    scan(b.where(b.binary(OpKind::Gt, rows, literal(0.99)), nan, rows), 1);
    // x * 0 is -0 for negative x: every value ties, so each output's sign is the latest element's.
    const Value zeros = b.mul(b.slice_axis(rows, 1, 0, 100), literal(0.0));
    outputs.push_back(b.unary(OpKind::Signbit, b.cummin(zeros, 1)));
    outputs.push_back(b.unary(OpKind::Signbit, b.cummax(zeros, 1)));
  }
  return b.finish(outputs);
}

}  // namespace

std::vector<ScanCase> product_and_extremum_cases(bool small) {
  std::vector<ScanCase> cases;
  for (DType d : {DType::Float32, DType::Float16, DType::BFloat16, DType::Float64, DType::Int32, DType::Int64,
                  DType::Bool}) {
    const int64_t row = small ? chunk_of(d) + 37 : 100000;  // small: a full chunk and a part
    for (bool product : {true, false}) {
      const std::string name = std::string(product ? "cumprod_" : "extrema_") + std::string(dtype_name(d)) +
                               "_" + std::to_string(row);
      cases.push_back({name, product_or_extremum_fusion(name, product, d, small ? 1 : 3, row), row,
                       product ? OpKind::Cumprod : OpKind::Cummax});
    }
  }
  return cases;
}

std::vector<ScanCase> scan_cases() {
  std::vector<ScanCase> cases;
  auto add = [&](std::string name, Fusion fusion, int64_t extent) {
    cases.push_back({std::move(name), std::move(fusion), extent});
  };
  for (int64_t n : {1, 31, 32, 33, 1000, 4097, 100000}) {
    const std::string e = std::to_string(n);
    add("last_f32_" + e, cumsum_fusion("last_f32_" + e, DType::Float32, {3, n}, -1), n);
    add("first_f32_" + e, cumsum_fusion("first_f32_" + e, DType::Float32, {n, 3}, 0), n);
  }
  for (DType d : {DType::Float16, DType::BFloat16, DType::Float64, DType::Int32, DType::Int64, DType::Bool}) {
    for (int64_t n : {33, 4097}) {
      const std::string name = "last_" + std::string(dtype_name(d)) + "_" + std::to_string(n);
      add(name, cumsum_fusion(name, d, {5, n}, 1), n);
    }
    const std::string middle = "middle_" + std::string(dtype_name(d));
    add(middle, cumsum_fusion(middle, d, {4, 1000, 5}, 1), 1000);
  }
  add("last_f16_100000", cumsum_fusion("last_f16_100000", DType::Float16, {2, 100000}, 1), 100000);
  add("rank0_f32", cumsum_fusion("rank0_f32", DType::Float32, {}, 0), 1);
  add("empty_rows", cumsum_fusion("empty_rows", DType::Float32, {0, 100}, 1), 100);
  add("empty_lines", cumsum_fusion("empty_lines", DType::Float32, {4, 0}, 1), 0);
  // A transposed input: the rows kernel reads each line 1000 elements apart, the lines kernel contiguous
  // lines of a strided tensor.
  add("transposed_last", cumsum_fusion("transposed_last", DType::Float32, {6, 1000}, 1, {1, 6}), 1000);
  add("transposed_first", cumsum_fusion("transposed_first", DType::Float32, {1000, 6}, 0, {1, 1000}), 1000);
  {
    // A permuted view of an input (written out by a copy kernel first), and pointwise work on either
    // side of the scan: three kernels.
    Builder b("around");
    Value x = b.input(Type::tensor(DType::BFloat16, {300, 7}), "x");
    Value t = b.permute(x, {1, 0});
    Value y =
        b.cumsum(b.mul(b.cast(t, DType::Float32), b.constant(Number::of_float(2.0), DType::Float32)), 1);
    Value z = b.cumsum(t, -1);
    add("around", b.finish({b.exp(b.mul(y, b.constant(Number::of_float(0.01), DType::Float32))), z}), 300);
  }
  return cases;
}

Tolerance ScanCase::tolerance(DType dtype) const { return scan_tolerance(op, dtype, extent); }

double float_product_rtol(int64_t extent) {
  // Any evaluation order of an n-factor product rounds n-1 times, each by a relative error of at most
  // 2^-24. Where the rounded values carry random low bits the errors are independent and unbiased (variance
  // 2^-48/3 each): a random walk of standard deviation 2^-24 sqrt(n/3), allowed six times. A tree order
  // (the GPU's rows kernel) also multiplies factors near 1 together, and a product of one just above 1 and
  // one just below lands a little under a tie of the coarser grid above 1 and rounds down: a bias, measured
  // (the kernel's order simulated bit for bit) at 0.013 ulp per factor for factors in [0.999, 1.001], 0.002
  // in [0.997, 1.003], 0.12 within 1e-4 of 1; n/32 ulps allow the first twice over. Two ulps more for the
  // output's rounding. n = 4097: 2.1e-5; n = 100000: 2.5e-4, below the 7.8e-3 a factor 1 +- 2^-7 of the
  // long rows would make if dropped or repeated.
  const double n = static_cast<double>(std::max<int64_t>(extent, 1));
  return 0x1p-24 * (2 + 6 * std::sqrt(n / 3) + n / 32);
}

Tolerance scan_tolerance(OpKind op, DType dtype, int64_t extent) {
  if (op == OpKind::Cumsum) return scan_tolerance(dtype, extent);
  if (op != OpKind::Cumprod) return {0, 0};  // minima and maxima are exact
  switch (dtype) {
    // The f32 running product, within float_product_rtol (2.5e-4 at n = 100000), then rounded: that
    // and one f16 (bf16) ulp, 2^-10 (2^-7) relative at most, plus the f16 subnormals' spacing.
    case DType::Float16: return {2e-3, 1e-7};
    case DType::BFloat16: return {1.6e-2, 1e-30};
    case DType::Float32: return {float_product_rtol(extent), 1e-30};
    case DType::Float64: return {1e-10, 1e-300};
    default: return {0, 0};
  }
}

Tolerance scan_tolerance(DType dtype, int64_t extent) {
  const double accumulated = 1e-6 * static_cast<double>(extent);  // f32 running sums of values below 1
  switch (dtype) {
    case DType::Float16: return {2e-3, 1e-3 + accumulated};
    case DType::BFloat16: return {1.6e-2, 1e-2 + accumulated};
    case DType::Float32: return {1.3e-6, 1e-5 + accumulated};
    case DType::Float64: return {1e-10, 1e-10};
    default: return {0, 0};
  }
}

}  // namespace seam::testing_scan
