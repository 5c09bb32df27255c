#include "lower/merge_guarded_loads.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "support/error.h"

namespace seam {
namespace {

bool is_guarded_cat_load(const kir::Stmt& s) {
  return s.kind == kir::Stmt::Kind::Define && s.expr.kind == kir::Expr::Kind::Load && !s.expr.guards.empty() &&
         s.expr.guards.back().region >= 0;
}

// Loads that may merge: same input, dtype and lanes, inside the same pieces of the outer cats, in the
// same innermost cat.
std::string merge_key(const kir::Stmt& s) {
  std::string key = std::to_string(s.expr.param) + "|" + std::to_string(static_cast<int>(s.var.dtype)) + "|" +
                    std::to_string(s.var.lanes);
  const std::vector<kir::Guard>& guards = s.expr.guards;
  for (size_t g = 0; g + 1 < guards.size(); ++g)
    key += "|" + std::to_string(guards[g].region) + ":" + std::to_string(guards[g].piece);
  return key + "|" + std::to_string(guards.back().region);
}

void rename_vars(kir::Block& block, const std::map<std::string, std::string>& renamed) {
  auto rename = [&](kir::Var& v) {
    auto it = renamed.find(v.name);
    if (it != renamed.end()) v.name = it->second;
  };
  for (kir::Stmt& s : block) {
    for (kir::Var& a : s.expr.args) rename(a);
    rename(s.source);
    rename(s.var);
    rename_vars(s.then_block, renamed);
    rename_vars(s.else_block, renamed);
  }
}

int merge_once(kir::Block& body) {
  // key -> piece -> statement positions, in program order
  std::map<std::string, std::vector<std::vector<size_t>>> groups;
  for (size_t i = 0; i < body.size(); ++i) {
    const kir::Stmt& s = body[i];
    if (!is_guarded_cat_load(s)) continue;
    const kir::Guard& cat = s.expr.guards.back();
    auto& pieces = groups[merge_key(s)];
    pieces.resize(static_cast<size_t>(cat.pieces));
    pieces[static_cast<size_t>(cat.piece)].push_back(i);
  }
  std::set<size_t> removed;
  std::map<std::string, std::string> renamed;
  for (auto& [key, pieces] : groups) {
    size_t common = SIZE_MAX;
    for (const auto& positions : pieces) common = std::min(common, positions.size());
    for (size_t j = 0; j < common; ++j) {
      // The address chain from the last piece back: i < end_k ? offset_k : (...).
      size_t last = 0;
      for (const auto& positions : pieces) last = std::max(last, positions[j]);
      kir::Index offset = body[pieces.back()[j]].expr.offset;
      for (size_t k = pieces.size() - 1; k-- > 0;) {
        const kir::Stmt& s = body[pieces[k][j]];
        const kir::Bound& bound = s.expr.guards.back().bounds.at(0);
        SEAM_ASSERT(bound.hi, "a cat piece before the last has an upper bound");
        offset = kir::select_below(bound.index, *bound.hi, s.expr.offset, offset);
      }
      kir::Stmt& kept = body[last];
      kept.expr.offset = offset;
      kept.expr.guards.pop_back();
      for (const auto& positions : pieces) {
        if (positions[j] == last) continue;
        removed.insert(positions[j]);
        renamed[body[positions[j]].var.name] = kept.var.name;
      }
    }
  }
  if (removed.empty()) return 0;
  kir::Block kept;
  for (size_t i = 0; i < body.size(); ++i)
    if (!removed.count(i)) kept.push_back(std::move(body[i]));
  body = std::move(kept);
  rename_vars(body, renamed);
  return static_cast<int>(removed.size());
}

}  // namespace

int merge_guarded_loads(kir::Block& body) {
  int total = 0;
  for (int merged = merge_once(body); merged > 0; merged = merge_once(body)) total += merged;
  return total;
}

}  // namespace seam
