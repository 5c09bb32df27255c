#include "tensor/tensor_npy.h"

#include <cstring>

#include "ir/limits.h"
#include "support/error.h"

namespace seam {
namespace {

const char* descr_of(DType dtype) {
  switch (dtype) {
    case DType::Bool: return "|b1";
    case DType::Int32: return "<i4";
    case DType::Int64: return "<i8";
    case DType::Float16: return "<f2";
    case DType::BFloat16: return "<u2";  // raw bf16 bits: NumPy has no bf16
    case DType::Float32: return "<f4";
    case DType::Float64: return "<f8";
    case DType::Float8E4M3FN:
    case DType::Float8E5M2: return "|u1";  // raw f8 bits: NumPy has no f8
  }
  return "";
}

// The dtype a descr holds; bf16 only when the caller expects it. '=' (native) is little endian here.
DType dtype_of(std::string descr, std::optional<DType> expected, const std::string& source) {
  if (!descr.empty() && descr[0] == '=') descr[0] = '<';
  for (DType d : kAllDTypes)
    if (d != DType::BFloat16 && descr == descr_of(d)) return d;
  if ((descr == "|u1" || descr == "|V1") && expected && is_float8(*expected)) return *expected;
  if (descr == "<u2" || descr == "<V2" || descr == "|V2") {
    SEAM_CHECK(expected == DType::BFloat16, source, ": .npy descr '", descr,
               "' holds bf16 bit patterns only when bf16 is expected",
               expected ? std::string(", expected ") + std::string(dtype_name(*expected)) : std::string());
    return DType::BFloat16;
  }
  throw Error(
      detail::concat(source, ": unsupported .npy descr '", descr,
                     "' (supported: |b1 <i4 <i8 <f2 <f4 <f8, <u2 for bf16 and |u1 for f8 when expected)"));
}

}  // namespace

HostTensor host_tensor_from_npy(const NpyArray& array, std::optional<DType> expected,
                                const std::string& source) {
  const int64_t item_size = npy_item_size(array.descr, source);
  const DType dtype = dtype_of(array.descr, expected, source);
  SEAM_CHECK(!expected || *expected == dtype, source, ": .npy file holds ", dtype_name(dtype), " ('",
             array.descr, "'), expected ", dtype_name(*expected));
  SEAM_ASSERT(item_size == dtype_size(dtype));
  try {  // before the strides below, which multiply the extents
    check_type_limits(Type::tensor(dtype, array.shape));
  } catch (const Error& e) {
    throw Error(detail::concat(source, ": .npy shape: ", e.what()));
  }
  // A Fortran-order file is the same data with column-major strides; contiguous() reorders it.
  Shape strides = contiguous_strides(array.shape);
  if (array.fortran_order) {
    int64_t stride = 1;
    for (size_t d = 0; d < array.shape.size(); ++d) {
      strides[d] = stride;
      stride *= array.shape[d];
    }
  }
  HostTensor tensor = HostTensor::zeros_strided(dtype, array.shape, strides);
  SEAM_CHECK(tensor.storage().size() == array.data.size(), source, ": .npy data length mismatch");
  if (!array.data.empty()) std::memcpy(tensor.storage().data(), array.data.data(), array.data.size());
  if (dtype == DType::Bool)  // NumPy bools are 0 or 1; normalize any other byte to 1
    for (std::byte& b : tensor.storage()) b = b != std::byte{0} ? std::byte{1} : std::byte{0};
  return tensor.contiguous();
}

NpyArray npy_from_host_tensor(const HostTensor& tensor) {
  const HostTensor c = tensor.contiguous();
  NpyArray array;
  array.descr = descr_of(c.dtype());
  array.shape = c.shape();
  array.data = c.storage();
  return array;
}

HostTensor read_npy(const std::string& path, std::optional<DType> expected) {
  return host_tensor_from_npy(read_npy_file(path), expected, path);
}

void write_npy(const std::string& path, const HostTensor& tensor) {
  write_npy_file(path, npy_from_host_tensor(tensor));
}

}  // namespace seam
