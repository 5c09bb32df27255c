// The public API's dtypes, types and literals, and their conversions to seam's own.
#include "api/api_internal.h"

namespace seam::api {

seam::DType to_seam(DType dtype) {
  switch (dtype) {
    case DType::Bool: return seam::DType::Bool;
    case DType::Int32: return seam::DType::Int32;
    case DType::Int64: return seam::DType::Int64;
    case DType::Float16: return seam::DType::Float16;
    case DType::BFloat16: return seam::DType::BFloat16;
    case DType::Float32: return seam::DType::Float32;
    case DType::Float64: return seam::DType::Float64;
    case DType::Float8E4M3FN: return seam::DType::Float8E4M3FN;
    case DType::Float8E5M2: return seam::DType::Float8E5M2;
  }
  throw Error("unknown dtype enumerator " + std::to_string(static_cast<int>(dtype)));
}

DType from_seam(seam::DType dtype) {
  switch (dtype) {
    case seam::DType::Bool: return DType::Bool;
    case seam::DType::Int32: return DType::Int32;
    case seam::DType::Int64: return DType::Int64;
    case seam::DType::Float16: return DType::Float16;
    case seam::DType::BFloat16: return DType::BFloat16;
    case seam::DType::Float32: return DType::Float32;
    case seam::DType::Float64: return DType::Float64;
    case seam::DType::Float8E4M3FN: return DType::Float8E4M3FN;
    case seam::DType::Float8E5M2: return DType::Float8E5M2;
  }
  SEAM_UNREACHABLE("dtype");
}

seam::Type to_seam(const ValueType& type) {
  return type.is_scalar ? seam::Type::scalar(to_seam(type.dtype))
                        : seam::Type::tensor(to_seam(type.dtype), type.shape);
}

ValueType from_seam(const seam::Type& type) { return {from_seam(type.dtype), type.is_scalar, type.shape}; }

seam::Number to_seam(const Literal& literal) {
  switch (literal.kind) {
    case Literal::Kind::Bool: return seam::Number::of_bool(literal.integer != 0);
    case Literal::Kind::Int: return seam::Number::of_int(literal.integer);
    case Literal::Kind::Float: return seam::Number::of_float(literal.real);
  }
  throw Error("unknown literal kind");
}

seam::AttrValue to_seam(const Attribute& attribute) {
  return std::visit(
      [](const auto& v) -> seam::AttrValue {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, Literal>)
          return to_seam(v);
        else if constexpr (std::is_same_v<T, DType>)
          return to_seam(v);
        else
          return v;
      },
      attribute);
}

std::string_view dtype_name(DType dtype) { return seam::dtype_name(to_seam(dtype)); }

DType parse_dtype(std::string_view name) {
  std::optional<seam::DType> d = seam::parse_dtype(name);
  if (!d)
    throw Error("unknown dtype '" + std::string(name) +
                "' (seam has bool i32 i64 f16 bf16 f32 f64 f8e4m3fn f8e5m2)");
  return from_seam(*d);
}

int dtype_size(DType dtype) { return seam::dtype_size(to_seam(dtype)); }

std::string ValueType::to_string() const { return to_seam(*this).to_string(); }

}  // namespace seam::api
