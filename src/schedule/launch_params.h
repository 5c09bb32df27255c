// The launch parameters of a generated kernel: a plain, printable struct chosen per kernel from the
// segment (its size) and the input signature (the alignment class of the input addresses), so that a
// kernel's shape can be read in `seam emit` and reproduced by hand. Its fields are the knobs of
// schedule/launch_knobs.def; the plan stage decides the per-kernel values (plan/kernel_knobs.h).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace seam {

// The registers per thread that kernels summing per chunk are capped at (plan/kernel_knobs.h), and
// the bytes of loads in flight they hold: the bound below which a chunk is "light" (groups, no cap).
inline constexpr int kCappedRegisters = 56;
inline constexpr int64_t kCappedRegisterBytes = kCappedRegisters * 4;
inline constexpr int kRegistersPerSm = 65536;

// Every knob of schedule/launch_knobs.def (its comment says what each means), then the target's
// multiprocessors. One default per knob: the table's.
struct LaunchParams {
#define SEAM_KNOB(type, name, default_value, min, max, flag, sweep, help) type name = default_value;
#include "schedule/launch_knobs.def"
#undef SEAM_KNOB
  int sm_count = 132;  // multiprocessors of the target (an H200 by default; the CUDA backend sets it)

  // A one-line summary for `seam emit`'s kernel headers: "block 128, chunks/thread 1, grid uncapped, ...".
  std::string to_string() const;
  friend bool operator==(const LaunchParams&, const LaunchParams&) = default;
};
static_assert(LaunchParams{}.max_group_loaded_bytes == kCappedRegisterBytes,
              "groups stop where capped registers stop holding a chunk's loads");

// One knob of the table, for code that walks them all: printing, `seam emit` flags, the bench sweep.
struct KnobInfo {
  const char* name;  // the LaunchParams field
  const char* type;  // "int", "int64_t" or "bool"
  int64_t default_value, min, max;
  const char* flag;   // `seam emit --flag`; a switch for bools
  const char* sweep;  // space-separated values the benchmark sweep tries
  const char* help;
  int64_t (*get)(const LaunchParams&);
  void (*set)(LaunchParams&, int64_t);  // value within [min, max]
  bool is_bool() const;
};

// The table in declaration order.
const std::vector<KnobInfo>& launch_knobs();
// Every knob as `name=value`, space-separated, in table order (SEAM_DUMP=plan, test messages).
std::string knobs_to_string(const LaunchParams& params);
// Sets knob `name` (a field name or its flag) to `value`; throws seam::Error naming the knob when the
// name is unknown or the value outside its range.
void set_knob(LaunchParams& params, std::string_view name, int64_t value);

}  // namespace seam
