// Op attributes: literal numbers, integer lists, dtypes, flags and strings, keyed by the names of the
// op's schema in op_table.def.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "ir/dtype.h"
#include "ir/op.h"

namespace seam {

// A literal number as written in the source: bool, integer or floating. The kind matters for type
// promotion of constants and for printing (2 and 2.0 are different literals).
class Number {
 public:
  enum class Kind : uint8_t { Bool, Int, Float };

  Number() : Number(int64_t{0}) {}
  static Number of_bool(bool v) { return Number(Kind::Bool, v ? 1 : 0, v ? 1.0 : 0.0); }
  static Number of_int(int64_t v) { return Number(Kind::Int, v, static_cast<double>(v)); }
  static Number of_float(double v) { return Number(Kind::Float, 0, v); }
  explicit Number(int64_t v) : Number(Kind::Int, v, static_cast<double>(v)) {}

  Kind kind() const { return kind_; }
  bool is_float() const { return kind_ == Kind::Float; }
  // The value as the given computation type; a float converts to integer by truncation.
  double as_double() const { return real_; }
  int64_t as_int() const;
  bool as_bool() const { return kind_ == Kind::Float ? real_ != 0.0 : integer_ != 0; }
  // The dtype a literal of this kind has on its own (bool, i64, f64).
  DType natural_dtype() const;
  std::string to_string() const;  // round-trip exact: floats always show '.', 'e', inf or nan

  friend bool operator==(const Number& a, const Number& b);

 private:
  Number(Kind kind, int64_t integer, double real) : kind_(kind), integer_(integer), real_(real) {}
  Kind kind_;
  int64_t integer_;
  double real_;
};

using AttrValue = std::variant<int64_t, std::vector<int64_t>, Number, DType, bool, std::string>;

AttrKind attr_value_kind(const AttrValue& value);
std::string attr_value_to_string(const AttrValue& value);

// An ordered list of (key, value). Small, so a linear search is the fastest lookup.
class Attrs {
 public:
  Attrs() = default;
  Attrs(std::initializer_list<std::pair<std::string, AttrValue>> items) : items_(items) {}

  Attrs& set(std::string key, AttrValue value);
  bool has(std::string_view key) const { return find(key) != nullptr; }
  const AttrValue* find(std::string_view key) const;

  // Typed access; throws seam::Error when missing or of another kind.
  int64_t get_int(std::string_view key) const;
  const std::vector<int64_t>& get_ints(std::string_view key) const;
  const Number& get_number(std::string_view key) const;
  DType get_dtype(std::string_view key) const;
  bool get_bool(std::string_view key) const;
  const std::string& get_string(std::string_view key) const;

  const std::vector<std::pair<std::string, AttrValue>>& items() const { return items_; }
  bool empty() const { return items_.empty(); }
  friend bool operator==(const Attrs& a, const Attrs& b) { return a.items_ == b.items_; }

  // Puts the items in the op's schema order and checks keys, kinds and required keys against it.
  void normalize(const OpInfo& info);

 private:
  template <typename T>
  const T& get(std::string_view key, AttrKind kind) const;
  std::vector<std::pair<std::string, AttrValue>> items_;
};

}  // namespace seam
