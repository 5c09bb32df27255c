// The kinds of kernel a group of ops can become. Each kind has a predicate (one file each) saying which
// groups it accepts; the registry (schedule/registry.h) tries them in a fixed order.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace seam {

// A group of ops offered to a scheduler: node ids of a fusion, ascending, never fusion inputs (inputs are
// free to read). Ops the segmenter duplicates into the group (cheap ops) are not listed.
using GroupNodes = std::span<const int32_t>;

enum class SchedulerKind : uint8_t {
  NoOp,           // alias only: every output is a strided view of a fusion input, no launch
  Pointwise,      // pointwise and movement ops (slice, pad, cat, permute, reshape, broadcast, ...), outputs
                  // of several shapes in one launch
  Reduction,      // pointwise/movement prologue feeding reductions of one shape over the same axes
  Normalization,  // persistent: reductions broadcast back and combined over the same domain (RMSNorm)
  Matmul,         // one opaque op, run by a vendor library
  Scan,           // one scan op (cumsum), a scan kernel of its own (schedule/scan_scheduler.h)
  Scatter,  // one scatter op: a copy of its data, then a kernel writing the source (scatter_scheduler.h)
};

inline constexpr SchedulerKind kAllSchedulerKinds[] = {
    SchedulerKind::NoOp,   SchedulerKind::Pointwise, SchedulerKind::Reduction, SchedulerKind::Normalization,
    SchedulerKind::Matmul, SchedulerKind::Scan,      SchedulerKind::Scatter};
inline constexpr int kNumSchedulerKinds = 7;

std::string_view scheduler_name(SchedulerKind kind);  // "noop", "pointwise", ...

// Kernel launches a group of this kind costs: 0 for NoOp (outputs are aliases), 1 otherwise (a scatter's
// copy of its data, like a product's operand copies, is counted with its kernel: plan/plan.h).
inline int launch_count(SchedulerKind kind) { return kind == SchedulerKind::NoOp ? 0 : 1; }

// True when every subset of a group the kind accepts is accepted by the same kind. The exact search
// explores only maximal next groups when this holds (docs/SEGMENTER.md, "Pruning"); a kind added later
// that is not hereditary must say so here, and the search then explores every group for it.
bool is_hereditary(SchedulerKind kind);

// True when the kind's predicate is pairwise: a set is accepted exactly when each node is accepted alone
// and each pair is accepted together. The exact search then leaves a node out of a maximal group only for
// a node it conflicts with. Pairwise implies hereditary.
bool is_pairwise(SchedulerKind kind);

// True for the kinds that accept a reduction-free group only when Pointwise, tried earlier, does too
// (Reduction, Normalization): a group that first becomes such a kind contains a reduction.
bool needs_reduction(SchedulerKind kind);

// True when the kind's predicate is pairwise on groups that contain a reduction: such a group is accepted
// exactly when each node and each pair of its nodes is. Normalization qualifies (a reduction fixes the
// two allowed shapes, so the shape condition becomes per node), as does every pairwise kind.
bool is_pairwise_with_reduction(SchedulerKind kind);

}  // namespace seam
