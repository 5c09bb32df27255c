// Extents as kernel arguments: the integers of a kernel's index arithmetic (extents, strides, chunk
// ranges, slice and pad offsets) printed as fields of one by-value argument instead of literals, so that
// the printed text, and with it the compiled module, is the same for every size that lowers to the same
// structure (docs/CODEGEN.md, "Size classes"). The values travel next to the module and are packed into
// the argument at launch; divisions and remainders by an argument use a multiply-high by a magic number
// computed here once per size (Granlund and Montgomery's round-up method).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lower/index_algebra.h"

namespace seam {

enum class ExtentSpelling {
  Arguments,  // the default: one compile per size class
  Literals,   // LaunchParams::specialize_extents: one compile per size, the constants folded by NVRTC
};

// The argument values of one printed kernel, in the order its text refers to them.
struct KernelConstants {
  bool index64 = false;           // the kernel's idx_t is 64-bit (the magic numbers differ)
  std::vector<int64_t> values;    // seam_k.v[i]
  std::vector<int64_t> divisors;  // seam_k.d[i]
  // Floating constants of the kernel's math (a mean's 1 / N): seam_k.f[i] where the kernel wants a
  // float (read as one, a double would cost registers to convert), seam_k.e[i] as double elsewhere.
  std::vector<float> floats;
  std::vector<double> doubles;
  bool empty() const { return values.empty() && divisors.empty() && floats.empty() && doubles.empty(); }
  // The argument's bytes as the kernel's `<kernel>_consts` struct lays them out (8-byte words: the
  // values, then per divisor {divisor, magic, shift}, the doubles, then the floats two to a word);
  // 8-byte aligned storage.
  std::vector<uint64_t> pack() const;
};

// Spells the integers of a kernel's index expressions as literals or as argument fields, collecting the
// values in order. One per printed kernel.
class ConstantSpelling final : public kir::IndexSpelling {
 public:
  ConstantSpelling(ExtentSpelling mode, bool index64) : mode_(mode) { constants_.index64 = index64; }
  std::string integer(int64_t value) override;
  // A size the launch loops over (a row kernel's rows, an outer reduction's columns and blocks): an
  // argument even when it is 0 or 1, so that one row and many share a text.
  std::string extent(int64_t value);
  std::string multiplier(int64_t value) override;
  // A floating constant of the kernel's math (`literal`: its text as a literal), converted to f32 where
  // `to_float32`: an argument unless it is 0, 1, -1 or not finite, which are structure (initial values,
  // identities).
  std::string floating(double value, const std::string& literal, bool to_float32);
  // An integer constant of the kernel's math (a frontend's `x.size(1)` that a mean divides by), as a
  // 64-bit value: an argument unless it is 0, 1 or -1 (structure: identities, initial values).
  std::string integer_constant(int64_t value, const std::string& literal);
  std::string quotient(const std::string& numerator, int64_t divisor, bool remainder,
                       bool nonnegative) override;
  const KernelConstants& constants() const { return constants_; }
  // The struct the kernel's argument has (empty when no constant became an argument).
  std::string struct_definition(const std::string& kernel_name) const;
  static std::string struct_name(const std::string& kernel_name) { return kernel_name + "_consts"; }

 private:
  ExtentSpelling mode_;
  KernelConstants constants_;
};

// Words per divisor in KernelConstants::pack: the divisor, the magic multiplier, the shift.
constexpr int kDivisorWords = 3;

}  // namespace seam
