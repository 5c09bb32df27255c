#include "lower/kernel_ir.h"

#include <algorithm>

#include "support/error.h"

namespace seam::kir {

Index constant(int64_t value) {
  return std::make_shared<const IndexNode>(IndexNode{IndexNode::Op::Const, value, "", nullptr, nullptr});
}

Index variable(std::string name) {
  return std::make_shared<const IndexNode>(
      IndexNode{IndexNode::Op::Var, 0, std::move(name), nullptr, nullptr});
}

std::optional<int64_t> constant_value(const Index& index) {
  if (index->op == IndexNode::Op::Const) return index->value;
  return std::nullopt;
}

Index add(Index a, Index b) {
  auto ca = constant_value(a), cb = constant_value(b);
  if (ca && cb) return constant(*ca + *cb);
  if (ca && *ca == 0) return b;
  if (cb && *cb == 0) return a;
  if (ca) std::swap(a, b);  // keep constants on the right: x + 3
  cb = constant_value(b);
  if (cb && a->op == IndexNode::Op::Add && constant_value(a->b))  // (x + 3) + 4 -> x + 7
    return add(a->a, *constant_value(a->b) + *cb);
  return std::make_shared<const IndexNode>(IndexNode{IndexNode::Op::Add, 0, "", std::move(a), std::move(b)});
}

Index add(Index a, int64_t b) { return add(std::move(a), constant(b)); }

Index mul(Index a, int64_t b) {
  if (auto ca = constant_value(a)) return constant(*ca * b);
  if (b == 0) return constant(0);
  if (b == 1) return a;
  return std::make_shared<const IndexNode>(IndexNode{IndexNode::Op::Mul, b, "", std::move(a), nullptr});
}

Index div(Index a, int64_t b) {
  SEAM_ASSERT(b > 0);
  if (auto ca = constant_value(a)) return constant(*ca / b);
  if (b == 1) return a;
  if (a->op == IndexNode::Op::Mul && a->value % b == 0) return mul(a->a, a->value / b);  // (x * 8) / 4
  return std::make_shared<const IndexNode>(IndexNode{IndexNode::Op::Div, b, "", std::move(a), nullptr});
}

Index mod(Index a, int64_t b) {
  SEAM_ASSERT(b > 0);
  if (auto ca = constant_value(a)) return constant(*ca % b);
  if (b == 1) return constant(0);
  if (a->op == IndexNode::Op::Mul && a->value % b == 0) return constant(0);  // (x * 8) % 4
  return std::make_shared<const IndexNode>(IndexNode{IndexNode::Op::Mod, b, "", std::move(a), nullptr});
}

Index select_below(Index c, int64_t bound, Index a, Index b) {
  if (to_string(a) == to_string(b)) return a;
  if (auto cc = constant_value(c)) return *cc < bound ? a : b;
  return std::make_shared<const IndexNode>(
      IndexNode{IndexNode::Op::Select, bound, "", std::move(a), std::move(b), std::move(c)});
}

std::string to_string(const Index& index) {
  switch (index->op) {
    case IndexNode::Op::Const: return std::to_string(index->value);
    case IndexNode::Op::Var: return index->var;
    case IndexNode::Op::Add: return "(" + to_string(index->a) + " + " + to_string(index->b) + ")";
    case IndexNode::Op::Mul: return "(" + to_string(index->a) + " * " + std::to_string(index->value) + ")";
    case IndexNode::Op::Div: return "(" + to_string(index->a) + " / " + std::to_string(index->value) + ")";
    case IndexNode::Op::Mod: return "(" + to_string(index->a) + " % " + std::to_string(index->value) + ")";
    case IndexNode::Op::Select:
      return "(" + to_string(index->c) + " < " + std::to_string(index->value) + " ? " + to_string(index->a) +
             " : " + to_string(index->b) + ")";
  }
  SEAM_ASSERT(false);
}

int64_t Kernel::total_chunks() const {
  int64_t total = rows ? rows->rows : 0;
  for (const OutputProgram& o : outputs) total += o.chunks;
  return total;
}

std::string c_type(DType dtype) {
  switch (dtype) {
    case DType::Bool: return "bool";
    case DType::Int32: return "int";
    case DType::Int64: return "seam_i64";
    case DType::Float16: return "seam_f16";
    case DType::BFloat16: return "seam_bf16";
    case DType::Float32: return "float";
    case DType::Float64: return "double";
  }
  SEAM_ASSERT(false);
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
