#include "lower/kir_pipeline.h"

#include <algorithm>
#include <set>
#include <string>

#include "lower/cse_values.h"
#include "lower/loop_invariants.h"
#include "lower/merge_guarded_loads.h"
#include "support/error.h"

namespace seam {
namespace {

// Runs `f` on `block` and then on the blocks of its branches and loops, outermost first.
template <typename F>
void each_block(kir::Block& block, F f) {
  f(block);
  for (kir::Stmt& s : block) {
    if (s.kind != kir::Stmt::Kind::If && s.kind != kir::Stmt::Kind::Loop) continue;
    each_block(s.then_block, f);
    each_block(s.else_block, f);
  }
}

void hoist_loop_invariants_pass(kir::Block& body, const KirPassOptions&) { hoist_loop_invariants(body); }

// Cats and pads on outer axes stay branches; their pieces may hold branch-free cats of their own.
void merge_guarded_loads_pass(kir::Block& body, const KirPassOptions& options) {
  if (options.branch_free) each_block(body, [](kir::Block& b) { merge_guarded_loads(b); });
}

void hoist_loads_pass(kir::Block& body, const KirPassOptions&) {
  each_block(body, [](kir::Block& b) { hoist_loads(b); });
}

void cse_values_pass(kir::Block& body, const KirPassOptions&) { cse_values(body); }

constexpr KirPass kPipeline[] = {
    {"hoist-loop-invariants", hoist_loop_invariants_pass},
    {"merge-guarded-loads", merge_guarded_loads_pass},
    {"hoist-loads", hoist_loads_pass},
    {"cse-values", cse_values_pass},
};

}  // namespace

void hoist_loads(kir::Block& body) {
  // Hoisted: lets, loads, literals, scalars, checked indices (what a gather's load needs first) and lane
  // masks (what a masked load needs first), unless
  // they read a value that stays (a checked index of a computed index, a load at such an index).
  std::set<std::string> staying;
  auto hoistable = [&](const kir::Stmt& s) {
    if (s.kind == kir::Stmt::Kind::Let) return !kir::reads_any(s.index, staying);
    if (s.kind != kir::Stmt::Kind::Define) return false;
    const kir::Expr& e = s.expr;
    if (e.kind != kir::Expr::Kind::Load && e.kind != kir::Expr::Kind::Literal &&
        e.kind != kir::Expr::Kind::Scalar && e.kind != kir::Expr::Kind::CheckedIndex &&
        e.kind != kir::Expr::Kind::LaneMask)
      return false;
    for (const kir::Var& a : e.args)
      if (staying.count(a.name)) return false;
    return !kir::reads_any(e, staying);
  };
  kir::Block hoisted, rest;
  for (kir::Stmt& s : body) {
    if (hoistable(s)) {
      hoisted.push_back(std::move(s));
      continue;
    }
    if (s.kind == kir::Stmt::Kind::Let) staying.insert(s.name);
    if (s.kind == kir::Stmt::Kind::Define || s.kind == kir::Stmt::Kind::Declare) staying.insert(s.var.name);
    rest.push_back(std::move(s));
  }
  for (kir::Stmt& s : rest) hoisted.push_back(std::move(s));
  body = std::move(hoisted);
}

std::span<const KirPass> kir_pipeline() { return kPipeline; }

namespace {

std::string pass_names() {
  std::string names;
  for (const KirPass& pass : kir_pipeline()) names += (names.empty() ? "" : ", ") + std::string(pass.name);
  return names;
}

}  // namespace

bool is_kir_pass(std::string_view name) {
  for (const KirPass& pass : kir_pipeline())
    if (pass.name == name) return true;
  return false;
}

void run_kir_pipeline(kir::Block& body, const KirPassOptions& options) {
  if (options.last == "none") return;
  for (const KirPass& pass : kir_pipeline()) {
    pass.run(body, options);
    if (pass.name == options.last) return;
  }
  SEAM_CHECK(options.last.empty(), "unknown kernel-IR pass '", options.last, "' (passes: ", pass_names(),
             ", or none)");
}

void run_kir_pass(std::string_view name, kir::Block& body, const KirPassOptions& options) {
  for (const KirPass& pass : kir_pipeline()) {
    if (pass.name == name) {
      pass.run(body, options);
      return;
    }
  }
  throw Error(detail::concat("unknown kernel-IR pass '", name, "' (passes: ", pass_names(), ")"));
}

}  // namespace seam
