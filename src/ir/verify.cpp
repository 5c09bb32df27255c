#include "ir/verify.h"

#include <set>

#include "ir/infer.h"
#include "ir/limits.h"
#include "support/error.h"

namespace seam {

bool is_identifier(std::string_view name) {
  if (name.empty()) return false;
  auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!alpha(name[0])) return false;
  for (char c : name)
    if (!alpha(c) && !(c >= '0' && c <= '9') && c != '.') return false;
  return true;
}

void verify(const Fusion& fusion) {
  SEAM_CHECK(is_identifier(fusion.name()), "fusion name '", fusion.name(), "' is not an identifier");
  check_fusion_size(fusion.num_nodes(), static_cast<int64_t>(fusion.outputs().size()));
  std::set<std::string> input_names;
  for (int32_t id = 0; id < fusion.num_nodes(); ++id) {
    const Node& n = fusion.node(Value{id});
    try {
      std::vector<Type> operand_types;
      for (Value v : n.operands) {
        SEAM_CHECK(v.id >= 0 && v.id < id, "operand %", v.id, " is not defined before this op");
        operand_types.push_back(fusion.type(v));
      }
      Attrs normalized = n.attrs;
      normalized.normalize(n.info());
      SEAM_CHECK(normalized == n.attrs, "attributes are not in schema order");
      Type inferred = infer_type(n.op, operand_types, n.attrs, n.type);
      SEAM_CHECK(inferred == n.type, "stored type ", n.type.to_string(), " differs from the inferred ",
                 inferred.to_string());
      if (const AttrValue* name = n.attrs.find("name")) {
        const auto& text = std::get<std::string>(*name);
        SEAM_CHECK(is_identifier(text), "input name '", text, "' is not an identifier");
        SEAM_CHECK(input_names.insert(text).second, "input name '", text, "' is used twice");
      }
    } catch (const Error& e) {
      throw Error(detail::concat("%", id, " = ", n.info().keyword, ": ", e.what()));
    }
  }
  SEAM_CHECK(!fusion.outputs().empty(), "fusion '", fusion.name(), "' has no outputs");
  std::set<std::string> output_names;
  for (const FusionOutput& out : fusion.outputs()) {
    if (out.name.empty()) continue;
    SEAM_CHECK(is_identifier(out.name), "output name '", out.name, "' is not an identifier");
    SEAM_CHECK(output_names.insert(out.name).second, "output name '", out.name, "' is used twice");
  }
}

}  // namespace seam
