#include "lower/invariant_coordinate.h"

#include <numeric>
#include <set>
#include <type_traits>

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

// Counts loads that read none of `dependent` (which grows with every let computed from it).
class DependenceScan {
 public:
  explicit DependenceScan(const std::string& variable) : dependent_{variable} {}
  LoadCount count() const { return count_; }

  // Counts, and with `mark` sets `reused` on the invariant loads.
  template <typename BlockT>
  void scan(BlockT& body, bool mark = false) {
    for (auto& s : body) {
      if (s.kind == kir::Stmt::Kind::Let && reads(s.index)) dependent_.insert(s.name);
      if (s.kind == kir::Stmt::Kind::Define && s.expr.kind == kir::Expr::Kind::Load) {
        ++count_.total;
        const bool invariant = !reads(s.expr);
        count_.invariant += invariant;
        if constexpr (!std::is_const_v<BlockT>)
          if (mark && invariant) s.expr.reused = true;
      }
      scan(s.then_block, mark);
      scan(s.else_block, mark);
    }
  }

 private:
  bool reads(const kir::Expr& e) const {
    bool any = false;
    kir::for_each_index(e, [&](const Index& i) { any = any || reads(i); });
    return any;
  }
  bool reads(const Index& i) const {
    if (!i) return false;
    if (i->op == IndexNode::Op::Var) return dependent_.count(i->var) > 0;
    return reads(i->a) || reads(i->b) || reads(i->c);
  }

  std::set<std::string> dependent_;
  LoadCount count_;
};

}  // namespace

LoadCount loads_invariant_in(const kir::Block& body, const std::string& variable) {
  DependenceScan scan(variable);
  scan.scan(body);
  return scan.count();
}

void mark_loads_invariant_in(kir::Block& body, const std::string& variable) {
  DependenceScan scan(variable);
  scan.scan(body, true);
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
