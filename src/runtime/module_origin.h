// Where an executable's compiled module came from: the measure of "one compilation per size class"
// (docs/RUNTIME.md, "Caches"). Sizes of one class print the same kernel text, so a second size finds
// the module already loaded in this process, or its binary in the kernel cache.
#pragma once

#include <string_view>

namespace seam {

enum class ModuleOrigin {
  None,      // no generated kernel (views and library calls only)
  Compiled,  // NVRTC or the host compiler ran
  Cache,     // the binary from the kernel cache (runtime/binary_cache.h), loaded anew
  Loaded,    // a module this process had loaded already for the same text: nothing compiled or loaded
};

constexpr std::string_view module_origin_name(ModuleOrigin origin) {
  switch (origin) {
    case ModuleOrigin::None: return "none";
    case ModuleOrigin::Compiled: return "compiled";
    case ModuleOrigin::Cache: return "cache";
    case ModuleOrigin::Loaded: return "loaded";
  }
  return "?";
}

}  // namespace seam
