#include "schedule/scheduler_kind.h"

#include "support/error.h"

namespace seam {

std::string_view scheduler_name(SchedulerKind kind) {
  switch (kind) {
    case SchedulerKind::NoOp: return "noop";
    case SchedulerKind::Pointwise: return "pointwise";
    case SchedulerKind::Reduction: return "reduction";
    case SchedulerKind::Normalization: return "normalization";
    case SchedulerKind::Matmul: return "matmul";
    case SchedulerKind::Scan: return "scan";
    case SchedulerKind::Scatter: return "scatter";
  }
  SEAM_ASSERT(false, "unknown scheduler kind");
}

// The reasoning for each kind is next to its predicate; in short:
// - NoOp: a per-node condition (each node is a view op whose chain reaches a fusion input as a view).
// - Pointwise: a per-node condition (no reduction, no opaque op).
// - Reduction: per-node kinds, one shared reduction signature (removing reductions keeps it shared), no
//   node reading a reduction of the group (removing nodes removes paths), a numel bound set by the
//   reductions (fewer reductions, weaker bound).
// - Normalization: as Reduction, with the shapes of the group drawn from a set of at most two that a
//   subset can only shrink.
// - Matmul, Scan, Scatter: one op; its only non-empty subset is itself.
bool is_hereditary(SchedulerKind kind) {
  switch (kind) {
    case SchedulerKind::NoOp:
    case SchedulerKind::Pointwise:
    case SchedulerKind::Reduction:
    case SchedulerKind::Normalization:
    case SchedulerKind::Matmul:
    case SchedulerKind::Scan:
    case SchedulerKind::Scatter: return true;
  }
  SEAM_ASSERT(false, "unknown scheduler kind");
}

}  // namespace seam

namespace seam {

// NoOp and Pointwise are per-node conditions, Matmul, Scan and Scatter allow one node. Reduction's conditions
// are per node, per pair of reductions (one signature), per reading pair (a node reading a reduction of the
// group, the first link of any longer chain) and per (node, reduction) pair (the element bound).
// Normalization's "at most two shapes" is not pairwise: three shapes can be pairwise fine.
bool is_pairwise(SchedulerKind kind) { return kind != SchedulerKind::Normalization; }

}  // namespace seam

namespace seam {

// Reduction and Normalization accept only pointwise-kernel ops besides reductions, so a reduction-free
// group they accept is all pointwise-kernel ops.
bool needs_reduction(SchedulerKind kind) {
  return kind == SchedulerKind::Reduction || kind == SchedulerKind::Normalization;
}

// With a reduction of signature (I, axes) in the group, Normalization's shape condition is "each shape is
// I or reduced(I)", a per-node test against the reduction, and one signature is a per-pair test.
bool is_pairwise_with_reduction(SchedulerKind kind) {
  return is_pairwise(kind) || kind == SchedulerKind::Normalization;
}

}  // namespace seam
