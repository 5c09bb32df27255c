// The RoPE workloads (docs/WORKLOADS.md): the fusion between the QKV
// projection and attention of a Llama-style layer, emitted op by op the way Lightning Thunder's trace of
// litgpt 0.5.0 reaches a fusion compiler, forward and backward, for the "thunder" and "rope-only"
// output contracts.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ir/builder.h"

namespace seam {

// One attention geometry, litgpt's names and values.
struct RopeConfig {
  std::string name;        // litgpt's config name, e.g. "Llama-2-7b-hf"
  int64_t n_head;          // nh: query heads
  int64_t n_query_groups;  // ng: key/value heads; nh / ng queries share one group
  int64_t head_size;       // hs
  int64_t rope_n_elem;     // n: rotated elements of a head (rotary_percentage * hs), even, <= hs
  int64_t block_size;      // T used when RopeOptions::seq_len is 0

  int64_t queries_per_group() const { return n_head / n_query_groups; }
};

// W1..W9 in the order of docs/WORKLOADS.md.
const std::vector<RopeConfig>& rope_configs();
// The config named `name_or_id`: a litgpt name ("Llama-3-8B"), an id ("W3") or an accepted alias
// ("Phi-3.5-mini"); case-insensitive. Throws seam::Error listing the valid names otherwise.
const RopeConfig& rope_config(std::string_view name_or_id);
// "W1".."W9" for a table config, empty for a custom one (matched by name).
std::string rope_config_id(const RopeConfig& config);
// Throws seam::Error naming the first field that makes no sense (ng not dividing nh, odd n, ...).
void validate(const RopeConfig& config);

// thunder: litgpt 0.5.0, which expands k and v to nh heads under GQA (v materialized);
// rope-only: current litgpt / TransformerEngine / vLLM, k stays at ng heads and v is a view of qkv.
enum class RopeContract { Thunder, RopeOnly };
enum class Direction { Forward, Backward };

std::string_view contract_name(RopeContract contract);  // "thunder", "rope-only"
RopeContract parse_contract(std::string_view name);     // throws seam::Error on anything else
std::string_view direction_name(Direction direction);   // "forward", "backward"

struct RopeOptions {
  int64_t batch = 2;
  int64_t seq_len = 0;  // 0: the config's block_size
  RopeContract contract = RopeContract::Thunder;
  Direction direction = Direction::Forward;
  DType dtype = DType::BFloat16;  // of qkv, cos, sin and every output; the math runs in at least f32
};

// True when the contract expands k and v to nh heads: thunder with ng != nh (litgpt 0.5.0 expands for
// MQA too when training, which is what the benchmark traces).
bool expands_kv(const RopeConfig& config, RopeContract contract);
// Heads of the k and v outputs (forward) or the grad_k and grad_v inputs (backward).
int64_t kv_heads(const RopeConfig& config, RopeContract contract);

// The whole fusion. Forward: inputs qkv [B,T,(nh+2ng)*hs], cos [T,n], sin [T,n]; outputs q [B,nh,T,hs],
// k and v [B,kv_heads,T,hs]. Backward: inputs grad_q [B,nh,T,hs], grad_k, grad_v [B,kv_heads,T,hs],
// cos, sin; output dqkv [B,T,(nh+2ng)*hs]. Named like "rope_Llama_2_7b_hf_thunder_fwd_b2_t4096".
Fusion build_rope(const RopeConfig& config, const RopeOptions& options);

// The pieces of build_rope, for fusions that embed RoPE (the transformer stack).
struct RopeForwardValues {
  Value q, k, v;
};
// qkv [B,T,(nh+2ng)*hs], cos and sin [T,n], all of one floating dtype.
RopeForwardValues emit_rope_forward(Builder& b, const RopeConfig& config, RopeContract contract, Value qkv,
                                    Value cos, Value sin);
// Returns dqkv [B,T,(nh+2ng)*hs] in the dtype of grad_q.
Value emit_rope_backward(Builder& b, const RopeConfig& config, RopeContract contract, Value grad_q,
                         Value grad_k, Value grad_v, Value cos, Value sin);

}  // namespace seam
