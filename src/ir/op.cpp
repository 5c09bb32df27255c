#include "ir/op.h"

#include <array>
#include <string>
#include <unordered_map>

#include "support/error.h"

namespace seam {
namespace {

std::vector<AttrSpec> parse_schema(std::string_view schema) {
  std::vector<AttrSpec> specs;
  size_t pos = 0;
  while (pos < schema.size()) {
    size_t end = schema.find(' ', pos);
    if (end == std::string_view::npos) end = schema.size();
    std::string_view item = schema.substr(pos, end - pos);
    pos = end + 1;
    if (item.empty()) continue;
    size_t colon = item.find(':');
    SEAM_ASSERT(colon != std::string_view::npos, "bad attribute schema item ", item);
    std::string_view key = item.substr(0, colon), kind = item.substr(colon + 1);
    bool optional = !key.empty() && key.back() == '?';
    if (optional) key.remove_suffix(1);
    AttrKind attr_kind;
    if (kind == "int")
      attr_kind = AttrKind::Int;
    else if (kind == "ints")
      attr_kind = AttrKind::Ints;
    else if (kind == "number")
      attr_kind = AttrKind::Number;
    else if (kind == "dtype")
      attr_kind = AttrKind::DType;
    else if (kind == "bool")
      attr_kind = AttrKind::Bool;
    else if (kind == "string")
      attr_kind = AttrKind::String;
    else
      SEAM_ASSERT(false, "bad attribute kind ", kind);
    specs.push_back({key, attr_kind, optional});
  }
  return specs;
}

const std::array<OpInfo, kNumOpKinds>& table() {
  static const std::array<OpInfo, kNumOpKinds> infos = {{
#define SEAM_OP(name, keyword, category, min_arity, max_arity, schema, rule, ...) \
  OpInfo{OpKind::name, keyword,         OpCategory::category, min_arity,          \
         max_arity,    DTypeRule::rule, parse_schema(schema)},
#include "ir/op_table.def"
#undef SEAM_OP
  }};
  return infos;
}

}  // namespace

const OpInfo& op_info(OpKind kind) { return table()[static_cast<size_t>(kind)]; }

std::optional<OpKind> op_from_keyword(std::string_view keyword) {
  static const std::unordered_map<std::string_view, OpKind> by_keyword = [] {
    std::unordered_map<std::string_view, OpKind> map;
    for (const OpInfo& info : table()) map.emplace(info.keyword, info.kind);
    return map;
  }();
  auto it = by_keyword.find(keyword);
  if (it == by_keyword.end()) return std::nullopt;
  return it->second;
}

std::string_view attr_kind_name(AttrKind kind) {
  switch (kind) {
    case AttrKind::Int: return "int";
    case AttrKind::Ints: return "ints";
    case AttrKind::Number: return "number";
    case AttrKind::DType: return "dtype";
    case AttrKind::Bool: return "bool";
    case AttrKind::String: return "string";
  }
  SEAM_ASSERT(false, "unknown attribute kind");
}

}  // namespace seam
