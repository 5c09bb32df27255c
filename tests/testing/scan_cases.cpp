#include "testing/scan_cases.h"

#include "ir/builder.h"

namespace seam::testing_scan {

Fusion cumsum_fusion(const std::string& name, DType dtype, const Shape& shape, int64_t axis,
                     const Shape& strides) {
  Builder b(name);
  Value x = b.input(Type::tensor(dtype, shape), "x", strides);
  return b.finish({b.cumsum(x, axis)});
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
