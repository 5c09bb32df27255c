#include "ir/attr.h"

#include <charconv>
#include <cmath>

#include "support/error.h"

namespace seam {

int64_t Number::as_int() const {
  if (kind_ != Kind::Float) return integer_;
  SEAM_CHECK(std::isfinite(real_) && std::fabs(real_) < 9.2e18, "cannot convert ", to_string(),
             " to an integer");
  return static_cast<int64_t>(real_);
}

DType Number::natural_dtype() const {
  switch (kind_) {
    case Kind::Bool: return DType::Bool;
    case Kind::Int: return DType::Int64;
    case Kind::Float: return DType::Float64;
  }
  SEAM_ASSERT(false);
}

std::string Number::to_string() const {
  switch (kind_) {
    case Kind::Bool: return integer_ ? "true" : "false";
    case Kind::Int: return std::to_string(integer_);
    case Kind::Float: break;
  }
  if (std::isnan(real_)) return "nan";
  if (std::isinf(real_)) return real_ > 0 ? "inf" : "-inf";
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof(buffer), real_);  // shortest round-trip form
  std::string text(buffer, result.ptr);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

bool operator==(const Number& a, const Number& b) {
  if (a.kind_ != b.kind_) return false;
  if (a.kind_ != Number::Kind::Float) return a.integer_ == b.integer_;
  if (std::isnan(a.real_) && std::isnan(b.real_)) return true;
  return a.real_ == b.real_ && std::signbit(a.real_) == std::signbit(b.real_);
}

AttrKind attr_value_kind(const AttrValue& value) {
  switch (value.index()) {
    case 0: return AttrKind::Int;
    case 1: return AttrKind::Ints;
    case 2: return AttrKind::Number;
    case 3: return AttrKind::DType;
    case 4: return AttrKind::Bool;
    default: return AttrKind::String;
  }
}

namespace {
std::string quote(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out + "\"";
}
}  // namespace

std::string attr_value_to_string(const AttrValue& value) {
  struct Printer {
    std::string operator()(int64_t v) const { return std::to_string(v); }
    std::string operator()(const std::vector<int64_t>& v) const {
      std::string out = "[";
      for (size_t i = 0; i < v.size(); ++i) out += (i ? "," : "") + std::to_string(v[i]);
      return out + "]";
    }
    std::string operator()(const Number& v) const { return v.to_string(); }
    std::string operator()(DType v) const { return std::string(dtype_name(v)); }
    std::string operator()(bool v) const { return v ? "true" : "false"; }
    std::string operator()(const std::string& v) const { return quote(v); }
  };
  return std::visit(Printer{}, value);
}

Attrs& Attrs::set(std::string key, AttrValue value) {
  for (auto& item : items_) {
    if (item.first == key) {
      item.second = std::move(value);
      return *this;
    }
  }
  items_.emplace_back(std::move(key), std::move(value));
  return *this;
}

const AttrValue* Attrs::find(std::string_view key) const {
  for (const auto& item : items_)
    if (item.first == key) return &item.second;
  return nullptr;
}

template <typename T>
const T& Attrs::get(std::string_view key, AttrKind kind) const {
  const AttrValue* value = find(key);
  SEAM_CHECK(value != nullptr, "missing attribute '", key, "'");
  SEAM_CHECK(attr_value_kind(*value) == kind, "attribute '", key, "' must be of kind ", attr_kind_name(kind),
             ", got ", attr_kind_name(attr_value_kind(*value)));
  return std::get<T>(*value);
}

int64_t Attrs::get_int(std::string_view key) const { return get<int64_t>(key, AttrKind::Int); }
const std::vector<int64_t>& Attrs::get_ints(std::string_view key) const {
  return get<std::vector<int64_t>>(key, AttrKind::Ints);
}
const Number& Attrs::get_number(std::string_view key) const { return get<Number>(key, AttrKind::Number); }
DType Attrs::get_dtype(std::string_view key) const { return get<DType>(key, AttrKind::DType); }
bool Attrs::get_bool(std::string_view key) const { return get<bool>(key, AttrKind::Bool); }
const std::string& Attrs::get_string(std::string_view key) const {
  return get<std::string>(key, AttrKind::String);
}

void Attrs::normalize(const OpInfo& info) {
  for (size_t i = 0; i < items_.size(); ++i) {
    const auto& item = items_[i];
    for (size_t j = 0; j < i; ++j)
      SEAM_CHECK(items_[j].first != item.first, "attribute '", item.first, "' given twice");
    const AttrSpec* spec = nullptr;
    for (const AttrSpec& s : info.attrs)
      if (s.key == item.first) spec = &s;
    SEAM_CHECK(spec != nullptr, "op '", info.keyword, "' has no attribute '", item.first, "'");
    AttrKind kind = attr_value_kind(item.second);
    // An empty list is written "[]" and parses as ints; an integer literal is a valid number.
    SEAM_CHECK(kind == spec->kind, "attribute '", item.first, "' of op '", info.keyword, "' must be of kind ",
               attr_kind_name(spec->kind), ", got ", attr_kind_name(kind));
  }
  std::vector<std::pair<std::string, AttrValue>> ordered;
  for (const AttrSpec& spec : info.attrs) {
    const AttrValue* value = find(spec.key);
    SEAM_CHECK(value != nullptr || spec.optional, "op '", info.keyword, "' needs attribute '", spec.key, "'");
    if (value) ordered.emplace_back(std::string(spec.key), *value);
  }
  items_ = std::move(ordered);
}

}  // namespace seam
