#include "codegen/c_type.h"

#include "support/error.h"

namespace seam {

std::string c_type(DType dtype) {
  switch (dtype) {
    case DType::Bool: return "bool";
    case DType::Int32: return "int";
    case DType::Int64: return "seam_i64";
    case DType::Float16: return "seam_f16";
    case DType::BFloat16: return "seam_bf16";
    case DType::Float32: return "float";
    case DType::Float64: return "double";
    case DType::Float8E4M3FN: return "seam_f8e4m3fn";
    case DType::Float8E5M2: return "seam_f8e5m2";
  }
  SEAM_ASSERT(false);
}

}  // namespace seam
