// A pre-segmentation pass: a function from a fusion to an equivalent fusion. Fusions are immutable, so a
// pass rebuilds its result through a Builder (passes/rewrite.h), which re-checks every op.
//
// Every pass keeps the calling convention and the results exactly:
// - the inputs, all of them (used or not), in order, with their names, types and strides;
// - the outputs, in order, with their names and types;
// - the value of every output, bit for bit as the interpreter computes it.
#pragma once

#include <string_view>

#include "ir/fusion.h"

namespace seam {

struct PassInfo {
  std::string_view name;     // how the pipeline, the options and the tool name it
  std::string_view summary;  // one line for listings
  Fusion (*run)(const Fusion&);
};

// Throws seam::InternalError when `after` does not keep the inputs and outputs of `before` (a bug in the
// pass named `pass_name`): the interface part of the pass contract, checkable without running anything.
void check_interface_preserved(const Fusion& before, const Fusion& after, std::string_view pass_name);

}  // namespace seam
