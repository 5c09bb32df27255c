#include "codegen/literal_text.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace seam {

std::string literal_text(const Number& n) {
  switch (n.kind()) {
    case Number::Kind::Bool: return n.as_bool() ? "true" : "false";
    case Number::Kind::Int:
      if (n.as_int() == INT64_MIN)
        return "((seam_i64)(-9223372036854775807LL - 1))";  // no such literal in C++
      return "((seam_i64)" + std::to_string(n.as_int()) + "LL)";
    case Number::Kind::Float: break;
  }
  double v = n.as_double();
  if (!std::isfinite(v)) {
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    return "seam_double_from_bits(" + std::to_string(bits) + "ULL)";
  }
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, v);
  std::string text(buffer, result.ptr);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

}  // namespace seam
