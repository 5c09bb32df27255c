// The passes on a row kernel's launch after RowEmitter wrote its body, in order, as data (like
// lower/kir_pipeline.h for chunk programs): each has a name that `seam kir --pass` and tests use, and can
// run alone. lower_rows runs them on every row kernel.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "lower/kernel_ir.h"

namespace seam {

struct RowPassOptions {
  // The plan asked for the next row group loaded ahead into registers (RowLayout::load_ahead).
  bool load_ahead = false;
  // run_row_pipeline runs the passes in order through this one: empty runs them all, "none" none.
  std::string_view last;
};

struct RowPass {
  std::string_view name;
  void (*run)(kir::RowLaunch& launch, const RowPassOptions& options);
};

// cache-row-loads (a persistent row's loads kept in registers: lower/row_cache.h), load-ahead (the next
// row group's fills issued before the current group's reductions, where the plan asked and the fills
// allow it), hoist-row-divisors (lower/row_divisors.h).
std::span<const RowPass> row_pipeline();

// Whether `name` names a pass of row_pipeline().
bool is_row_pass(std::string_view name);

// Runs the passes of row_pipeline() on `launch` in order (through options.last); throws seam::Error
// naming the passes when options.last names none of them.
void run_row_pipeline(kir::RowLaunch& launch, const RowPassOptions& options);

}  // namespace seam
