#include "lower/row_pipeline.h"

#include "lower/row_cache.h"
#include "lower/row_divisors.h"
#include "support/error.h"

namespace seam {
namespace {

void cache_row_loads_pass(kir::RowLaunch& launch, const RowPassOptions&) {
  if (launch.iterations > 0) cache_row_loads(launch);
}

// Only where the blocks loop over several row groups (outer reductions' fixed grid).
void load_ahead_pass(kir::RowLaunch& launch, const RowPassOptions& options) {
  launch.load_ahead = options.load_ahead && launch.iterations > 0 && launch.partial_blocks > 0 &&
                      row_fills_loadable_ahead(launch);
}

void hoist_row_divisors_pass(kir::RowLaunch& launch, const RowPassOptions&) { hoist_row_divisors(launch); }

constexpr RowPass kPipeline[] = {
    {"cache-row-loads", cache_row_loads_pass},
    {"load-ahead", load_ahead_pass},
    {"hoist-row-divisors", hoist_row_divisors_pass},
};

std::string pass_names() {
  std::string names;
  for (const RowPass& pass : kPipeline) names += (names.empty() ? "" : ", ") + std::string(pass.name);
  return names;
}

}  // namespace

std::span<const RowPass> row_pipeline() { return kPipeline; }

bool is_row_pass(std::string_view name) {
  for (const RowPass& pass : kPipeline)
    if (pass.name == name) return true;
  return false;
}

void run_row_pipeline(kir::RowLaunch& launch, const RowPassOptions& options) {
  if (options.last == "none") return;
  SEAM_CHECK(options.last.empty() || is_row_pass(options.last), "unknown row pass '", options.last,
             "' (passes: ", pass_names(), ", or none)");
  for (const RowPass& pass : kPipeline) {
    pass.run(launch, options);
    if (pass.name == options.last) return;
  }
}

}  // namespace seam
