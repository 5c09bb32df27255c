#include "lower/invariant_coordinate.h"

#include <numeric>
#include <set>

namespace seam {
namespace {

using kir::Index;
using kir::IndexNode;

// Folds every use of one variable into `block`: the gcd of its divisors, 1 once it is used undivided.
class UseScan {
 public:
  UseScan(const std::string& variable, int64_t extent, bool branches_only)
      : variable_(variable), block_(extent), branches_only_(branches_only) {}
  int64_t block() const { return block_; }

  void scan(const kir::Block& body) {
    for (const kir::Stmt& s : body) {
      switch (s.kind) {
        case kir::Stmt::Kind::Let:
          if (!branches_only_) index(s.index);
          break;
        case kir::Stmt::Kind::Define:
          if (!branches_only_) expr(s.expr);
          break;
        case kir::Stmt::Kind::If: bounds(s.bounds); break;
        default: break;  // stores: where the value goes, not what it is
      }
      scan(s.then_block);
      scan(s.else_block);
    }
  }

 private:
  void expr(const kir::Expr& e) {
    kir::for_each_index(e, [this](const Index& i) { index(i); });
  }
  void bounds(const std::vector<kir::Bound>& list) {
    for (const kir::Bound& b : list) index(b.index);
  }
  void index(const Index& i) {
    if (!i) return;
    if (i->op == IndexNode::Op::Div) {  // x / m, or (x * k) / m with k dividing m: x / (m / k)
      const Index& a = i->a;
      if (is_variable(a)) return divided_by(i->value);
      if (a->op == IndexNode::Op::Mul && is_variable(a->a) && a->value > 0 && i->value % a->value == 0)
        return divided_by(i->value / a->value);
    }
    if (is_variable(i)) {
      block_ = 1;  // read undivided
      return;
    }
    index(i->a);
    index(i->b);
    index(i->c);
  }
  bool is_variable(const Index& i) const { return i->op == IndexNode::Op::Var && i->var == variable_; }
  void divided_by(int64_t m) { block_ = std::gcd(block_, m); }

  const std::string& variable_;
  int64_t block_;
  bool branches_only_;
};

// Calls on_load(statement, invariant) for every load of `body` (const or not), in order: invariant when
// it reads none of `dependent` (the variable, and every let computed from it as the walk finds them).
template <typename BlockT, typename F>
void scan_loads(BlockT& body, std::set<std::string>& dependent, F on_load) {
  for (auto& s : body) {
    if (s.kind == kir::Stmt::Kind::Let && kir::reads_any(s.index, dependent)) dependent.insert(s.name);
    if (s.kind == kir::Stmt::Kind::Define && s.expr.kind == kir::Expr::Kind::Load)
      on_load(s, !kir::reads_any(s.expr, dependent));
    // A checked index (an indexing op's position) depends on what its index value depends on, and the
    // loads at that position on it: follow values, not only lets.
    if (s.kind == kir::Stmt::Kind::Define || s.kind == kir::Stmt::Kind::Assign) {
      bool reads = s.kind == kir::Stmt::Kind::Assign ? dependent.count(s.source.name) > 0
                                                     : kir::reads_any(s.expr, dependent);
      for (const kir::Var& a : s.expr.args) reads = reads || dependent.count(a.name) > 0;
      if (reads) dependent.insert(s.var.name);
    }
    scan_loads(s.then_block, dependent, on_load);
    scan_loads(s.else_block, dependent, on_load);
  }
}

}  // namespace

LoadCount loads_invariant_in(const kir::Block& body, const std::string& variable) {
  std::set<std::string> dependent{variable};
  LoadCount count;
  scan_loads(body, dependent, [&](const kir::Stmt&, bool invariant) {
    ++count.total;
    count.invariant += invariant;
  });
  return count;
}

void mark_loads_invariant_in(kir::Block& body, const std::string& variable) {
  std::set<std::string> dependent{variable};
  scan_loads(body, dependent, [](kir::Stmt& load, bool invariant) {
    if (invariant) load.expr.reused = true;
  });
}

int64_t invariant_block(const kir::Block& body, const std::string& variable, int64_t extent) {
  UseScan scan(variable, extent, false);
  scan.scan(body);
  return scan.block();
}

int64_t branch_invariant_block(const kir::Block& body, const std::string& variable, int64_t extent) {
  UseScan scan(variable, extent, true);
  scan.scan(body);
  return scan.block();
}

}  // namespace seam
