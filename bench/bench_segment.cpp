// Segmentation time and result for every RoPE workload (forward and backward, both contracts) and for a
// transformer stack of 1..30 layers. Targets: < 10 ms per RoPE fusion, < 1 s for 30 layers.
#include <algorithm>
#include <chrono>
#include <cstdio>

#include "passes/pipeline.h"
#include "segment/segment.h"
#include "workloads/rope.h"
#include "workloads/transformer.h"

using namespace seam;

namespace {

struct Timed {
  SegmentedFusion s;
  double ms;  // best of a few runs
};

Timed time_segment(const Fusion& f, const SegmentOptions& o, int runs) {
  double best = 1e30;
  std::optional<SegmentedFusion> s;
  for (int i = 0; i < runs; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    s = segment_fusion(f, o);
    best = std::min(best,
                    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  return {std::move(*s), best};
}

}  // namespace

int main() {
  std::printf("RoPE (after the pass pipeline, bs 2)\n");
  std::printf("%-4s %-10s %-4s %8s %7s %9s %14s %7s %7s %8s %10s\n", "id", "contract", "dir", "time_ms",
              "kernels", "nvf_kern", "boundary_MB", "proven", "bytes", "states", "under_10ms");
  bool all_fast = true;
  for (const RopeConfig& config : rope_configs())
    for (RopeContract contract : {RopeContract::Thunder, RopeContract::RopeOnly})
      for (Direction direction : {Direction::Forward, Direction::Backward}) {
        RopeOptions ro;
        ro.contract = contract;
        ro.direction = direction;
        Fusion f = run_pipeline(build_rope(config, ro));
        Timed t = time_segment(f, {}, 5);
        SegmentOptions nv;
        nv.strategy = SegmentStrategy::NvfuserGreedy;
        nv.rules.duplicate_cheap_ops = false;
        nv.rules.cut_before_slice_pad = true;
        int nvf = segment_fusion(f, nv).num_kernels();
        all_fast = all_fast && t.ms < 10;
        std::printf("%-4s %-10s %-4s %8.3f %7d %9d %14.1f %7s %7s %8lld %10s\n",
                    rope_config_id(config).c_str(), std::string(contract_name(contract)).c_str(),
                    direction == Direction::Forward ? "fwd" : "bwd", t.ms, t.s.num_kernels(), nvf,
                    t.s.boundary_bytes() / 1e6, t.s.proven_optimal ? "yes" : "no",
                    t.s.bytes_proven_optimal ? "yes" : "no", static_cast<long long>(t.s.states_explored),
                    t.ms < 10 ? "yes" : "NO");
      }

  std::printf("\nTransformer stack (defaults of TransformerConfig, strategy auto)\n");
  std::printf("%6s %6s %8s %12s %10s %7s %7s %7s %7s %-28s\n", "layers", "nodes", "kernels", "boundary_MB",
              "time_ms", "proven", "bytes", "states", "greedy", "strategy");
  bool stack_fast = true;
  for (int layers : {1, 2, 4, 8, 16, 30}) {
    TransformerConfig tc;
    tc.layers = layers;
    Fusion f = run_pipeline(build_transformer_stack(tc));
    Timed t = time_segment(f, {}, 1);
    SegmentOptions g;
    g.strategy = SegmentStrategy::Greedy;
    int greedy = segment_fusion(f, g).num_kernels();
    if (layers == 30) stack_fast = t.ms < 1000;
    std::printf("%6d %6d %8d %12.2f %10.2f %7s %7s %7lld %7d %-28s\n", layers, f.num_nodes(),
                t.s.num_kernels(), t.s.boundary_bytes() / 1e6, t.ms, t.s.proven_optimal ? "yes" : "no",
                t.s.bytes_proven_optimal ? "yes" : "no", static_cast<long long>(t.s.states_explored), greedy,
                t.s.strategy.c_str());
  }
  std::printf("\nRoPE all under 10 ms: %s; 30 layers under 1 s: %s\n", all_fast ? "yes" : "NO",
              stack_fast ? "yes" : "NO");
  return all_fast && stack_fast ? 0 : 1;
}
