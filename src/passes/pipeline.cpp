#include "passes/pipeline.h"

#include <algorithm>

#include "ir/verify.h"
#include "passes/canonicalize_movement.h"
#include "passes/cse.h"
#include "passes/dead_code.h"
#include "passes/pads_to_cat.h"
#include "passes/rewrite.h"
#include "passes/simplify_casts.h"
#include "support/error.h"

namespace seam {

const std::vector<PassInfo>& pass_pipeline() {
  // The order (docs/PASSES.md): rewrites that shorten chains first, so that cse sees canonical forms and
  // merges more; dead_code last, to sweep up what every rewrite left behind.
  static const std::vector<PassInfo> kPipeline = {
      {"canonicalize_movement", "fold identity movement ops, compose chains, cancel split-then-cat",
       canonicalize_movement},
      {"simplify_casts", "drop same-dtype casts and casts through an exact intermediate dtype",
       simplify_casts},
      {"pads_to_cat", "a sum of zero pads with adjacent interiors becomes one cat (slice gradients)",
       pads_to_cat},
      {"cse", "merge nodes with the same op, operands, attributes and type", eliminate_common_subexpressions},
      {"dead_code", "remove nodes no output depends on (inputs always stay)", eliminate_dead_code},
  };
  return kPipeline;
}

const PassInfo* find_pass(std::string_view name) {
  const auto& passes = pass_pipeline();
  auto it = std::find_if(passes.begin(), passes.end(), [name](const PassInfo& p) { return p.name == name; });
  return it == passes.end() ? nullptr : &*it;
}

std::string pass_names() {
  std::string names;
  for (const PassInfo& pass : pass_pipeline()) names += (names.empty() ? "" : ", ") + std::string(pass.name);
  return names;
}

const PassInfo& get_pass(std::string_view name) {
  const PassInfo* pass = find_pass(name);
  SEAM_CHECK(pass != nullptr, "unknown pass '", name, "'; the passes are: ", pass_names());
  return *pass;
}

Fusion run_pass_checked(const PassInfo& pass, const Fusion& fusion) {
  Fusion result = pass.run(fusion);
  check_interface_preserved(fusion, result, pass.name);
  try {
    verify(result);
  } catch (const Error& e) {
    throw InternalError(detail::concat("pass '", pass.name, "' produced an invalid fusion: ", e.what()));
  }
  return result;
}

Fusion run_pipeline(const Fusion& fusion, const PipelineOptions& options) {
  for (const std::string& name : options.disabled) get_pass(name);  // rejects typos
  SEAM_CHECK(options.max_rounds >= 1, "the pipeline needs at least one round, got ", options.max_rounds);
  auto enabled = [&](const PassInfo& pass) {
    return std::find(options.disabled.begin(), options.disabled.end(), pass.name) == options.disabled.end();
  };
  Fusion current = fusion;
  for (int round = 0; round < options.max_rounds; ++round) {
    Fusion round_start = current;
    for (const PassInfo& pass : pass_pipeline()) {
      if (!enabled(pass)) continue;
      current = options.verify_each ? run_pass_checked(pass, current) : pass.run(current);
      if (options.after_pass) options.after_pass(pass, current);
    }
    if (same_structure(round_start, current)) break;
  }
  return current;
}

}  // namespace seam
