#include "lower/row_cache.h"

#include <algorithm>
#include <map>
#include <set>

#include "support/error.h"

namespace seam {
namespace {

// The index variables a row loop's body defines from its vector (the loop variable and its Lets).
std::set<std::string> element_names(const kir::Stmt& loop) {
  std::set<std::string> names = {loop.name};
  for (const kir::Stmt& s : loop.then_block)
    if (s.kind == kir::Stmt::Kind::Let && kir::reads_any(s.index, names)) names.insert(s.name);
  return names;
}

// A load whose offset reads a value the loop's body defines (an index computed from data,
// kir::Expr::CheckedIndex) is not the same load in another loop, nor can the filling loop compute it.
bool cacheable(const kir::Stmt& s, const std::set<std::string>& element, const std::set<std::string>& row,
               const std::set<std::string>& values) {
  return s.kind == kir::Stmt::Kind::Define && s.expr.kind == kir::Expr::Kind::Load && s.expr.guards.empty() &&
         s.expr.choices.empty() && kir::reads_any(s.expr, element) && kir::reads_any(s.expr, row) &&
         !kir::reads_any(s.expr, values);
}

// A load in a row loop that reads the row's indices but nothing the loop defines (a per-row scalar such
// as a normalization backward's rstd): one load per row, before the row's loops.
bool row_load(const kir::Stmt& s, const std::set<std::string>& loop_indices, const std::set<std::string>& row,
              const std::set<std::string>& values) {
  return s.kind == kir::Stmt::Kind::Define && s.expr.kind == kir::Expr::Kind::Load && s.expr.guards.empty() &&
         s.expr.choices.empty() && !s.expr.row_edge && kir::reads_any(s.expr, row) &&
         !kir::reads_any(s.expr, loop_indices) && !kir::reads_any(s.expr, values);
}

}  // namespace

void cache_row_loads(kir::RowLaunch& launch) {
  // The row's own index variables: `row` and the Lets the body defines from it before its loops.
  std::set<std::string> row = {"row"};
  std::set<std::string> late;  // row indices defined after a row loop: not before the fills
  bool after_loop = false;
  for (const kir::Stmt& s : launch.body) {
    after_loop = after_loop || s.kind == kir::Stmt::Kind::RowLoop;
    if (s.kind == kir::Stmt::Kind::Let) (after_loop ? late : row).insert(s.name);
  }
  row.insert(late.begin(), late.end());

  std::map<std::string, std::string> cache_of;  // load key -> cache name
  kir::Block row_fills;                         // the per-row caches' loads, before the row's loops
  kir::Stmt fill{kir::Stmt::Kind::RowLoop};
  std::set<std::string> fill_lets;
  std::string loop_name;
  size_t first_loop = launch.body.size();
  for (size_t i = 0; i < launch.body.size(); ++i) {
    kir::Stmt& loop = launch.body[i];
    if (loop.kind != kir::Stmt::Kind::RowLoop) continue;
    SEAM_ASSERT(loop_name.empty() || loop.name == loop_name, "persistent row loops ", loop_name, " and ",
                loop.name, " index their vectors differently");
    loop_name = loop.name;
    first_loop = std::min(first_loop, i);
    const std::set<std::string> element = element_names(loop);
    std::set<std::string> values;
    kir::collect_defined(loop.then_block, values);
    std::set<std::string> loop_indices = late;
    loop_indices.insert(loop.name);
    for (const kir::Stmt& s : loop.then_block)
      if (s.kind == kir::Stmt::Kind::Let) loop_indices.insert(s.name);
    for (kir::Stmt& s : loop.then_block) {
      if (row_load(s, loop_indices, row, values)) {
        const std::string key = "row|" + std::to_string(s.expr.param) + "|" + std::to_string(s.var.lanes) +
                                "|" + std::string(dtype_name(s.var.dtype)) + "|" +
                                kir::to_string(s.expr.offset);
        auto [it, added] = cache_of.emplace(key, "seam_cache" + std::to_string(cache_of.size()));
        if (added) {
          launch.caches.push_back(kir::RowCache{it->second, s.var.dtype, s.var.lanes, true});
          kir::Stmt load = s;
          load.var.name += "_fill";
          load.expr.cache = it->second;
          load.expr.cache_fill = true;
          row_fills.push_back(std::move(load));
        }
        s.expr.cache = it->second;
        s.expr.cache_fill = false;
        continue;
      }
      if (!cacheable(s, element, row, values)) continue;
      const std::string key = std::to_string(s.expr.param) + "|" + std::to_string(s.var.lanes) + "|" +
                              std::string(dtype_name(s.var.dtype)) + "|" + kir::to_string(s.expr.offset);
      auto [it, added] = cache_of.emplace(key, "seam_cache" + std::to_string(cache_of.size()));
      if (added) {
        launch.caches.push_back(kir::RowCache{it->second, s.var.dtype, s.var.lanes});
        // The element indices the offset reads, as this loop defines them (the same in every loop).
        for (const kir::Stmt& let : loop.then_block)
          if (let.kind == kir::Stmt::Kind::Let && fill_lets.insert(let.name).second)
            fill.then_block.push_back(let);
        kir::Stmt load = s;
        load.var.name += "_fill";
        load.expr.cache = it->second;
        load.expr.cache_fill = true;
        fill.then_block.push_back(std::move(load));
      }
      s.expr.cache = it->second;
      s.expr.cache_fill = false;
    }
  }
  if (cache_of.empty()) return;
  // Lets first, in their order, then every load: all of a row's loads are in flight together.
  std::stable_partition(fill.then_block.begin(), fill.then_block.end(),
                        [](const kir::Stmt& s) { return s.kind == kir::Stmt::Kind::Let; });
  fill.name = loop_name;
  const auto at = launch.body.begin() + static_cast<std::ptrdiff_t>(first_loop);
  if (!fill.then_block.empty()) launch.body.insert(at, std::move(fill));
  launch.body.insert(launch.body.begin() + static_cast<std::ptrdiff_t>(first_loop), row_fills.begin(),
                     row_fills.end());
}

bool row_fills_loadable_ahead(const kir::RowLaunch& launch) {
  if (launch.iterations <= 0 || launch.peel || launch.cluster != 1) return false;
  // The loads of a later row repeat what precedes the fills (index Lets; constants are left out):
  // nothing there may read a value.
  for (const kir::Stmt& s : launch.body) {
    if (s.kind == kir::Stmt::Kind::RowLoop) return true;  // the fill loop, or the first loop
    const bool index = s.kind == kir::Stmt::Kind::Let || s.kind == kir::Stmt::Kind::Comment;
    const bool constant = s.kind == kir::Stmt::Kind::Declare ||
                          (s.kind == kir::Stmt::Kind::Define && s.expr.kind == kir::Expr::Kind::Literal);
    const bool fill = s.kind == kir::Stmt::Kind::Define && s.expr.cache_fill;
    if (!index && !constant && !fill) return false;
  }
  return true;
}

}  // namespace seam
