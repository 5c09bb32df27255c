#include "lower/merge_guarded_loads.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "support/error.h"

namespace seam {
namespace {

// A load directly inside a piece of a cat, with a single source (no pointer choices yet).
bool is_piece_load(const kir::Stmt& s) {
  return s.kind == kir::Stmt::Kind::Define && s.expr.kind == kir::Expr::Kind::Load &&
         !s.expr.guards.empty() && s.expr.guards.back().region >= 0 && s.expr.guards.back().piece >= 0 &&
         s.expr.choices.empty();
}

// Loads that may merge: same dtype and lanes (and input, when `same_param`), inside the same pieces of
// the outer cats, in the same innermost cat.
std::string merge_key(const kir::Stmt& s, bool same_param) {
  std::string key = std::to_string(static_cast<int>(s.var.dtype)) + "|" + std::to_string(s.var.lanes);
  if (same_param) key += "|" + std::to_string(s.expr.param);
  const std::vector<kir::Guard>& guards = s.expr.guards;
  for (size_t g = 0; g + 1 < guards.size(); ++g)
    key += "|" + std::to_string(guards[g].region) + ":" + std::to_string(guards[g].piece);
  return key + "|" + std::to_string(guards.back().region);
}

const kir::Bound& piece_bound(const kir::Stmt& s) { return s.expr.guards.back().bounds.at(0); }

// Merges the loads at `positions` (one per piece, pieces consecutive and in order) into the last of them.
void merge_run(kir::Block& body, const std::vector<size_t>& positions, bool same_param, int pieces,
               std::set<size_t>& removed, std::map<std::string, std::string>& renamed) {
  const size_t last = *std::max_element(positions.begin(), positions.end());
  const kir::Stmt& first_piece = body[positions.front()];
  const kir::Stmt& last_piece = body[positions.back()];
  const kir::Guard& first_guard = first_piece.expr.guards.back();
  const kir::Guard& last_guard = last_piece.expr.guards.back();
  // The span's guard: from the first piece's lower bound to the last piece's upper bound.
  kir::Bound span{piece_bound(first_piece).index, std::nullopt, std::nullopt};
  if (first_guard.piece > 0) span.lo = piece_bound(first_piece).lo;
  if (last_guard.piece + 1 < pieces) span.hi = piece_bound(last_piece).hi;
  const int region = first_guard.region;
  // Sources from the last piece back: i < end_k ? source_k : (...).
  int param = last_piece.expr.param;
  kir::Index offset = last_piece.expr.offset;
  std::vector<kir::LoadChoice> choices;
  for (size_t k = positions.size() - 1; k-- > 0;) {
    const kir::Stmt& s = body[positions[k]];
    const kir::Bound& bound = piece_bound(s);
    SEAM_ASSERT(bound.hi, "a cat piece before the last has an upper bound");
    if (same_param)
      offset = kir::select_below(bound.index, *bound.hi, s.expr.offset, offset);
    else
      choices.insert(choices.begin(), kir::LoadChoice{bound.index, *bound.hi, s.expr.param, s.expr.offset});
  }
  kir::Stmt& kept = body[last];
  kept.expr.param = param;
  kept.expr.offset = offset;
  kept.expr.choices = std::move(choices);
  kept.expr.guards.pop_back();
  if (span.lo || span.hi) kept.expr.guards.push_back(kir::Guard{region, -1, pieces, {span}});
  for (size_t p : positions) {
    if (p == last) continue;
    removed.insert(p);
    renamed[body[p].var.name] = kept.var.name;
  }
}

int merge_once(kir::Block& body, bool same_param) {
  // A load at a position an indexing op read (a checked index defined in this block) stays in its piece:
  // the merged load takes the last piece's place, and loads move before their users only when
  // hoist_loads can move them, which it cannot past a checked index of a computed value.
  std::set<std::string> checked;
  for (const kir::Stmt& s : body)
    if (s.kind == kir::Stmt::Kind::Define && s.expr.kind == kir::Expr::Kind::CheckedIndex)
      checked.insert(s.var.name);
  // key -> piece -> statement positions, in program order
  std::map<std::string, std::vector<std::vector<size_t>>> groups;
  for (size_t i = 0; i < body.size(); ++i) {
    const kir::Stmt& s = body[i];
    if (!is_piece_load(s) || kir::reads_any(s.expr, checked)) continue;
    const kir::Guard& cat = s.expr.guards.back();
    auto& pieces = groups[merge_key(s, same_param)];
    pieces.resize(static_cast<size_t>(cat.pieces));
    pieces[static_cast<size_t>(cat.piece)].push_back(i);
  }
  std::set<size_t> removed;
  std::map<std::string, std::string> renamed;
  for (auto& [key, pieces] : groups) {
    size_t depth = 0;
    for (const auto& positions : pieces) depth = std::max(depth, positions.size());
    for (size_t j = 0; j < depth; ++j) {
      // Every maximal run of consecutive pieces that have a j-th load.
      for (size_t k = 0; k < pieces.size();) {
        size_t end = k;
        while (end < pieces.size() && pieces[end].size() > j) ++end;
        if (end - k >= 2) {
          std::vector<size_t> run;
          for (size_t r = k; r < end; ++r) run.push_back(pieces[r][j]);
          merge_run(body, run, same_param, static_cast<int>(pieces.size()), removed, renamed);
        }
        k = end + 1;
      }
    }
  }
  if (removed.empty()) return 0;
  kir::Block kept;
  for (size_t i = 0; i < body.size(); ++i)
    if (!removed.count(i)) kept.push_back(std::move(body[i]));
  body = std::move(kept);
  kir::rename_vars(body, renamed);
  return static_cast<int>(removed.size());
}

int merge_until_done(kir::Block& body, bool same_param) {
  int total = 0;
  for (int merged = merge_once(body, same_param); merged > 0; merged = merge_once(body, same_param))
    total += merged;
  return total;
}

}  // namespace

int merge_guarded_loads(kir::Block& body) {
  int total = merge_until_done(body, /*same_param=*/true);
  total += merge_until_done(body, /*same_param=*/false);
  return total;
}

}  // namespace seam
