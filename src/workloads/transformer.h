// A stack of Llama-style decoder layers as one fusion (weights are inputs): a long, narrow graph of
// pointwise, reduction, movement and opaque ops for the segmenter and its benchmark.
#pragma once

#include <cstdint>

#include "ir/fusion.h"

namespace seam {

struct TransformerConfig {
  int64_t hidden = 256;
  int64_t n_head = 8;
  int64_t n_query_groups = 2;  // GQA 4:1 by default, so the thunder expand of k and v appears
  int64_t head_size = 32;
  int64_t rope_n_elem = 0;  // 0: head_size
  int64_t intermediate = 704;
  int64_t seq_len = 64;
  int64_t batch = 1;
  int64_t layers = 1;
  DType dtype = DType::BFloat16;
  double norm_eps = 1e-5;
};

// Inputs, in order: x [B,T,hidden], cos and sin [T,n], then per layer i:
//   h<i>.norm_1.weight [hidden], h<i>.attn.qkv.weight [(nh+2ng)*hs, hidden],
//   h<i>.attn.proj.weight [hidden, nh*hs], h<i>.norm_2.weight [hidden],
//   h<i>.mlp.fc_1.weight [intermediate, hidden], h<i>.mlp.fc_2.weight [intermediate, hidden],
//   h<i>.mlp.proj.weight [hidden, intermediate].
// Output: y [B,T,hidden]. Per layer: x = x + proj(attention(rope(qkv(rmsnorm(x)))));
// x = x + down(silu(fc_1(rmsnorm(x))) * fc_2(rmsnorm(x))). Throws seam::Error on a bad config.
Fusion build_transformer_stack(const TransformerConfig& config);

}  // namespace seam
