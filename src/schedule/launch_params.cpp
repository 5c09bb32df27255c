#include "schedule/launch_params.h"

#include <algorithm>

#include "support/error.h"

namespace seam {

std::string LaunchParams::to_string() const {
  return "block " + std::to_string(block_size) + ", chunks/thread " +
         (chunks_per_thread > 0 ? std::to_string(chunks_per_thread) : "per kernel") + ", grid " +
         (max_blocks_per_sm > 0 ? "<= " + std::to_string(max_blocks_per_sm) + " blocks/SM" : "uncapped") +
         (min_blocks_per_sm < 0 ? ", register cap per kernel" : "") +
         (min_blocks_per_sm > 0 ? ", registers for " + std::to_string(min_blocks_per_sm) + " blocks/SM"
                                : "") +
         ", vectors <= " + std::to_string(max_vector_bytes) + " B" + (branch_free ? ", branch-free" : "") +
         (row_tile > 1 ? ", rows tiled by " + std::to_string(row_tile) + " (" + std::to_string(run_row_tile) +
                             " in runs)"
                       : "") +
         (max_copies > 1 ? ", copies <= " + std::to_string(max_copies) : "") +
         (uniform_branches ? ", uniform branches" : "") +
         (max_group > 1 ? ", groups <= " + std::to_string(max_group) : "") +
         (max_group == 0 ? ", groups per kernel" : "") +
         (max_group != 1 && max_group_loaded_bytes > 0
              ? " (chunks loading <= " + std::to_string(max_group_loaded_bytes) + " B)"
              : "") +
         (keep_reused_loads ? ", reused loads kept in L2" : "") +
         (streaming_stores ? ", streaming stores" : "") + (unaligned_loads ? "" : ", aligned loads only") +
         (reduction_loop_unroll > 0 ? ", reduction loops unrolled " + std::to_string(reduction_loop_unroll)
                                    : "");
}

bool KnobInfo::is_bool() const { return std::string_view(type) == "bool"; }

const std::vector<KnobInfo>& launch_knobs() {
  static const std::vector<KnobInfo> knobs = {
#define SEAM_KNOB(type, name, default_value, min, max, flag, sweep, help)      \
  KnobInfo{#name,                                                              \
           #type,                                                              \
           static_cast<int64_t>(default_value),                                \
           static_cast<int64_t>(min),                                          \
           static_cast<int64_t>(max),                                          \
           flag,                                                               \
           sweep,                                                              \
           help,                                                               \
           [](const LaunchParams& p) { return static_cast<int64_t>(p.name); }, \
           [](LaunchParams& p, int64_t v) { p.name = static_cast<type>(v); }},
#include "schedule/launch_knobs.def"
#undef SEAM_KNOB
  };
  return knobs;
}

std::string knobs_to_string(const LaunchParams& params) {
  std::string out;
  for (const KnobInfo& knob : launch_knobs()) {
    if (!out.empty()) out += " ";
    out += std::string(knob.name) + "=" + std::to_string(knob.get(params));
  }
  return out;
}

void set_knob(LaunchParams& params, std::string_view name, int64_t value) {
  for (const KnobInfo& knob : launch_knobs()) {
    if (name != knob.name && name != knob.flag) continue;
    SEAM_CHECK(value >= knob.min && value <= knob.max, "knob ", knob.name, " (--", knob.flag, ") must be ",
               knob.min, " to ", knob.max, ", got ", value);
    knob.set(params, value);
    return;
  }
  throw Error(detail::concat("unknown knob '", name, "' (schedule/launch_knobs.def lists them)"));
}

}  // namespace seam
