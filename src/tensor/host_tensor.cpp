#include "tensor/host_tensor.h"

#include <bit>
#include <cstring>

#include "ir/limits.h"
#include "support/error.h"
#include "support/half.h"
#include "tensor/float8_convert.h"
#include "tensor/host_memory.h"

namespace seam {
namespace {

static_assert(std::endian::native == std::endian::little, "HostTensor storage is little endian");

template <typename T>
T load(const std::byte* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <typename T>
void store(std::byte* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

void check_shape(const Shape& shape, const char* what) {
  for (int64_t e : shape) SEAM_CHECK(e >= 0, what, ": negative extent in shape ", shape_to_string(shape));
}

}  // namespace

HostTensor HostTensor::zeros(DType dtype, Shape shape) {
  check_shape(shape, "HostTensor");
  check_type_limits(Type::tensor(dtype, shape));  // before the strides, which multiply the extents
  Shape strides = contiguous_strides(shape);
  return zeros_strided(dtype, std::move(shape), std::move(strides));
}

HostTensor HostTensor::zeros_strided(DType dtype, Shape shape, Shape strides) {
  check_shape(shape, "HostTensor");
  SEAM_CHECK(strides.size() == shape.size(), "HostTensor: ", strides.size(), " strides for rank ",
             shape.size());
  for (int64_t s : strides)
    SEAM_CHECK(s >= 0, "HostTensor: strides must be non-negative, got ", shape_to_string(strides));
  // The IR's size limits bound every product over the shape; then the storage must fit this machine.
  const Type type = Type::tensor(dtype, shape);
  check_type_limits(type);
  const int64_t bytes = strided_storage_bytes(dtype, shape, strides);
  check_host_memory(bytes, "HostTensor " + type.to_string());
  HostTensor t;
  t.dtype_ = dtype;
  t.shape_ = std::move(shape);
  t.strides_ = std::move(strides);
  t.storage_.assign(static_cast<size_t>(bytes), std::byte{0});
  t.numel_ = type.numel();
  t.required_bytes_ = bytes;
  t.row_major_ = t.strides_ == contiguous_strides(t.shape_);
  return t;
}

HostTensor HostTensor::random(DType dtype, Shape shape, std::mt19937_64& rng) {
  HostTensor t = zeros(dtype, std::move(shape));
  t.fill_random(rng);
  return t;
}

HostTensor HostTensor::from_doubles(DType dtype, Shape shape, const std::vector<double>& values) {
  HostTensor t = zeros(dtype, std::move(shape));
  SEAM_CHECK(static_cast<int64_t>(values.size()) == t.numel(), "HostTensor::from_doubles: ", values.size(),
             " values for ", t.type_string());
  for (size_t i = 0; i < values.size(); ++i) t.set_double(static_cast<int64_t>(i), values[i]);
  return t;
}

HostTensor HostTensor::from_ints(DType dtype, Shape shape, const std::vector<int64_t>& values) {
  HostTensor t = zeros(dtype, std::move(shape));
  SEAM_CHECK(static_cast<int64_t>(values.size()) == t.numel(), "HostTensor::from_ints: ", values.size(),
             " values for ", t.type_string());
  for (size_t i = 0; i < values.size(); ++i) t.set_int(static_cast<int64_t>(i), values[i]);
  return t;
}

bool HostTensor::is_contiguous() const {
  // Axes of extent 1 (or an empty tensor) make any stride equivalent.
  if (numel() == 0) return true;
  Shape expected = contiguous_strides(shape_);
  for (size_t d = 0; d < shape_.size(); ++d)
    if (shape_[d] != 1 && strides_[d] != expected[d]) return false;
  return true;
}

int64_t HostTensor::required_storage_bytes() const { return required_bytes_; }

std::string HostTensor::type_string() const { return Type::tensor(dtype_, shape_).to_string(); }

int64_t HostTensor::offset_of(int64_t linear_index) const {
  SEAM_CHECK(linear_index >= 0 && linear_index < numel(), "HostTensor: element ", linear_index,
             " out of range for ", type_string());
  SEAM_CHECK(static_cast<int64_t>(storage_.size()) >= required_bytes_, "HostTensor ", type_string(),
             ": storage of ", storage_.size(), " bytes does not cover its shape and strides");
  if (row_major_) return linear_index;
  int64_t offset = 0;
  for (int d = rank() - 1; d >= 0; --d) {
    offset += (linear_index % shape_[d]) * strides_[d];
    linear_index /= shape_[d];
  }
  return offset;
}

double HostTensor::get_double(int64_t linear_index) const {
  const std::byte* p = storage_.data() + offset_of(linear_index) * dtype_size(dtype_);
  switch (dtype_) {
    case DType::Float64: return load<double>(p);
    case DType::Float32: return load<float>(p);
    case DType::BFloat16: return bf16_bits_to_float(load<uint16_t>(p));
    case DType::Float16: return f16_bits_to_float(load<uint16_t>(p));
    case DType::Float8E4M3FN:
    case DType::Float8E5M2: return float8_bits_to_float(dtype_, load<uint8_t>(p));
    default: return static_cast<double>(get_int(linear_index));
  }
}

int64_t HostTensor::get_int(int64_t linear_index) const {
  const std::byte* p = storage_.data() + offset_of(linear_index) * dtype_size(dtype_);
  switch (dtype_) {
    case DType::Bool: return load<uint8_t>(p) != 0 ? 1 : 0;
    case DType::Int32: return load<int32_t>(p);
    case DType::Int64: return load<int64_t>(p);
    default: return floating_to_integer(DType::Int64, get_double(linear_index));
  }
}

Scalar HostTensor::get(int64_t linear_index) const {
  return is_floating(dtype_) ? Scalar::of_real(get_double(linear_index))
                             : Scalar::of_int(get_int(linear_index));
}

void HostTensor::set(int64_t linear_index, const Scalar& value) {
  const Scalar v = convert_scalar(value, dtype_);
  std::byte* p = storage_.data() + offset_of(linear_index) * dtype_size(dtype_);
  switch (dtype_) {
    case DType::Bool: store<uint8_t>(p, v.integer != 0 ? 1 : 0); break;
    case DType::Int32: store<int32_t>(p, static_cast<int32_t>(v.integer)); break;
    case DType::Int64: store<int64_t>(p, v.integer); break;
    case DType::Float16: store<uint16_t>(p, double_to_f16_bits(v.real)); break;
    case DType::BFloat16: store<uint16_t>(p, double_to_bf16_bits(v.real)); break;
    case DType::Float32: store<float>(p, round_to_float(v.real)); break;
    case DType::Float64: store<double>(p, v.real); break;
    case DType::Float8E4M3FN:
    case DType::Float8E5M2: store<uint8_t>(p, double_to_float8_bits(dtype_, v.real)); break;
  }
}

void HostTensor::set_double(int64_t linear_index, double value) { set(linear_index, Scalar::of_real(value)); }
void HostTensor::set_int(int64_t linear_index, int64_t value) { set(linear_index, Scalar::of_int(value)); }

std::vector<double> HostTensor::to_doubles() const {
  std::vector<double> out(static_cast<size_t>(numel()));
  for (int64_t i = 0; i < numel(); ++i) out[static_cast<size_t>(i)] = get_double(i);
  return out;
}

std::vector<int64_t> HostTensor::to_ints() const {
  std::vector<int64_t> out(static_cast<size_t>(numel()));
  for (int64_t i = 0; i < numel(); ++i) out[static_cast<size_t>(i)] = get_int(i);
  return out;
}

void HostTensor::fill_random(std::mt19937_64& rng) {
  // Drawn from raw 64-bit outputs rather than std distributions, whose results differ between standard
  // libraries: the same seed gives the same tensor everywhere.
  for (int64_t i = 0; i < numel(); ++i) {
    const uint64_t r = rng();
    switch (dtype_category(dtype_)) {
      case DTypeCategory::Floating:
        set_double(i, static_cast<double>(r >> 11) * 0x1.0p-52 - 1.0);  // [-1, 1) in steps of 2^-52
        break;
      case DTypeCategory::Integer: set_int(i, static_cast<int64_t>(r >> 60) - 8); break;
      case DTypeCategory::Bool: set_int(i, static_cast<int64_t>(r >> 63)); break;
    }
  }
}

HostTensor HostTensor::contiguous() const { return restrided(contiguous_strides(shape_)); }

HostTensor HostTensor::restrided(const Shape& strides) const {
  HostTensor out = zeros_strided(dtype_, shape_, strides);
  const int64_t size = dtype_size(dtype_);
  for (int64_t i = 0; i < numel(); ++i)
    std::memcpy(out.storage_.data() + out.offset_of(i) * size, storage_.data() + offset_of(i) * size,
                static_cast<size_t>(size));
  return out;
}

}  // namespace seam
