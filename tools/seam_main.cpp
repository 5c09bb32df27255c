// seam: the command-line tool. Every pipeline stage can be run alone from here.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <string>

#include "commands.h"
#include "support/error.h"

namespace {

constexpr const char* kUsage = R"(usage: seam COMMAND [ARGS]

Fusions:
  print FILE                 parse and verify a fusion, print it in canonical form
  verify FILE                parse and verify a fusion, print a one-line summary
  run FILE [options]         run a fusion on the reference interpreter
      --input NAME=PATH      an input from a .npy file (NAME: input name or index); repeatable
      --inputs DIR           inputs from DIR/NAME.npy where present
      --seed N               seed for inputs not given (random; default 0)
      --out DIR              write each output to DIR/NAME.npy
      --expect DIR           compare each output with DIR/NAME.npy (exit 3 when they differ)
      --rtol X --atol Y      tolerances for --expect (default: per dtype, like torch.testing)
      --backend B            interp (the reference interpreter, default), host (generated code
                             compiled for the CPU) or cuda (generated code on the GPU)
      --poison               fill outputs with a pattern first (host, cuda): unwritten elements show
Workloads:
  workload rope --config NAME [--batch B] [--seq T] [--contract thunder|rope-only] [--backward] [-o FILE]
  workload transformer [--layers N] [-o FILE]
                             print a built-in workload as fusion text
Passes and segmentation:
  passes FILE [--each]       run the pre-segmentation pipeline (--each: print after every pass)
  pass NAME FILE             run one pass alone
  segment FILE [--strategy S] [--budget SECONDS] [--reproducible] [--no-passes] [--draw OUT.svg|OUT.dot]
                             partition into kernels and print the segmented fusion (--reproducible:
                             budgets in search states, not time: the same result under any load)
                             --strategy auto (default: exact search within the budget, then
                             greedy), exact, greedy, nvfuser-greedy (the nvFuser-like baseline)
                             --budget: search time in seconds (default 0.5)
                             --draw: Graphviz text, or an SVG drawn by Graphviz's `dot`
  emit FILE [--target cuda|host] [--compile ARCH] [--strategy S] [KNOBS]
                             print the generated code of every kernel; --compile sm_90: also compile
                             it with NVRTC (no GPU needed) and print each kernel's registers per thread;
                             KNOBS: the scheduler knobs as flags (--block N, --max-group N,
                             --loads-not-kept, ...): `seam emit --help` lists them all
  plan FILE [--strategy S] [--reproducible] [KNOBS]
                             print what the plan decided per kernel (kind, layout, vectors, launch)
  kir FILE [--pass NAME] [--strategy S] [--reproducible] [KNOBS]
                             print each kernel's kernel IR; --pass: chunk programs as the named kernel-IR
                             pass leaves them (hoist-loop-invariants, merge-guarded-loads, hoist-loads,
                             cse-values) or row kernels as the named row pass does (cache-row-loads,
                             load-ahead, hoist-row-divisors); none: before any
GPU:
  bench FILE... [options]    time fusions on the GPU: kernels launched, GPU time by events and by the
                             kernels' own durations (CUPTI; median per run), the byte floor (every input
                             and output once) in us at the measured copy rate, a device-to-device copy of
                             the same bytes timed in the same run, % of floor and of copy, TB/s
      --iterations N         timed runs per file (default 50), after a first run and 3 of warm-up
      --json                 one JSON object per file and line instead of the table
      --no-cupti             events only (kernel durations need CUPTI: SEAM_CUPTI_LIBRARY names it)
      --copy-rate TBPS       the floor's rate, instead of timing a 2 GiB copy
      --inputs DIR           input set 0 from DIR/NAME.npy (sets 1 and 2 stay random; one FILE)
      --out DIR              write set 0's outputs as DIR/NAME.npy (one FILE)
      --dry-run              no GPU needed: parse, segment and plan; print kernels, byte floor and plan
      KNOBS                  the scheduler's knobs, as `seam emit --help` lists them (--row-load-ahead, ...)
Other:
  demo                       the default example: build Llama-2-13b RoPE, print, verify, run it small
  help                       this text

FILE may be '-' for standard input. Exit codes: 0 ok, 1 error, 2 usage, 3 outputs differ.
)";

}  // namespace

int main(int argc, char** argv) {
  using namespace seam::tool;
  if (argc < 2 || !std::strcmp(argv[1], "help") || !std::strcmp(argv[1], "--help") ||
      !std::strcmp(argv[1], "-h")) {
    std::fputs(kUsage, argc < 2 ? stderr : stdout);
    return argc < 2 ? kExitUsage : kExitOk;
  }
  const std::string command = argv[1];
  auto bench_switches = [] {
    std::set<std::string> switches = knob_switches();
    switches.insert({"json", "no-cupti", "dry-run"});
    return switches;
  };
  struct Entry {
    const char* name;
    int (*run)(Args&);
    std::set<std::string> switches;
  };
  const Entry entries[] = {
      {"print", cmd_print, {}},
      {"verify", cmd_verify, {}},
      {"run", cmd_run, {"poison"}},
      {"workload", cmd_workload, {"backward"}},
      {"passes", cmd_passes, {"each"}},
      {"pass", cmd_pass, {}},
      {"segment", cmd_segment, {"no-passes", "reproducible"}},
      {"emit", cmd_emit, emit_switches()},
      {"plan", cmd_plan, plan_switches()},
      {"kir", cmd_kir, plan_switches()},
      {"bench", cmd_bench, bench_switches()},
      {"demo", cmd_demo, {}},
  };
  try {
    for (const Entry& entry : entries) {
      if (command != entry.name) continue;
      // `seam segment --help`: the usage, not "option --help needs a value"; a command with a help of
      // its own (emit's knobs) takes --help as a switch.
      if (!entry.switches.count("help") &&
          std::any_of(argv + 2, argv + argc, [](const char* a) { return !std::strcmp(a, "--help"); })) {
        std::fputs(kUsage, stdout);
        return kExitOk;
      }
      Args args(argc, argv, 2, entry.switches);
      return entry.run(args);
    }
    std::fprintf(stderr, "seam: unknown command '%s'\n\n%s", command.c_str(), kUsage);
    return kExitUsage;
  } catch (const seam::Error& e) {
    std::fprintf(stderr, "seam: error: %s\n", e.what());
    return kExitError;
  } catch (const seam::InternalError& e) {
    std::fprintf(stderr, "seam: internal error (a bug in seam): %s\n", e.what());
    return kExitError;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "seam: error: out of memory\n");
    return kExitError;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "seam: error: %s\n", e.what());
    return kExitError;
  }
}
