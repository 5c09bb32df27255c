// The rows of the RoPE benchmark (bench/bench_rope_gpu.cpp): which workload, contract, direction, batch
// and sequence length, their byte floors (WORKLOADS.md, "Floors"), and the selection flags shared by the
// benchmark and its PyTorch driver (bench/rope_vs_torch.py).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "workloads/rope.h"

namespace seam::bench {

struct RopeRow {
  const RopeConfig* config = nullptr;
  RopeOptions options;  // seq_len resolved (never 0)

  std::string id() const;     // "W2"
  std::string label() const;  // "W2 Llama-2-13b-hf"
  bool backward() const { return options.direction == Direction::Backward; }
};

// Bytes a perfect kernel moves. Forward: read the q and k parts of qkv (and the v part when v is
// materialized) and cos/sin once, write every output that is not a view. Backward: read every output
// gradient and cos/sin, write dqkv.
double floor_bytes(const RopeRow& row);

struct RowFilter {
  std::string only;       // workload ids, comma-separated ("W2" or "W2,W3"), or empty for all
  std::string contract;   // "thunder", "rope-only" or empty for both
  std::string direction;  // "forward", "backward", "both" (default: forward)
  int64_t batch = 0;      // 0: 1 and 2 (forward), 2 (backward, as the targets)
  int64_t seq_len = 0;    // 0: each config's block_size
  bool quick = false;     // W2 thunder bs 2 forward only
  bool t_sweep = false;   // W2 and W3 thunder bs 2 forward over T = 1024 .. 32768 instead
};

// The rows the filter selects; an error when none does (a mistyped id or contract).
std::vector<RopeRow> select_rows(const RowFilter& filter);

}  // namespace seam::bench
