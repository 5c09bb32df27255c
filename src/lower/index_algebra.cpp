#include "lower/index_algebra.h"

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <vector>

#include "support/error.h"

namespace seam::kir {

namespace {

using Op = IndexNode::Op;

std::optional<int64_t> known(__int128 bound) {
  if (bound > kLargestKnownBound) return std::nullopt;
  return static_cast<int64_t>(bound);
}

// The exclusive upper bound of a node from its operands' (IndexNode::bound): unknown when an operand's
// is, or when the node may be negative (a negative constant or factor).
std::optional<int64_t> bound_of(const IndexNode& n) {
  const std::optional<int64_t> a = n.a ? n.a->bound : std::nullopt, b = n.b ? n.b->bound : std::nullopt;
  switch (n.op) {
    case Op::Const: return n.value >= 0 ? known(static_cast<__int128>(n.value) + 1) : std::nullopt;
    case Op::Var: return n.bound;
    case Op::Add: return a && b ? known(static_cast<__int128>(*a) + *b - 1) : std::nullopt;
    case Op::Mul:
      return a && n.value >= 0 ? known(static_cast<__int128>(*a - 1) * n.value + 1) : std::nullopt;
    case Op::Div: return a ? std::optional<int64_t>((*a - 1) / n.value + 1) : std::nullopt;
    case Op::Mod: return a ? std::optional<int64_t>(std::min(n.value, *a)) : std::nullopt;
    case Op::Select: return a && b ? std::optional<int64_t>(std::max(*a, *b)) : std::nullopt;
  }
  SEAM_ASSERT(false);
}

Index make(Op op, int64_t value, Index a = nullptr, Index b = nullptr, Index c = nullptr) {
  IndexNode node{};
  node.op = op;
  node.value = value;
  node.a = std::move(a);
  node.b = std::move(b);
  node.c = std::move(c);
  node.bound = bound_of(node);
  return std::make_shared<const IndexNode>(std::move(node));
}

bool bounded_by(const Index& i, int64_t limit) { return i->bound && *i->bound <= limit; }

// The terms of a sum, left to right, and a sum of terms in that order.
void collect_terms(const Index& i, std::vector<Index>& terms) {
  if (i->op != Op::Add) return terms.push_back(i);
  collect_terms(i->a, terms);
  collect_terms(i->b, terms);
}

Index sum(const std::vector<Index>& terms) {
  Index s = constant(0);
  for (const Index& t : terms) s = add(s, t);
  return s;
}

// A factor every value of `i` has, from its structure (0 for the constant 0, a multiple of anything).
int64_t evident_factor(const Index& i) {
  switch (i->op) {
    case Op::Const: return i->value == INT64_MIN ? 1 : std::abs(i->value);
    case Op::Var:
    case Op::Div: return 1;
    case Op::Mul: {
      const int64_t c = i->value == INT64_MIN ? 1 : std::abs(i->value);
      const __int128 f = static_cast<__int128>(c) * evident_factor(i->a);
      return f <= kLargestKnownBound ? static_cast<int64_t>(f) : c;
    }
    case Op::Mod: return std::gcd(i->value, evident_factor(i->a));
    case Op::Add:
    case Op::Select: return std::gcd(evident_factor(i->a), evident_factor(i->b));
  }
  SEAM_ASSERT(false);
}

// i / k for an index multiple_of(i, k): exact for values of either sign.
Index exact_quotient(const Index& i, int64_t k) {
  if (k == 1) return i;
  switch (i->op) {
    case Op::Const: return constant(i->value / k);
    case Op::Mul: {  // (x * c) / k = (x / (k / g)) * (c / g) with g = gcd(c, k)
      const int64_t g = std::gcd(i->value, k);
      return mul(exact_quotient(i->a, k / g), i->value / g);
    }
    case Op::Mod: return mod(exact_quotient(i->a, k), i->value / k);  // k divides the modulus
    case Op::Add: return add(exact_quotient(i->a, k), exact_quotient(i->b, k));
    case Op::Select: return select_below(i->c, i->value, exact_quotient(i->a, k), exact_quotient(i->b, k));
    default: SEAM_ASSERT(false, "not a multiple: ", to_string(i));
  }
}

// A sum split into the terms that are multiples of k (their sum divided by k: `quotient`) and the
// others (`rest`, in their order).
struct Split {
  Index quotient = constant(0);
  std::vector<Index> rest;
  bool any_multiple = false;
};

Split split_multiples(const std::vector<Index>& terms, int64_t k) {
  Split split;
  for (const Index& t : terms) {
    if (!multiple_of(t, k)) {
      split.rest.push_back(t);
      continue;
    }
    split.quotient = add(split.quotient, exact_quotient(t, k));
    split.any_multiple = true;
  }
  return split;
}

// The steps k (1 < k < b, dividing b) that some term is a multiple of, largest first.
std::vector<int64_t> partial_steps(const std::vector<Index>& terms, int64_t b) {
  std::vector<int64_t> steps;
  for (const Index& t : terms) {
    const int64_t k = std::gcd(evident_factor(t), b);
    if (k > 1 && k < b) steps.push_back(k);
  }
  std::sort(steps.rbegin(), steps.rend());
  steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
  return steps;
}

Index div_node(Index a, int64_t b) { return make(Op::Div, b, std::move(a)); }
Index mod_node(Index a, int64_t b) { return make(Op::Mod, b, std::move(a)); }

}  // namespace

bool multiple_of(const Index& i, int64_t k) { return evident_factor(i) % k == 0; }

Index constant(int64_t value) { return make(Op::Const, value); }

Index variable(std::string name, std::optional<int64_t> bound) {
  SEAM_ASSERT(!bound || *bound >= 1, "variable ", name, " has an empty range");
  if (bound && *bound > kLargestKnownBound) bound = std::nullopt;
  IndexNode node{};
  node.op = Op::Var;
  node.var = std::move(name);
  node.bound = bound;
  return std::make_shared<const IndexNode>(std::move(node));
}

std::optional<int64_t> constant_value(const Index& index) {
  if (index->op == Op::Const) return index->value;
  return std::nullopt;
}

Index add(Index a, Index b) {
  auto ca = constant_value(a), cb = constant_value(b);
  int64_t folded = 0;
  // A sum that overflows is left unfolded: it only occurs in lanes a guard excludes (a pad of an
  // empty tensor, say), whose index is never computed.
  if (ca && cb && !__builtin_add_overflow(*ca, *cb, &folded)) return constant(folded);
  if (ca && *ca == 0) return b;
  if (cb && *cb == 0) return a;
  if (ca) std::swap(a, b);  // keep constants on the right: x + 3
  cb = constant_value(b);
  if (cb && a->op == Op::Add && constant_value(a->b) &&  // (x + 3) + 4 -> x + 7
      !__builtin_add_overflow(*constant_value(a->b), *cb, &folded))
    return add(a->a, folded);
  return make(Op::Add, 0, std::move(a), std::move(b));
}

Index add(Index a, int64_t b) { return add(std::move(a), constant(b)); }

Index mul(Index a, int64_t b) {
  int64_t folded = 0;
  if (auto ca = constant_value(a); ca && !__builtin_mul_overflow(*ca, b, &folded))
    return constant(folded);  // an overflowing product stays unfolded, as in add
  if (b == 0) return constant(0);
  if (b == 1) return a;
  return make(Op::Mul, b, std::move(a));
}

// Rewrites, each exact for C's truncating division (the ones that split a sum need the sum non-negative,
// which a known bound proves, unless nothing is left over):
//   (x / c) / b = x / (c * b); (x * c) / b = x / (b / c) when c divides b;
//   a / b = 0 when 0 <= a < b;
//   (m + r) / b = m / b + r / b for m the terms that are multiples of b, r the others, and r / b = 0
//   when r < b;
//   (m + r) / b = (m / k) / (b / k) for m the multiples of a step k dividing b and 0 <= r < k.
Index div(Index a, int64_t b) {
  SEAM_ASSERT(b > 0);
  if (auto ca = constant_value(a)) return constant(*ca / b);
  if (b == 1) return a;
  if (a->op == Op::Div && static_cast<__int128>(a->value) * b <= kLargestKnownBound)
    return div(a->a, a->value * b);
  if (a->op == Op::Mul && a->value > 0 && b % a->value == 0) return div(a->a, b / a->value);
  if (bounded_by(a, b)) return constant(0);
  std::vector<Index> terms;
  collect_terms(a, terms);
  const bool non_negative = a->bound.has_value();
  Split whole = split_multiples(terms, b);
  if (whole.any_multiple && (whole.rest.empty() || non_negative))
    return add(whole.quotient, div(sum(whole.rest), b));
  if (!non_negative) return div_node(std::move(a), b);
  for (int64_t k : partial_steps(terms, b)) {
    Split part = split_multiples(terms, k);
    Index rest = sum(part.rest);
    if (!part.rest.empty() && bounded_by(rest, k)) return div(part.quotient, b / k);
  }
  return div_node(std::move(a), b);
}

// Rewrites, exact for C's truncating remainder (as for div, splits need a non-negative sum):
//   (x % m) % b = x % b when b divides m, = x % m when m <= b;
//   a % b = a when 0 <= a < b;
//   (m + r) % b = r % b for m the terms that are multiples of b.
Index mod(Index a, int64_t b) {
  SEAM_ASSERT(b > 0);
  if (auto ca = constant_value(a)) return constant(*ca % b);
  if (b == 1) return constant(0);
  if (a->op == Op::Mod && a->value % b == 0) return mod(a->a, b);
  if (a->op == Op::Mod && a->value <= b) return a;  // |x % m| < m <= b
  if (bounded_by(a, b)) return a;
  std::vector<Index> terms;
  collect_terms(a, terms);
  Split whole = split_multiples(terms, b);
  if (whole.any_multiple && (whole.rest.empty() || a->bound)) return mod(sum(whole.rest), b);
  return mod_node(std::move(a), b);
}

Index select_below(Index c, int64_t bound, Index a, Index b) {
  if (to_string(a) == to_string(b)) return a;
  if (auto cc = constant_value(c)) return *cc < bound ? a : b;
  if (bounded_by(c, bound)) return a;  // 0 <= c < bound always
  return make(Op::Select, bound, std::move(a), std::move(b), std::move(c));
}

namespace {

class LiteralSpelling final : public IndexSpelling {
 public:
  std::string integer(int64_t value) override { return std::to_string(value); }
  std::string quotient(const std::string& numerator, int64_t divisor, bool remainder, bool) override {
    return "(" + numerator + (remainder ? " % " : " / ") + std::to_string(divisor) + ")";
  }
};

}  // namespace

std::string to_string(const Index& index) {
  LiteralSpelling literal;  // stateless
  return to_string(index, literal);
}

std::string to_string(const Index& index, IndexSpelling& spelling) {
  auto text = [&](const Index& i) { return to_string(i, spelling); };
  switch (index->op) {
    case IndexNode::Op::Const: return spelling.integer(index->value);
    case IndexNode::Op::Var: return index->var;
    case IndexNode::Op::Add: return "(" + text(index->a) + " + " + text(index->b) + ")";
    case IndexNode::Op::Mul: return "(" + text(index->a) + " * " + spelling.multiplier(index->value) + ")";
    case IndexNode::Op::Div:
    case IndexNode::Op::Mod:
      return spelling.quotient(text(index->a), index->value, index->op == IndexNode::Op::Mod,
                               index->a->bound.has_value());
    case IndexNode::Op::Select:
      return "(" + text(index->c) + " < " + spelling.integer(index->value) + " ? " + text(index->a) + " : " +
             text(index->b) + ")";
  }
  SEAM_ASSERT(false);
}

}  // namespace seam::kir
