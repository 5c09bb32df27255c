// Dumps by stage name: SEAM_DUMP=segments,plan,kir,cuda,host (comma-separated) prints what each stage
// produced to stderr while a fusion compiles (docs/DEBUGGING.md); segment_fusion prints `segments`
// itself. Read once per process; an unknown name is a seam::Error at the first dump.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <string_view>

namespace seam {

// The stages a SEAM_DUMP value names; throws seam::Error for an unknown one.
std::set<std::string, std::less<>> parse_dump_stages(std::string_view list);

// Whether SEAM_DUMP names `stage` (segments, plan, kir, cuda, host).
bool dump_enabled(std::string_view stage);
// Writes `text` to stderr under a header naming the stage and `what` (a fusion or kernel), when enabled.
void dump(std::string_view stage, std::string_view what, const std::string& text);

}  // namespace seam
