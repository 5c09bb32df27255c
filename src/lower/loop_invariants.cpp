#include "lower/loop_invariants.h"

#include <set>
#include <string>

namespace seam {
namespace {

// What a statement defines or assigns, its nested blocks included.
void collect_written(const kir::Stmt& s, std::set<std::string>& names) {
  switch (s.kind) {
    case kir::Stmt::Kind::Let:
    case kir::Stmt::Kind::Loop:
    case kir::Stmt::Kind::RowLoop: names.insert(s.name); break;
    case kir::Stmt::Kind::Define:
    case kir::Stmt::Kind::Declare:
    case kir::Stmt::Kind::Assign:
    case kir::Stmt::Kind::RowReduce: names.insert(s.var.name); break;
    case kir::Stmt::Kind::RowReduceOnline:
      names.insert(s.var.name);
      names.insert(s.expr.args.at(1).name);
      break;
    default: break;
  }
  for (const kir::Block* inner : {&s.then_block, &s.else_block})
    for (const kir::Stmt& t : *inner) collect_written(t, names);
}

bool invariant(const kir::Stmt& s, const std::set<std::string>& dependent) {
  if (s.kind == kir::Stmt::Kind::Let) return !kir::reads_any(s.index, dependent);
  if (s.kind != kir::Stmt::Kind::Define) return false;
  for (const kir::Var& a : s.expr.args)
    if (dependent.count(a.name)) return false;
  return !kir::reads_any(s.expr, dependent);
}

// Moves loop's invariant statements to the end of `before`.
void hoist_from(kir::Stmt& loop, kir::Block& before) {
  std::set<std::string> dependent{loop.name};
  kir::collect_assigned(loop.then_block,
                        dependent);  // read before being assigned: the previous iteration's value
  kir::Block kept;
  for (kir::Stmt& s : loop.then_block) {
    if (invariant(s, dependent)) {
      before.push_back(std::move(s));
    } else {
      collect_written(s, dependent);
      kept.push_back(std::move(s));
    }
  }
  loop.then_block = std::move(kept);
}

}  // namespace

void hoist_loop_invariants(kir::Block& body) {
  kir::Block out;
  for (kir::Stmt& s : body) {
    hoist_loop_invariants(s.then_block);  // inner loops first: what leaves them may leave this one too
    hoist_loop_invariants(s.else_block);
    if (s.kind == kir::Stmt::Kind::Loop) hoist_from(s, out);
    out.push_back(std::move(s));
  }
  body = std::move(out);
}

}  // namespace seam
