// Dumps by stage name: SEAM_DUMP=segments,plan,kir,cuda (comma-separated, or `all`) prints what each
// stage produced to stderr while a fusion compiles (docs/DEBUGGING.md). Read once per process.
#pragma once

#include <string>
#include <string_view>

namespace seam {

// The stage names dumps know: segments, plan, kir, cuda, host.
bool dump_enabled(std::string_view stage);
// Writes `text` to stderr under a header naming the stage and `what` (a fusion or kernel), when enabled.
void dump(std::string_view stage, std::string_view what, const std::string& text);

}  // namespace seam
