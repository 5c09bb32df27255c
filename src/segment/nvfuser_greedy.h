// A baseline that merges like nvFuser's segmenter did in the seed report: groups visited in topological
// order, merged one edge at a time with the first consumer group a scheduler accepts, the merged group
// sent to the back of the worklist. It merges whenever it can, whatever the merge saves; its results
// depend on that order, which is the point of keeping it (tests/segment, bench/bench_segment.cpp).
#pragma once

#include "segment/budget.h"
#include "segment/partition.h"
#include "segment/segment_graph.h"

namespace seam {

// Stops, keeping the merges made so far, when `budget` (a step per group visited) runs out.
Partition nvfuser_greedy(const SegmentGraph& graph, Budget budget = {});

}  // namespace seam
