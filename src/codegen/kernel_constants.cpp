#include "codegen/kernel_constants.h"

#include <bit>
#include <cmath>

namespace seam {
namespace {

// The magic multiplier and shift of an unsigned division by d for numerators below 2^(bits-1), as
// q = (umulhi(n, m) + n) >> s with s = ceil(log2 d) and m = floor(2^bits * (2^s - d) / d) + 1: exact for
// every such n (the sum cannot overflow `bits`). d <= 0 never divides at run time (a size-0 axis has no
// elements): zeros.
struct Magic {
  uint64_t multiplier = 0;
  int shift = 0;
};

Magic magic_for(int64_t d, bool wide) {
  Magic magic;
  if (d <= 0) return magic;
  const auto ud = static_cast<uint64_t>(d);
  magic.shift = ud == 1 ? 0 : 64 - std::countl_zero(ud - 1);
  const unsigned __int128 excess = (static_cast<unsigned __int128>(1) << magic.shift) - ud;
  const int bits = wide ? 64 : 32;
  magic.multiplier = static_cast<uint64_t>(((excess << bits) / ud) + 1);
  return magic;
}

}  // namespace

std::vector<uint64_t> KernelConstants::pack() const {
  std::vector<uint64_t> words;
  words.reserve(values.size() + divisors.size() * kDivisorWords);
  for (int64_t v : values) words.push_back(static_cast<uint64_t>(v));
  for (int64_t d : divisors) {
    const Magic magic = magic_for(d, index64);
    words.push_back(static_cast<uint64_t>(d));
    words.push_back(magic.multiplier);
    words.push_back(static_cast<uint64_t>(magic.shift));
  }
  for (double f : doubles) words.push_back(std::bit_cast<uint64_t>(f));
  for (size_t i = 0; i < floats.size(); i += 2) {
    const uint64_t low = std::bit_cast<uint32_t>(floats[i]);
    const uint64_t high = i + 1 < floats.size() ? std::bit_cast<uint32_t>(floats[i + 1]) : 0;
    words.push_back(low | (high << 32));  // little-endian: float i at the lower address
  }
  return words;
}

std::string ConstantSpelling::integer(int64_t value) {
  // Small constants are structure, not size: 0 and 1 decide the shape of the arithmetic already (the
  // algebra folds x * 1 and x + 0), and a literal keeps negative offsets readable.
  if (mode_ == ExtentSpelling::Literals || (value >= -1 && value <= 1)) return std::to_string(value);
  constants_.values.push_back(value);
  return "((idx_t)seam_k.v[" + std::to_string(constants_.values.size() - 1) + "])";
}

std::string ConstantSpelling::extent(int64_t value) {
  if (mode_ == ExtentSpelling::Literals) return std::to_string(value);
  constants_.values.push_back(value);
  return "((idx_t)seam_k.v[" + std::to_string(constants_.values.size() - 1) + "])";
}

std::string ConstantSpelling::multiplier(int64_t value) {
  // A vector's lanes (2, 4, 8, 16) scale vector indices into element offsets: as literals, the offsets of
  // a persistent row's unrolled iterations stay immediates of the loads (softmax 16384 x 8192 for sm_90:
  // 64 registers, 77 with the multiplier an argument). Strides, which change with sizes, are arguments.
  if (value > 1 && value <= 16 && (value & (value - 1)) == 0) return std::to_string(value);
  return integer(value);
}

std::string ConstantSpelling::floating(double value, const std::string& literal, bool to_float32) {
  if (mode_ == ExtentSpelling::Literals || !std::isfinite(value) || value == 0 || value == 1 || value == -1)
    return literal;
  if (to_float32) {  // what seam_convert<float> of the literal gives, read as a float
    constants_.floats.push_back(static_cast<float>(value));
    return "seam_k.f[" + std::to_string(constants_.floats.size() - 1) + "]";
  }
  constants_.doubles.push_back(value);
  return "seam_k.e[" + std::to_string(constants_.doubles.size() - 1) + "]";
}

std::string ConstantSpelling::integer_constant(int64_t value, const std::string& literal) {
  if (mode_ == ExtentSpelling::Literals || (value >= -1 && value <= 1)) return literal;
  constants_.values.push_back(value);
  return "((seam_i64)seam_k.v[" + std::to_string(constants_.values.size() - 1) + "])";
}

std::string ConstantSpelling::quotient(const std::string& numerator, int64_t divisor, bool remainder,
                                       bool nonnegative) {
  if (mode_ == ExtentSpelling::Literals || !nonnegative || divisor <= 1)
    return "(" + numerator + (remainder ? " % " : " / ") + integer(divisor) + ")";
  constants_.divisors.push_back(divisor);
  return std::string(remainder ? "seam_fast_mod(" : "seam_fast_div(") + numerator + ", seam_k.d[" +
         std::to_string(constants_.divisors.size() - 1) + "])";
}

std::string ConstantSpelling::struct_definition(const std::string& kernel_name) const {
  if (constants_.empty()) return "";
  std::string text = "struct " + struct_name(kernel_name) + " {";
  if (!constants_.values.empty()) text += " long long v[" + std::to_string(constants_.values.size()) + "];";
  if (!constants_.divisors.empty())
    text += " seam_divisor d[" + std::to_string(constants_.divisors.size()) + "];";
  if (!constants_.doubles.empty()) text += " double e[" + std::to_string(constants_.doubles.size()) + "];";
  if (!constants_.floats.empty()) text += " float f[" + std::to_string(constants_.floats.size()) + "];";
  return text + " };\n";
}

}  // namespace seam
