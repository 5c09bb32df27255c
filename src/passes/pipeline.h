// The pre-segmentation pipeline: the passes in their order, and a driver that runs them (all, or all but
// some) to a fixed point. The order itself lives in one array in pipeline.cpp.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/fusion.h"
#include "passes/pass.h"

namespace seam {

// The passes in pipeline order.
const std::vector<PassInfo>& pass_pipeline();

// The pass with this name, or nullptr.
const PassInfo* find_pass(std::string_view name);
// The pass with this name; throws seam::Error listing the valid names when there is none.
const PassInfo& get_pass(std::string_view name);
// "canonicalize_movement, simplify_casts, cse, dead_code": for messages and help texts.
std::string pass_names();

struct PipelineOptions {
  // Names of passes to skip; an unknown name is an error (a typo would silently run everything).
  std::vector<std::string> disabled;
  // Re-verify the fusion and check that inputs and outputs were kept after every pass.
  bool verify_each = true;
  // Called after every pass run (also in later rounds), e.g. to dump the fusion.
  std::function<void(const PassInfo&, const Fusion&)> after_pass;
  // A later pass can enable an earlier one (cse merges two values, then a cat of their slices cancels),
  // so the pipeline repeats until nothing changes, at most this many rounds.
  int max_rounds = 4;
};

Fusion run_pipeline(const Fusion& fusion, const PipelineOptions& options = {});

// Runs one pass with the checks of verify_each (interface kept, fusion verifies).
Fusion run_pass_checked(const PassInfo& pass, const Fusion& fusion);

}  // namespace seam
