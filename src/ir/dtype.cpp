#include "ir/dtype.h"

#include <algorithm>

#include "support/error.h"

namespace seam {

std::string_view dtype_name(DType dtype) {
  switch (dtype) {
    case DType::Bool: return "bool";
    case DType::Int32: return "i32";
    case DType::Int64: return "i64";
    case DType::Float16: return "f16";
    case DType::BFloat16: return "bf16";
    case DType::Float32: return "f32";
    case DType::Float64: return "f64";
    case DType::Float8E4M3FN: return "f8e4m3fn";
    case DType::Float8E5M2: return "f8e5m2";
  }
  SEAM_ASSERT(false, "unknown dtype");
}

std::optional<DType> parse_dtype(std::string_view name) {
  for (DType d : kAllDTypes)
    if (dtype_name(d) == name) return d;
  for (DType d : kFloat8DTypes)
    if (dtype_name(d) == name) return d;
  return std::nullopt;
}

int dtype_size(DType dtype) {
  switch (dtype) {
    case DType::Bool: return 1;
    case DType::Int32: return 4;
    case DType::Int64: return 8;
    case DType::Float16: return 2;
    case DType::BFloat16: return 2;
    case DType::Float32: return 4;
    case DType::Float64: return 8;
    case DType::Float8E4M3FN:
    case DType::Float8E5M2: return 1;
  }
  SEAM_ASSERT(false, "unknown dtype");
}

DTypeCategory dtype_category(DType dtype) {
  switch (dtype) {
    case DType::Bool: return DTypeCategory::Bool;
    case DType::Int32:
    case DType::Int64: return DTypeCategory::Integer;
    default: return DTypeCategory::Floating;
  }
}

DType promote_types(DType a, DType b) {
  if (a == b) return a;
  SEAM_CHECK(!is_float8(a) && !is_float8(b), "no type promotion of ", dtype_name(a), " and ", dtype_name(b),
             ": ", dtype_name(is_float8(a) ? a : b),
             " is a storage dtype (cast it to a computing dtype first)");
  DTypeCategory ca = dtype_category(a), cb = dtype_category(b);
  if (ca != cb) return ca > cb ? a : b;                   // the higher category wins whatever the width
  if (ca == DTypeCategory::Integer) return DType::Int64;  // i32 with i64
  // Two different floating types: the half types only meet at f32; otherwise the wider wins.
  if ((a == DType::Float16 && b == DType::BFloat16) || (a == DType::BFloat16 && b == DType::Float16))
    return DType::Float32;
  return dtype_size(a) > dtype_size(b) ? a : b;
}

DType result_type(const PromotionOperand* operands, int count) {
  SEAM_ASSERT(count > 0);
  // Promote within each tier, then let a weaker tier win only when its category is higher.
  std::optional<DType> per_tier[3];
  for (int i = 0; i < count; ++i) {
    auto& slot = per_tier[static_cast<int>(operands[i].tier)];
    slot = slot ? promote_types(*slot, operands[i].dtype) : operands[i].dtype;
  }
  std::optional<DType> result;
  for (int tier = 2; tier >= 0; --tier) {
    if (!per_tier[tier]) continue;
    DType candidate = *per_tier[tier];
    if (!result) {
      result = candidate;
      continue;
    }
    if (dtype_category(candidate) <= dtype_category(*result)) continue;
    if (tier == static_cast<int>(PromotionTier::Scalar)) {
      // Python scalars carry only a category: use that category's default dtype.
      candidate = is_floating(candidate) ? DType::Float32 : DType::Int64;
    }
    result = candidate;
  }
  return *result;
}

}  // namespace seam
