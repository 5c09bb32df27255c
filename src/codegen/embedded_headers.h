// The helper headers generated code includes (src/codegen/headers/*, src/support/half.h), embedded at
// build time so that NVRTC and the host compiler get them without the source tree.
#pragma once

#include <string_view>
#include <vector>

namespace seam {

struct EmbeddedHeader {
  std::string_view name;  // include name, e.g. "seam_device.cuh" or "support/half.h"
  std::string_view text;
};

const std::vector<EmbeddedHeader>& embedded_headers();

}  // namespace seam
