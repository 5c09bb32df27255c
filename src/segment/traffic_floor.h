// An estimate of the least traffic any segmentation of a fusion could have, to compare a segmentation's
// boundary bytes with: every op that fuses computed in one pass (one hypothetical kernel, legal or not),
// and each op that launches alone (a matrix product, a scan) reading its operands from memory and writing
// its result. Its bytes are those of that hypothetical partition under the segmenter's cost model
// (segment/cost_model.h): the fusion inputs (the parts read), the outputs, and every operand and result of
// the launch-alone ops once on each side. Views of inputs form a NoOp group and cost nothing.
// Not a proven bound: the hypothetical pass reads a view of an input as a value of its own.
#pragma once

#include <cstdint>

#include "segment/segment_graph.h"

namespace seam {

int64_t traffic_floor_bytes(const SegmentGraph& graph);

}  // namespace seam
