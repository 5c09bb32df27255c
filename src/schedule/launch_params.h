// The launch parameters of a generated kernel: a plain, printable struct chosen per kernel from the
// segment (its size) and the input signature (the alignment class of the input addresses), so that a
// kernel's shape can be read in `seam emit` and reproduced by hand. Its fields are the knobs of
// schedule/launch_knobs.def; the plan stage (src/plan) decides the per-kernel values.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace seam {

// The registers per thread that kernels summing per chunk are capped at (see choose_launch_params), and
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

// What choose_launch_params needs to know of a kernel.
struct KernelWork {
  int64_t total_chunks = 0;            // work items
  bool sums_per_chunk = false;         // a chunk sums several reads (an inlined reduction, e.g. GQA backward)
  int64_t loaded_bytes_per_chunk = 0;  // on the heaviest path (kir::loaded_bytes_per_chunk)
  bool grouped = false;                // its chunks compute groups of values (kir::ChunkOrder::group > 1)
};

// What lowering needs of one kernel's parameters, chosen before it is lowered: max_group (when 0) is 2
// for kernels that sum per chunk, 1 otherwise. Measured (bench/RESULTS.md, session 5): pairs over the
// batch, which share the chunk's index arithmetic and branch conditions, took GQA backward from 84-88% to
// 87-92% of the floor; forward rows lost 0.5-2 points with groups of 2, 4 or 8. The grouped GQA backward
// body is twice as long: its cold compile rises ~1.7x.
LaunchParams choose_lowering_params(bool sums_per_chunk, const LaunchParams& defaults);

// The parameters for one kernel: the defaults, with min_blocks_per_sm (when -1) the blocks that fit at
// kCappedRegisters (9 of 128 threads) for kernels that sum per chunk and load more per chunk than those
// registers hold (224 bytes), none otherwise. GQA backward (20-36
// loads of 16 bytes per chunk, 58-61 registers, 8 blocks of 128 threads per SM) capped at 56 registers
// runs 9 blocks and gains 2-4 points of the floor, W3-W6 (bench/RESULTS.md, session 6); capped at 48 (10
// blocks) it spills and gains nothing. A kernel below the cap gets slower with it: ptxas then spends up
// to the cap (MHA backward 30 -> 48 registers, -13%; gemma's GQA backward, 12 loads, 40 -> 51). And
// chunks_per_thread (when 0) chosen from the work (a grouped chunk counting as two):
// 2 for kernels that sum per chunk, 1 otherwise (the launch-shape sweep of bench/RESULTS.md, session 4:
// GQA backward, 55-60 registers, +2-5 points of the floor with half the grid; forward +1-2 points with
// one chunk per thread). A kernel too small to give every thread of a full wave that many chunks takes
// one chunk per thread, so that it still spreads over every multiprocessor.
LaunchParams choose_launch_params(const KernelWork& work, const LaunchParams& defaults);

}  // namespace seam
