#include "lower/cse_values.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace seam {
namespace {

bool candidate(const kir::Stmt& s) {
  if (s.kind != kir::Stmt::Kind::Define) return false;
  switch (s.expr.kind) {
    case kir::Expr::Kind::Convert:
    case kir::Expr::Kind::Call:
    case kir::Expr::Kind::Select:
    case kir::Expr::Kind::Load:
    case kir::Expr::Kind::Literal: return true;
    default: return false;  // in-bounds tests, scalars, iotas
  }
}

std::string bounds_text(const std::vector<kir::Bound>& bounds) {
  std::string text;
  for (const kir::Bound& b : bounds)
    text += kir::to_string(b.index) + (b.per_lane ? "+lane" : "") + "[" +
            (b.lo ? std::to_string(*b.lo) : "") + "," + (b.hi ? std::to_string(*b.hi) : "") + ")";
  return text;
}

// Everything that decides the value: kind, op, result type and lanes, arguments, literal, bounds.
std::string value_key(const kir::Stmt& s) {
  const kir::Expr& e = s.expr;
  std::string key = std::to_string(static_cast<int>(e.kind)) + "|" + std::to_string(static_cast<int>(e.op)) +
                    "|" + std::to_string(static_cast<int>(s.var.dtype)) + "|" + std::to_string(s.var.lanes) +
                    "|";
  for (const kir::Var& a : e.args) key += a.name + ",";
  if (e.kind == kir::Expr::Kind::Literal) key += "|" + e.literal.to_string();
  if (e.kind == kir::Expr::Kind::InBounds) key += "|" + bounds_text(e.bounds);
  if (e.kind == kir::Expr::Kind::Load) {
    key += "|" + std::to_string(e.param) + "@" + kir::to_string(e.offset);
    for (const kir::Guard& g : e.guards) key += "|g" + bounds_text(g.bounds);
    for (const kir::LoadChoice& c : e.choices)
      key += "|c" + kir::to_string(c.index) + "<" + std::to_string(c.below) + ":" + std::to_string(c.param) +
             "@" + kir::to_string(c.offset);
  }
  return key;
}

class Cse {
 public:
  explicit Cse(std::set<std::string> assigned) : assigned_(std::move(assigned)) {}
  int removed() const { return removed_; }
  const std::map<std::string, std::string>& renamed() const { return renamed_; }

  void block(kir::Block& body) {
    scopes_.emplace_back();
    kir::Block kept;
    for (kir::Stmt& s : body) {
      rename_arguments(s);
      if (candidate(s) && !reads_assigned(s)) {
        const std::string key = value_key(s);
        if (const std::string* earlier = lookup(key)) {
          renamed_[s.var.name] = *earlier;
          ++removed_;
          continue;
        }
        scopes_.back()[key] = s.var.name;
      }
      block(s.then_block);
      block(s.else_block);
      kept.push_back(std::move(s));
    }
    body = std::move(kept);
    scopes_.pop_back();
  }

 private:
  void rename_arguments(kir::Stmt& s) const {
    for (kir::Var& a : s.expr.args) rename(a);
    rename(s.source);
    if (s.kind == kir::Stmt::Kind::Store && !s.var.name.empty()) rename(s.var);  // a ragged row's mask
  }
  void rename(kir::Var& v) const {
    auto it = renamed_.find(v.name);
    if (it != renamed_.end()) v.name = it->second;
  }
  bool reads_assigned(const kir::Stmt& s) const {
    for (const kir::Var& a : s.expr.args)
      if (assigned_.count(a.name)) return true;
    return false;
  }
  const std::string* lookup(const std::string& key) const {
    for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) {
      auto it = scope->find(key);
      if (it != scope->end()) return &it->second;
    }
    return nullptr;
  }

  std::set<std::string> assigned_;
  std::vector<std::map<std::string, std::string>> scopes_;
  std::map<std::string, std::string> renamed_;
  int removed_ = 0;
};

}  // namespace

int cse_values(kir::Block& body) {
  std::set<std::string> assigned;
  kir::collect_assigned(body, assigned);
  Cse cse(std::move(assigned));
  cse.block(body);
  return cse.removed();
}

}  // namespace seam
