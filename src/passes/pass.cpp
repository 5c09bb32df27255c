#include "passes/pass.h"

#include "support/error.h"

namespace seam {

void check_interface_preserved(const Fusion& before, const Fusion& after, std::string_view pass_name) {
  SEAM_ASSERT(before.inputs().size() == after.inputs().size(), "pass '", pass_name,
              "' changed the number of inputs from ", before.inputs().size(), " to ", after.inputs().size());
  for (size_t i = 0; i < before.inputs().size(); ++i) {
    const Node& was = before.node(before.inputs()[i]);
    const Node& now = after.node(after.inputs()[i]);
    SEAM_ASSERT(was.type == now.type && was.attrs == now.attrs, "pass '", pass_name, "' changed input ", i,
                " from ", was.type.to_string(), " to ", now.type.to_string(), " or its name or strides");
  }
  SEAM_ASSERT(before.outputs().size() == after.outputs().size(), "pass '", pass_name,
              "' changed the number of outputs from ", before.outputs().size(), " to ",
              after.outputs().size());
  for (size_t i = 0; i < before.outputs().size(); ++i) {
    const FusionOutput& was = before.outputs()[i];
    const FusionOutput& now = after.outputs()[i];
    SEAM_ASSERT(was.name == now.name, "pass '", pass_name, "' renamed output ", i, " from '", was.name,
                "' to '", now.name, "'");
    SEAM_ASSERT(before.type(was.value) == after.type(now.value), "pass '", pass_name, "' changed output ", i,
                " from ", before.type(was.value).to_string(), " to ", after.type(now.value).to_string());
  }
  SEAM_ASSERT(before.name() == after.name(), "pass '", pass_name, "' renamed the fusion");
}

}  // namespace seam
