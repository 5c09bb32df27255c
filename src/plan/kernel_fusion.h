// One launching group of a segmented fusion as a standalone fusion: the kernel's own inputs (fusion
// inputs with their strides, or contiguous intermediates written by earlier kernels) and outputs.
#pragma once

#include <set>
#include <vector>

#include "segment/segmented_fusion.h"

namespace seam {

struct KernelFusion {
  Fusion fusion;
  std::vector<Value> inputs;   // per kernel input: the value of the segmented fusion bound to it
  std::vector<Value> outputs;  // per kernel output: the value of the segmented fusion it computes
  std::vector<Value> sources;  // per node of `fusion`: the value of the segmented fusion it stands for
};

// The group's ops, the cheap ops it duplicates and, for values that earlier no-launch groups expose as
// views, the view ops themselves (a view costs a kernel nothing but index arithmetic), so that every
// kernel input is a fusion input or a value some earlier kernel writes to memory. `materialized`: views
// that an earlier step writes out contiguously (extract_view_copy), read as kernel inputs instead.
KernelFusion extract_kernel_fusion(const SegmentedFusion& segmented, size_t group_index,
                                   const std::set<int32_t>& materialized = {});

// A pointwise kernel that writes `view` (a value of a no-launch group) contiguously, from the input or
// kernel output it views: for a library step that cannot read the view's layout in place.
KernelFusion extract_view_copy(const SegmentedFusion& segmented, Value view);

// A pointwise kernel that writes `source` (a fusion input, a kernel output or a view of either) into
// `target`'s memory, contiguously: a scatter's data copied into its output before the writes.
KernelFusion extract_copy_into(const SegmentedFusion& segmented, Value source, Value target);

}  // namespace seam
