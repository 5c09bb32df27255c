#include "lower/row_divisors.h"

#include <map>
#include <set>

namespace seam {
namespace {

// Rewrites the divisions in `block` (and its branches); new reciprocals go to `hoisted`.
void rewrite(kir::Block& block, const std::set<std::string>& inside,
             std::map<std::string, kir::Var>& reciprocal, kir::Block& hoisted, int& counter) {
  for (kir::Stmt& s : block) {
    rewrite(s.then_block, inside, reciprocal, hoisted, counter);
    rewrite(s.else_block, inside, reciprocal, hoisted, counter);
    if (s.kind != kir::Stmt::Kind::Define || s.expr.kind != kir::Expr::Kind::Call ||
        s.expr.op != OpKind::Div || !is_floating(s.var.dtype) || s.expr.args.size() != 2 ||
        inside.count(s.expr.args[1].name))
      continue;
    const kir::Var& divisor = s.expr.args[1];
    auto it = reciprocal.find(divisor.name);
    if (it == reciprocal.end()) {
      kir::Stmt define{kir::Stmt::Kind::Define};
      define.var = kir::Var{divisor.name + "_rcp" + std::to_string(counter++), divisor.dtype, divisor.lanes};
      define.expr = kir::Expr{kir::Expr::Kind::Call};
      define.expr.op = OpKind::Reciprocal;
      define.expr.args = {divisor};
      define.expr.approximate = s.expr.approximate;
      it = reciprocal.emplace(divisor.name, define.var).first;
      hoisted.push_back(std::move(define));
    }
    s.expr.op = OpKind::Mul;
    s.expr.args[1] = it->second;
    s.expr.approximate = false;
  }
}

}  // namespace

void hoist_row_divisors(kir::RowLaunch& launch) {
  int counter = 0;
  for (size_t i = 0; i < launch.body.size(); ++i) {
    if (launch.body[i].kind != kir::Stmt::Kind::RowLoop) continue;
    std::set<std::string> inside;
    kir::collect_defined(launch.body[i].then_block, inside);
    std::map<std::string, kir::Var> reciprocal;
    kir::Block hoisted;
    rewrite(launch.body[i].then_block, inside, reciprocal, hoisted, counter);
    launch.body.insert(launch.body.begin() + static_cast<std::ptrdiff_t>(i), hoisted.begin(), hoisted.end());
    i += hoisted.size();
  }
}

}  // namespace seam
