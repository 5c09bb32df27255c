#include "lower/kernel_ir.h"

#include <algorithm>
#include <cstdlib>
#include <numeric>

#include "support/error.h"

namespace seam::kir {

int64_t Kernel::total_chunks() const {
  int64_t total = rows ? rows->rows : scan ? scan->lines : scatter ? scatter->elements : 0;
  for (const OutputProgram& o : outputs) total += o.chunks;
  return total;
}

bool reads_any(const Index& index, const std::set<std::string>& names) {
  if (!index) return false;
  if (index->op == IndexNode::Op::Var) return names.count(index->var) > 0;
  return reads_any(index->a, names) || reads_any(index->b, names) || reads_any(index->c, names);
}

bool reads_any(const Expr& e, const std::set<std::string>& names) {
  bool any = false;
  for_each_index(e, [&](const Index& i) { any = any || reads_any(i, names); });
  return any;
}

void collect_assigned(const Block& block, std::set<std::string>& names) {
  for (const Stmt& s : block) {
    if (s.kind == Stmt::Kind::Assign || s.kind == Stmt::Kind::Declare) names.insert(s.var.name);
    collect_assigned(s.then_block, names);
    collect_assigned(s.else_block, names);
  }
}

void collect_defined(const Block& block, std::set<std::string>& names) {
  for (const Stmt& s : block) {
    if (s.kind == Stmt::Kind::Define || s.kind == Stmt::Kind::Declare || s.kind == Stmt::Kind::Assign ||
        s.kind == Stmt::Kind::RowReduce || s.kind == Stmt::Kind::RowReduceOnline)
      names.insert(s.var.name);
    if (s.kind == Stmt::Kind::RowReduceOnline) names.insert(s.expr.args.at(1).name);
    collect_defined(s.then_block, names);
    collect_defined(s.else_block, names);
  }
}

int64_t loaded_bytes_on_heaviest_path(const Block& block) {
  int64_t bytes = 0;
  for (const Stmt& s : block) {
    if (s.kind == Stmt::Kind::Define && s.expr.kind == Expr::Kind::Load)
      bytes += static_cast<int64_t>(s.var.lanes) * dtype_size(s.var.dtype);
    if (s.kind == Stmt::Kind::Loop)
      bytes += loaded_bytes_on_heaviest_path(s.then_block) * std::max(1, s.unroll);
    if (s.kind == Stmt::Kind::If)
      bytes +=
          std::max(loaded_bytes_on_heaviest_path(s.then_block), loaded_bytes_on_heaviest_path(s.else_block));
  }
  return bytes;
}

int64_t loaded_bytes_per_chunk(const Kernel& kernel) {
  int64_t bytes = kernel.rows ? loaded_bytes_on_heaviest_path(kernel.rows->body) : 0;
  for (const OutputProgram& o : kernel.outputs)
    bytes = std::max(bytes, loaded_bytes_on_heaviest_path(o.body));
  return bytes;
}

OuterWorkspace outer_workspace(const RowLaunch& rows) {
  OuterWorkspace w;
  const int64_t blocks = std::max<int64_t>(rows.partial_blocks, 1);
  while (w.group_size * w.group_size < blocks) ++w.group_size;  // about the square root: equal sums
  w.groups = (blocks + w.group_size - 1) / w.group_size;
  w.header = (1 + w.groups + 3) / 4 * 4;
  const int64_t rows_per_reduction = blocks + w.groups + 1;  // partials, group sums, totals
  w.bytes = (w.header + static_cast<int64_t>(rows.outer.size()) * rows_per_reduction * rows.outer_columns()) *
            static_cast<int64_t>(sizeof(float));
  return w;
}

int64_t workspace_bytes(const Kernel& kernel) {
  if (!kernel.rows || kernel.rows->outer.empty()) return 0;
  return outer_workspace(*kernel.rows).bytes;
}

namespace {
bool has_checked_index(const Block& block) {
  for (const Stmt& s : block)
    if ((s.kind == Stmt::Kind::Define && s.expr.kind == Expr::Kind::CheckedIndex) ||
        has_checked_index(s.then_block) || has_checked_index(s.else_block))
      return true;
  return false;
}
}  // namespace

bool checks_indices(const Kernel& kernel) {
  if (kernel.scatter) return true;
  if (kernel.rows && (has_checked_index(kernel.rows->body) || has_checked_index(kernel.rows->finish)))
    return true;
  return std::any_of(kernel.outputs.begin(), kernel.outputs.end(),
                     [](const OutputProgram& o) { return has_checked_index(o.body); });
}

TrailingSlots trailing_slots(const Kernel& kernel) {
  TrailingSlots slots;
  int next = static_cast<int>(kernel.params.size());
  if (checks_indices(kernel)) slots.index_error = next++;
  if (workspace_bytes(kernel) > 0) slots.workspace = next++;
  return slots;
}

void rename_vars(Block& block, const std::map<std::string, std::string>& renamed) {
  auto rename = [&](Var& v) {
    auto it = renamed.find(v.name);
    if (it != renamed.end()) v.name = it->second;
  };
  for (Stmt& s : block) {
    for (Var& a : s.expr.args) rename(a);
    rename(s.source);
    rename(s.var);
    rename_vars(s.then_block, renamed);
    rename_vars(s.else_block, renamed);
  }
}

}  // namespace seam::kir
