// Segmentation time against fusion size: transformer stacks of 1 to 1,000 layers (after the pass
// pipeline), segmented by seam (strategy auto, default budget unless --budget) and by the nvFuser-like
// greedy (strategy nvfuser-greedy, the same rules, run to the end). Prints per size the values, seam's
// kernels, time (median of --runs) and proof, the baseline's kernels and time. CPU only.
//
//   bench_segment_time [--layers 1,2,5,...] [--runs 3] [--budget 0.5]
//
// Exits 1 when a seam time exceeds twice the budget (the budget is not honored).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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
  double ms;  // median over the runs
};

Timed time_segment(const Fusion& f, const SegmentOptions& o, int runs) {
  std::vector<double> ms;
  std::optional<SegmentedFusion> s;
  for (int i = 0; i < runs; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    s = segment_fusion(f, o);
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  return {std::move(*s), ms[ms.size() / 2]};
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
  std::printf("%6s %7s %7s %8s %10s %7s %-31s %9s %10s\n", "layers", "values", "owned", "kernels", "time_ms",
              "proven", "strategy", "nvf_kern", "nvf_ms");
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
    std::printf("%6d %7d %7zu %8d %10.1f %7s %-31s %9d %10.1f\n", n, f.num_nodes(), owned,
                seam_run.s.num_kernels(), seam_run.ms, seam_run.s.proven_optimal ? "yes" : "no",
                seam_run.s.strategy.c_str(), baseline.s.num_kernels(), baseline.ms);
    std::fflush(stdout);
  }
  std::printf("\nevery seam time within twice the budget: %s\n", honored ? "yes" : "NO");
  return honored ? 0 : 1;
}
