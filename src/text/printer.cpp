#include "text/printer.h"

#include <charconv>

namespace seam {
namespace {

void append_int(std::string& out, int64_t value) {
  char buffer[24];
  auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  out.append(buffer, result.ptr);
}

void append_ints(std::string& out, const std::vector<int64_t>& values) {
  out += '[';
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out += ',';
    append_int(out, values[i]);
  }
  out += ']';
}

void append_value(std::string& out, Value v) {
  out += '%';
  append_int(out, v.id);
}

void append_attr(std::string& out, const AttrValue& value) {
  // The common kinds are appended in place; the rare ones reuse the IR's printing.
  if (const auto* i = std::get_if<int64_t>(&value)) return append_int(out, *i);
  if (const auto* list = std::get_if<std::vector<int64_t>>(&value)) return append_ints(out, *list);
  if (const auto* d = std::get_if<DType>(&value)) {
    out += dtype_name(*d);
    return;
  }
  out += attr_value_to_string(value);
}

void append_type(std::string& out, const Type& type) {
  out += dtype_name(type.dtype);
  if (!type.is_scalar) append_ints(out, type.shape);
}

}  // namespace

std::string print_fusion(const Fusion& fusion) {
  std::string out;
  out.reserve(64 + static_cast<size_t>(fusion.num_nodes()) * 48);
  out += "fusion ";
  out += fusion.name();
  out += " {\n";
  for (int32_t id = 0; id < fusion.num_nodes(); ++id) {
    const Node& node = fusion.node(Value{id});
    out += "  ";
    append_value(out, Value{id});
    out += " = ";
    out += node.info().keyword;
    for (size_t i = 0; i < node.operands.size(); ++i) {
      out += i ? ", " : " ";
      append_value(out, node.operands[i]);
    }
    if (!node.attrs.empty()) {
      out += " {";
      bool first = true;
      for (const auto& [key, value] : node.attrs.items()) {
        if (!first) out += ", ";
        first = false;
        out += key;
        out += '=';
        append_attr(out, value);
      }
      out += '}';
    }
    out += " : ";
    append_type(out, node.type);
    out += '\n';
  }
  out += "  return";
  for (size_t i = 0; i < fusion.outputs().size(); ++i) {
    const FusionOutput& output = fusion.outputs()[i];
    out += i ? ", " : " ";
    if (!output.name.empty()) {
      out += output.name;
      out += '=';
    }
    append_value(out, output.value);
  }
  out += "\n}\n";
  return out;
}

}  // namespace seam
