// Segmentation time against fusion size: transformer stacks of 1 to 1,000 layers (after the pass
// pipeline), segmented by seam (strategy auto, default budget unless --budget) and by the nvFuser-like
// greedy (strategy nvfuser-greedy, the same rules, run to the end). Prints per size the values, seam's
// kernels, time (median of --runs: wall clock, and this thread's CPU time), proof and which phase's
// result it kept, the baseline's kernels and times. CPU only.
//
//   bench_segment_time [--layers 1,2,5,...] [--runs 3] [--budget 0.5]
//
// Exits 1 when a seam time exceeds twice the budget (the budget is not honored).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <optional>
#include <string>
#include <vector>

#include "passes/pipeline.h"
#include "segment/segment.h"
#include "workloads/transformer.h"

using namespace seam;

namespace {

struct Timed {
  SegmentedFusion s;
  double ms;      // wall clock, median over the runs
  double cpu_ms;  // this thread's CPU time, median: the work, without the waits of a shared machine
};

double thread_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

Timed time_segment(const Fusion& f, const SegmentOptions& o, int runs) {
  std::vector<double> ms, cpu;
  std::optional<SegmentedFusion> s;
  for (int i = 0; i < runs; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    double c0 = thread_cpu_ms();
    s = segment_fusion(f, o);
    cpu.push_back(thread_cpu_ms() - c0);
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  std::sort(cpu.begin(), cpu.end());
  return {std::move(*s), ms[ms.size() / 2], cpu[cpu.size() / 2]};
}

std::vector<int> parse_list(const char* text) {
  std::vector<int> out;
  for (const char* p = text; *p;) {
    char* end = nullptr;
    long v = std::strtol(p, &end, 10);
    if (end == p || v < 1) {
      std::fprintf(stderr, "--layers wants a comma-separated list of positive integers, got '%s'\n", text);
      std::exit(2);
    }
    out.push_back(static_cast<int>(v));
    p = *end == ',' ? end + 1 : end;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> layers = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000};
  int runs = 3;
  double budget = SegmentOptions{}.time_budget_seconds;
  for (int i = 1; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    if (!std::strcmp(argv[i], "--layers") && has_value) {
      layers = parse_list(argv[++i]);
    } else if (!std::strcmp(argv[i], "--runs") && has_value) {
      runs = std::max(1, std::atoi(argv[++i]));
    } else if (!std::strcmp(argv[i], "--budget") && has_value) {
      budget = std::atof(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: %s [--layers 1,2,5,...] [--runs N] [--budget SECONDS]\n", argv[0]);
      return 2;
    }
  }
  std::printf("Transformer stack, segment_fusion wall time (median of %d runs), budget %.3g s\n", runs,
              budget);
  std::printf("%6s %7s %7s %8s %9s %8s %7s %-8s %9s %8s %8s\n", "layers", "values", "owned", "kernels",
              "time_ms", "cpu_ms", "proven", "result", "nvf_kern", "nvf_ms", "nvf_cpu");
  bool honored = true;
  for (int n : layers) {
    TransformerConfig tc;
    tc.layers = n;
    Fusion f = run_pipeline(build_transformer_stack(tc));
    SegmentOptions o;
    o.time_budget_seconds = budget;
    Timed seam_run = time_segment(f, o, runs);
    SegmentOptions nv;
    nv.strategy = SegmentStrategy::NvfuserGreedy;
    nv.time_budget_seconds = 1e9;  // the baseline runs to the end
    Timed baseline = time_segment(f, nv, runs);
    size_t owned = 0;
    for (const SegmentGroup& g : seam_run.s.groups) owned += g.nodes.size();
    honored = honored && seam_run.ms <= 2000 * budget;
    // Which phase's result was kept: the search's, the greedy merge's or the baseline's.
    const std::string& strategy = seam_run.s.strategy;
    const char* result = strategy == "exact"                ? "exact"
                         : strategy.rfind("greedy", 0) == 0 ? "greedy"
                                                            : "baseline";
    std::printf("%6d %7d %7zu %8d %9.1f %8.1f %7s %-8s %9d %8.1f %8.1f\n", n, f.num_nodes(), owned,
                seam_run.s.num_kernels(), seam_run.ms, seam_run.cpu_ms,
                seam_run.s.proven_optimal ? "yes" : "no", result, baseline.s.num_kernels(), baseline.ms,
                baseline.cpu_ms);
    std::fflush(stdout);
  }
  std::printf("\nevery seam time within twice the budget: %s\n", honored ? "yes" : "NO");
  return honored ? 0 : 1;
}
