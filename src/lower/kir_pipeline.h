// The kernel-IR passes of a chunk program, in order, as data (like passes/pipeline.h for the fusion IR):
// each has a name that `SEAM_DUMP=kir` and tests use, and can run alone. lower_output_program runs them on
// every output's body after emitting it.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "lower/kernel_ir.h"

namespace seam {

struct KirPassOptions {
  bool branch_free = true;  // pieces are guarded loads (merge-guarded-loads only applies then)
  // run_kir_pipeline runs the passes in order through this one: empty runs them all, "none" none (for
  // `seam kir --pass`: the program as a pass leaves it).
  std::string_view last;
};

struct KirPass {
  std::string_view name;
  void (*run)(kir::Block& body, const KirPassOptions& options);
};

// hoist-loop-invariants, merge-guarded-loads, hoist-loads, cse-values.
std::span<const KirPass> kir_pipeline();

// Whether `name` names a pass of kir_pipeline().
bool is_kir_pass(std::string_view name);

// Runs the passes of kir_pipeline() on `body` in order (through options.last); throws seam::Error naming
// the passes when options.last names none of them.
void run_kir_pipeline(kir::Block& body, const KirPassOptions& options);

// Runs the pass named `name`; throws seam::Error naming the passes when there is none.
void run_kir_pass(std::string_view name, kir::Block& body, const KirPassOptions& options);

// Moves the index arithmetic and the loads of the top-level statements of `body` (guarded ones included)
// to its start, keeping their order, so that every load is in flight before the first use of any of
// them. The hoist-loads pass runs it on every block, so loads inside pad/cat branches (branch_free off)
// move to the start of their branch. Legal because lets and loads depend only on lets.
void hoist_loads(kir::Block& body);

}  // namespace seam
