// How generated code spells a dtype: the storage and compute C type of its elements, bool, int, float and
// double natively, the others as the helper headers' types (codegen/headers: seam_i64, seam_f16, ...).
#pragma once

#include <string>

#include "ir/dtype.h"

namespace seam {

std::string c_type(DType dtype);

}  // namespace seam
