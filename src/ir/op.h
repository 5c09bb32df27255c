// Op kinds and their static descriptions, generated from op_table.def.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace seam {

enum class OpKind : uint8_t {
#define SEAM_OP(name, ...) name,
#include "ir/op_table.def"
#undef SEAM_OP
};

inline constexpr int kNumOpKinds = 0
#define SEAM_OP(...) +1
#include "ir/op_table.def"
#undef SEAM_OP
    ;

enum class OpCategory : uint8_t {
  Leaf,       // input, const, full, iota: no operands, declared result type
  Unary,      // pointwise
  Binary,     // pointwise
  Ternary,    // pointwise (where)
  Cast,       // pointwise dtype conversion
  Movement,   // index arithmetic only: broadcast, expand, squeeze, reshape, permute, slice, pad, cat
  Reduction,  // sum, max, min over axes
  Random,     // uniform, normal: scalar operands, a tensor of counter-based random numbers (docs/RANDOM.md)
  Indexing,   // index_select, gather, take_along_axis, select: data read at positions an index holds
  Opaque,     // matmul, linear: a vendor library runs them
  Scan,       // cumsum, cumprod, cummin, cummax: inclusive scans, kernels of their own (docs/CODEGEN.md)
  Scatter,    // scatter: a copy of the data with elements written where an index says, a kernel of its own
};

// How a pointwise op's result dtype follows from its operands (docs/IR.md, "Type promotion").
enum class DTypeRule : uint8_t {
  None,          // not a pointwise math op
  Same,          // result = operand dtype (bool rejected)
  ToFloat,       // integer/bool operands promote to f32; floats keep their dtype
  ToBool,        // result is bool, any operand dtype
  Promote,       // result = result_type(operands) (bool result rejected)
  PromoteFloat,  // like Promote, then integer results become f32 (true division)
  Compare,       // operands promoted for comparison, result bool
  Logical,       // result bool, any operand dtypes
  Where,         // condition bool, result = result_type(then, else)
  FloatingOnly,  // result = result_type(operands), which must be floating (frac, nextafter)
  IntegerOnly,   // result = result_type(operands); every operand must be an integer (bitwise, shifts, gcd)
  Predicate,     // result bool, computed in the operand's dtype (signbit)
};

enum class AttrKind : uint8_t { Int, Ints, Number, DType, Bool, String };

struct AttrSpec {
  std::string_view key;
  AttrKind kind;
  bool optional;
};

struct OpInfo {
  OpKind kind;
  std::string_view keyword;
  OpCategory category;
  int min_arity;
  int max_arity;  // -1: variadic
  DTypeRule dtype_rule;
  std::vector<AttrSpec> attrs;  // in printed order
};

const OpInfo& op_info(OpKind kind);
std::optional<OpKind> op_from_keyword(std::string_view keyword);
inline std::string_view op_name(OpKind kind) { return op_info(kind).keyword; }
std::string_view attr_kind_name(AttrKind kind);

inline bool is_pointwise(OpCategory c) {
  return c == OpCategory::Unary || c == OpCategory::Binary || c == OpCategory::Ternary ||
         c == OpCategory::Cast;
}
inline bool is_pointwise(OpKind k) { return is_pointwise(op_info(k).category); }

}  // namespace seam
