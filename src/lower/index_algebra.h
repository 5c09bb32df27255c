// Index algebra of the kernel IR: folded expression trees over index variables (chunk, row and loop
// indices) with known bounds, so that lowering can prove vector widths and drop divisions the bounds make
// exact (docs/CODEGEN.md, "Index bounds"), and printers can print them.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace seam::kir {

struct IndexNode;
using Index = std::shared_ptr<const IndexNode>;

struct IndexNode {
  enum class Op { Const, Var, Add, Mul, Div, Mod, Select };
  Op op;
  int64_t value = 0;  // Const: the value; Mul/Div/Mod: the constant right operand; Select: the bound
  std::string var;    // Var
  Index a, b;         // Add: a + b; Mul/Div/Mod: a op value; Select: c < value ? a : b
  Index c = nullptr;  // Select: the index compared
  // Known only when the value is provably in [0, bound): chunk indices, loop and row variables, the
  // coordinates computed from them and the offsets built from those. Unknown (nullopt) where it may be
  // negative (a pad's or cat piece's `i - begin`) or is not known; computed when the node is built.
  std::optional<int64_t> bound;
};

// Bounds above this are dropped (unknown), so that bound arithmetic cannot overflow.
constexpr int64_t kLargestKnownBound = int64_t{1} << 62;

Index constant(int64_t value);
Index variable(std::string name, std::optional<int64_t> bound = std::nullopt);  // value in [0, bound)
Index add(Index a, Index b);
Index add(Index a, int64_t b);
Index mul(Index a, int64_t b);
// Division and remainder as C computes them (truncating). Both fold exact multiples and, where the
// bounds prove it, drop what cannot change the result (docs/CODEGEN.md, "Index bounds"): with
// 0 <= r < 80, ((x * 80) + r) / 80 is x and ((x * 80) + r) % 80 is r.
Index div(Index a, int64_t b);
Index mod(Index a, int64_t b);
Index select_below(Index c, int64_t bound, Index a, Index b);  // c < bound ? a : b
std::optional<int64_t> constant_value(const Index& index);
// Whether every value of `index` is a multiple of k, as its structure shows (x * 8 + 16 of 8; not x).
bool multiple_of(const Index& index, int64_t k);
std::string to_string(const Index& index);

// How a printer spells the integers of an index expression: literals (to_string above), or kernel
// arguments so that one compiled kernel serves every size of a class (codegen/kernel_constants.h).
class IndexSpelling {
 public:
  virtual ~IndexSpelling() = default;
  virtual std::string integer(int64_t value) = 0;
  // The constant right operand of a product (index * value).
  virtual std::string multiplier(int64_t value) { return integer(value); }
  // `numerator / divisor` (or `%`); `nonnegative`: the numerator is provably >= 0.
  virtual std::string quotient(const std::string& numerator, int64_t divisor, bool remainder,
                               bool nonnegative) = 0;
};
std::string to_string(const Index& index, IndexSpelling& spelling);

}  // namespace seam::kir
