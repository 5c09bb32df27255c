// Cross-entropy gradient fusions for tests of the training row kernels (bench/reductions' kinds
// cross_entropy_bwd and cross_entropy_fwd_bwd, the same math): bf16 logits [M, N], i64 targets [M]
// where -100 (ignore_index) marks a row without a loss, the upstream gradient dloss f32 [M]; f32 math.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/fusion.h"
#include "tensor/host_tensor.h"

namespace seam {

inline constexpr int64_t kIgnoreIndex = -100;

// dlogits = dloss * (softmax(logits) - onehot(target)) in bf16, 0 in rows whose target is ignored.
Fusion cross_entropy_backward(int64_t m, int64_t n);
// The loss per row (logsumexp - logits[target], 0 where ignored) and dlogits, from one read of the logits.
Fusion cross_entropy_forward_backward(int64_t m, int64_t n);

// Inputs for either fusion: random logits with -inf in some places (never a whole row, never a target's
// logit), targets in [0, N) with every third row from the second on ignored, dloss random.
std::vector<HostTensor> cross_entropy_inputs(const Fusion& fusion, uint64_t seed);

}  // namespace seam
