// Element types and PyTorch's type-promotion rules (docs/IR.md, "Type promotion").
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace seam {

enum class DType : uint8_t {
  Bool,
  Int32,
  Int64,
  Float16,
  BFloat16,
  Float32,
  Float64,
  Float8E4M3FN,
  Float8E5M2
};

// The dtypes that compute: every op takes them.
inline constexpr DType kAllDTypes[] = {DType::Bool,     DType::Int32,   DType::Int64,  DType::Float16,
                                       DType::BFloat16, DType::Float32, DType::Float64};
// Storage-only dtypes (docs/IR.md, "Dtypes"): cast, movement and indexing ops take them, nothing else
// computes on them (as in PyTorch, whose fp8 tensors have few kernels and no type promotion).
inline constexpr DType kFloat8DTypes[] = {DType::Float8E4M3FN, DType::Float8E5M2};
inline bool is_float8(DType d) { return d == DType::Float8E4M3FN || d == DType::Float8E5M2; }

// Short name used by the text format: bool, i32, i64, f16, bf16, f32, f64, f8e4m3fn, f8e5m2.
std::string_view dtype_name(DType dtype);
std::optional<DType> parse_dtype(std::string_view name);
int dtype_size(DType dtype);  // bytes per element

// PyTorch's categories, ordered: bool < integer < floating.
enum class DTypeCategory : uint8_t { Bool, Integer, Floating };
DTypeCategory dtype_category(DType dtype);
inline bool is_floating(DType d) { return dtype_category(d) == DTypeCategory::Floating; }
inline bool is_integer(DType d) { return dtype_category(d) == DTypeCategory::Integer; }

// torch.promote_types: the smallest dtype both a and b convert to (f16 with bf16 gives f32).
DType promote_types(DType a, DType b);

// How strongly an operand's dtype takes part in promotion (torch.result_type): dimensioned tensors beat
// zero-dim tensors, which beat scalars, unless a weaker operand is of a higher category.
enum class PromotionTier : uint8_t { Scalar, ZeroDimTensor, Tensor };

struct PromotionOperand {
  DType dtype;
  PromotionTier tier;
};

// torch.result_type over any number of operands. A scalar of a higher category than every tensor
// promotes to the default dtype of its category (f32 for floating, i64 for integer).
DType result_type(const PromotionOperand* operands, int count);

}  // namespace seam
