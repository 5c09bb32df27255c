// Ways to see a segmentation: a stable text dump (golden tests, SEAM_DUMP=segments) and a Graphviz graph
// with one coloured cluster per group (`dot -Tsvg`).
#pragma once

#include <string>

#include "segment/segmented_fusion.h"

namespace seam {

struct DumpOptions {
  bool show_time = true;  // the search time varies from run to run; golden tests turn it off
};

// One block per group:
//   group 0: pointwise
//     inputs: %0 bf16[2,8], %1 bf16[8]
//     outputs: %9 bf16[2,8]
//     duplicated: %3 = cast
//     %5 = mul
//   ...
// then "kernels: N", "boundary bytes: B", "proven optimal: ..." and (optionally) "search: ...".
std::string dump_segments(const SegmentedFusion& segmented, const DumpOptions& options = {});

// A Graphviz digraph: fusion inputs as plain boxes, each group a filled cluster, duplicated cheap ops
// dashed outside the clusters, NoOp groups grey.
std::string segments_to_dot(const SegmentedFusion& segmented);

}  // namespace seam
