// Index bounds and the range-aware rewrites of kir::div and kir::mod (lower/kernel_ir.h; docs/CODEGEN.md,
// "Index bounds"): each rule, the cases that must stay as they are, a brute-force check that every
// rewrite computes what C computes, and the effect on a lowered RoPE backward.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <random>

#include "lower/expression_emitter.h"
#include "lower/lower_pointwise.h"
#include "testing/host_lowering.h"
#include "workloads/rope.h"

namespace seam {
namespace {

using enum DType;
using kir::Index;

std::string str(const Index& i) { return kir::to_string(i); }

// ---- bounds ------------------------------------------------------------------------------------------

TEST(IndexBounds, FollowTheArithmetic) {
  const Index x = kir::variable("x", 100), y = kir::variable("y", 5);
  EXPECT_EQ(kir::constant(5)->bound, 6);
  EXPECT_EQ(x->bound, 100);
  EXPECT_EQ(kir::add(x, y)->bound, 104);
  EXPECT_EQ(kir::mul(x, 8)->bound, 793);
  EXPECT_EQ(kir::div(x, 7)->bound, 15);
  EXPECT_EQ(kir::mod(x, 7)->bound, 7);
  EXPECT_EQ(kir::select_below(kir::variable("c"), 3, x, y)->bound, 100);
}

TEST(IndexBounds, UnknownWhereAValueMayBeNegativeOrIsNotKnown) {
  const Index x = kir::variable("x", 100), free = kir::variable("free");
  EXPECT_FALSE(free->bound);
  EXPECT_FALSE(kir::constant(-3)->bound);
  EXPECT_FALSE(kir::add(x, -3)->bound);  // a pad's or cat piece's i - begin
  EXPECT_FALSE(kir::mul(x, -2)->bound);
  EXPECT_FALSE(kir::add(x, free)->bound);
  EXPECT_FALSE(kir::mod(free, 7)->bound);  // x % 7 of a negative x is negative
  EXPECT_FALSE(kir::select_below(x, 50, x, free)->bound);
}

TEST(IndexBounds, OverflowingBoundsBecomeUnknown) {
  const Index huge = kir::variable("huge", kir::kLargestKnownBound);
  EXPECT_EQ(huge->bound, kir::kLargestKnownBound);
  EXPECT_FALSE(kir::mul(huge, 4)->bound);
  EXPECT_FALSE(kir::add(huge, huge)->bound);
  EXPECT_FALSE(kir::variable("beyond", kir::kLargestKnownBound + 1)->bound);
  EXPECT_EQ(kir::div(kir::mul(huge, 3), 3)->bound, kir::kLargestKnownBound);  // (x * 3) / 3 is x
}

// Constants whose product or sum leaves int64 (the index of a pad of an empty tensor, in lanes a guard
// excludes) are kept as written rather than folded: folding them would be undefined behaviour.
TEST(IndexBounds, OverflowingConstantsStayUnfolded) {
  const Index big = kir::constant(-64590061743);
  EXPECT_EQ(str(kir::mul(big, 8589934594)), "(-64590061743 * 8589934594)");
  EXPECT_FALSE(kir::constant_value(kir::add(kir::constant(INT64_MAX), kir::constant(1))));
  EXPECT_EQ(kir::constant_value(kir::mul(kir::constant(-4), 3)), -12);
}

// ---- rewrites ----------------------------------------------------------------------------------------

// phi-2's backward: q in [0, 10), i in [0, 96); 0 <= q * 8 < 80, so the sum's quotient by 80 is i and
// its remainder q * 8.
TEST(IndexRewrites, RemainderBelowTheDivisorDropsOut) {
  const Index q = kir::variable("q", 10), i = kir::variable("i", 96);
  const Index sum = kir::add(kir::mul(q, 8), kir::mul(i, 80));
  EXPECT_EQ(str(kir::div(sum, 80)), "i");
  EXPECT_EQ(str(kir::mod(sum, 80)), "(q * 8)");
  EXPECT_EQ(str(kir::mod(kir::div(sum, 80), 3)), "(i % 3)");
  EXPECT_EQ(str(kir::div(kir::add(sum, 5), 80)), "i");  // 0 <= q * 8 + 5 < 80
  EXPECT_EQ(str(kir::mod(kir::add(sum, 5), 80)), "((q * 8) + 5)");
  // A step dividing the divisor: (i * 80 + r) / 240 = i / 3 for 0 <= r < 80.
  EXPECT_EQ(str(kir::div(sum, 240)), "(i / 3)");
}

TEST(IndexRewrites, MultiplesSplitOffWhenTheRemainderIsLarger) {
  const Index q = kir::variable("q", 20), i = kir::variable("i", 96);
  const Index sum = kir::add(kir::mul(q, 8), kir::mul(i, 80));  // q * 8 up to 152
  EXPECT_EQ(str(kir::div(sum, 80)), "(i + (q / 10))");
  EXPECT_EQ(str(kir::mod(sum, 80)), "((q * 8) % 80)");
  EXPECT_EQ(str(kir::div(sum, 240)), "(((q * 8) + (i * 80)) / 240)");  // nor a step: 80 <= q * 8
}

TEST(IndexRewrites, ValuesBelowTheDivisor) {
  const Index q = kir::variable("q", 10);
  EXPECT_EQ(str(kir::div(q, 10)), "0");
  EXPECT_EQ(str(kir::div(q, 16)), "0");
  EXPECT_EQ(str(kir::mod(q, 10)), "q");
  EXPECT_EQ(str(kir::div(q, 9)), "(q / 9)");
  EXPECT_EQ(str(kir::mod(q, 9)), "(q % 9)");
  EXPECT_EQ(str(kir::select_below(q, 10, kir::variable("a"), kir::variable("b"))), "a");  // always below
  EXPECT_EQ(str(kir::select_below(q, 9, kir::variable("a"), kir::variable("b"))), "(q < 9 ? a : b)");
}

TEST(IndexRewrites, NestedDivisionsAndRemainders) {
  const Index x = kir::variable("x");  // unknown: these hold for either sign
  EXPECT_EQ(str(kir::div(kir::div(x, 3), 5)), "(x / 15)");
  EXPECT_EQ(str(kir::mod(kir::mod(x, 12), 4)), "(x % 4)");
  EXPECT_EQ(str(kir::mod(kir::mod(x, 4), 12)), "(x % 4)");
  EXPECT_EQ(str(kir::mod(kir::mod(x, 12), 5)), "((x % 12) % 5)");
  EXPECT_EQ(str(kir::div(kir::mul(x, 8), 80)), "(x / 10)");
  EXPECT_EQ(str(kir::mod(kir::mul(x, 8), 80)), "((x * 8) % 80)");  // kept: 16-byte proofs read its form
}

TEST(IndexRewrites, UnknownBoundsKeepSumsWhole) {
  const Index x = kir::variable("x"), i = kir::variable("i", 96);
  const Index sum = kir::add(kir::mul(x, 8), kir::mul(i, 80));
  EXPECT_EQ(str(kir::div(sum, 80)), "(((x * 8) + (i * 80)) / 80)");
  EXPECT_EQ(str(kir::mod(sum, 80)), "(((x * 8) + (i * 80)) % 80)");
  const Index shifted = kir::add(kir::add(kir::mul(i, 80), kir::variable("q", 10)), -4);  // may be < 0
  EXPECT_EQ(str(kir::div(shifted, 80)), "((((i * 80) + q) + -4) / 80)");
  // Exact multiples need no bounds: their quotient is exact for either sign.
  EXPECT_EQ(str(kir::div(kir::add(kir::mul(x, 80), kir::mul(kir::variable("y"), 160)), 80)), "(x + (y * 2))");
  EXPECT_EQ(str(kir::mod(kir::add(kir::mul(x, 80), 160), 80)), "0");
}

TEST(IndexRewrites, RecursivelyDivisibleTerms) {
  const Index x = kir::variable("x", 1000), q = kir::variable("q", 4);
  // (x * 16) % 64 is a multiple of 16: its quotient is (x % 4).
  const Index sum = kir::add(kir::mod(kir::mul(x, 16), 64), q);
  EXPECT_EQ(str(kir::div(sum, 16)), "(x % 4)");
  EXPECT_EQ(str(kir::mod(sum, 16)), "q");
}

// Simpler forms keep the 16-byte vector proofs (`kir::multiple_of`) of the forms they replace.
TEST(IndexRewrites, VectorProofsHold) {
  const Index q = kir::variable("q", 10), i = kir::variable("i", 96);
  const Index sum = kir::add(kir::mul(q, 8), kir::mul(i, 80));
  EXPECT_TRUE(kir::multiple_of(kir::mod(sum, 80), 8));
  EXPECT_TRUE(kir::multiple_of(kir::mod(kir::add(sum, kir::mul(kir::variable("x"), 16)), 80), 8));
  EXPECT_TRUE(kir::multiple_of(kir::mod(kir::mod(kir::mul(kir::variable("x"), 8), 160), 80), 8));
}

// ---- every rewrite computes what C computes ------------------------------------------------------------

int64_t eval(const Index& i, const std::map<std::string, int64_t>& env) {
  switch (i->op) {
    case kir::IndexNode::Op::Const: return i->value;
    case kir::IndexNode::Op::Var: return env.at(i->var);
    case kir::IndexNode::Op::Add: return eval(i->a, env) + eval(i->b, env);
    case kir::IndexNode::Op::Mul: return eval(i->a, env) * i->value;
    case kir::IndexNode::Op::Div: return eval(i->a, env) / i->value;
    case kir::IndexNode::Op::Mod: return eval(i->a, env) % i->value;
    case kir::IndexNode::Op::Select: return eval(i->c, env) < i->value ? eval(i->a, env) : eval(i->b, env);
  }
  return 0;
}

// A random expression built through the simplifying constructors, with its unsimplified evaluation.
struct Built {
  Index index;
  std::function<int64_t(const std::map<std::string, int64_t>&)> reference;
};

Built random_expression(std::mt19937& rng, int depth) {
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  const int64_t c =
      std::vector<int64_t>{1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 24, 80}[static_cast<size_t>(pick(12))];
  const int kind = depth <= 0 ? pick(2) : pick(8);
  if (kind == 0) {
    const std::string name = std::vector<std::string>{"x", "y", "z", "free"}[static_cast<size_t>(pick(4))];
    return {name == "free" ? kir::variable(name)
                           : kir::variable(name, name == "x"   ? 6
                                                 : name == "y" ? 12
                                                               : 24),
            [name](const auto& env) { return env.at(name); }};
  }
  if (kind == 1) {
    const int64_t v = pick(5) == 0 ? -c : c * pick(3);
    return {kir::constant(v), [v](const auto&) { return v; }};
  }
  Built a = random_expression(rng, depth - 1);
  switch (kind) {
    case 2:
    case 3: {
      Built b = random_expression(rng, depth - 1);
      return {kir::add(a.index, b.index),
              [a, b](const auto& env) { return a.reference(env) + b.reference(env); }};
    }
    case 4: return {kir::mul(a.index, c), [a, c](const auto& env) { return a.reference(env) * c; }};
    case 5: return {kir::div(a.index, c), [a, c](const auto& env) { return a.reference(env) / c; }};
    case 6: return {kir::mod(a.index, c), [a, c](const auto& env) { return a.reference(env) % c; }};
    default: {
      Built cond = random_expression(rng, depth - 1), b = random_expression(rng, depth - 1);
      return {kir::select_below(cond.index, c, a.index, b.index), [cond, c, a, b](const auto& env) {
                return cond.reference(env) < c ? a.reference(env) : b.reference(env);
              }};
    }
  }
}

TEST(IndexRewrites, AgreeWithCArithmeticAndBoundsHold) {
  std::mt19937 rng(7);
  int simplified = 0;
  for (int n = 0; n < 3000; ++n) {
    Built e = random_expression(rng, 4);
    for (int64_t x = 0; x < 6; ++x)
      for (int64_t y = 0; y < 12; y += 1 + x % 3)
        for (int64_t z = 0; z < 24; z += 5)
          for (int64_t free : {-7, 0, 13}) {
            const std::map<std::string, int64_t> env{{"x", x}, {"y", y}, {"z", z}, {"free", free}};
            const int64_t value = eval(e.index, env);
            ASSERT_EQ(value, e.reference(env)) << str(e.index);
            if (e.index->bound) {
              ASSERT_GE(value, 0) << str(e.index);
              ASSERT_LT(value, *e.index->bound) << str(e.index);
            }
          }
    simplified += e.index->bound.has_value();
  }
  EXPECT_GT(simplified, 300);  // the bounded paths were exercised
}

// ---- in a lowered kernel -------------------------------------------------------------------------------

void collect_indices(const kir::Block& block, std::vector<std::string>& out) {
  for (const kir::Stmt& s : block) {
    if (s.index) out.push_back(str(s.index));
    for (const kir::Bound& b : s.bounds) out.push_back(str(b.index));
    kir::for_each_index(s.expr, [&](const Index& i) {
      if (i) out.push_back(str(i));
    });
    collect_indices(s.then_block, out);
    collect_indices(s.else_block, out);
  }
}

// A partial rotary with hs = 40 (phi-2's shape of problem): dqkv's slots of 40 elements need no division
// by 40 once the chunk coordinates' bounds are known, and the kernel still matches the interpreter.
TEST(IndexRewrites, RopeBackwardSlotsNeedNoDivisionByTheHeadSize) {
  RopeOptions rope;
  rope.dtype = Float32;
  rope.direction = Direction::Backward;
  Fusion fusion = build_rope({"partial", 4, 4, 40, 16, 8}, rope);
  kir::Kernel kernel = lower_and_check_on_host(fusion, {}, Tolerance{1e-5, 1e-5}, 3);
  ASSERT_EQ(kernel.outputs.size(), 1u);
  EXPECT_EQ(kernel.outputs[0].lanes, 4);
  EXPECT_EQ(kernel.outputs[0].order.run, 10);
  std::vector<std::string> indices;
  collect_indices(kernel.outputs[0].body, indices);
  ASSERT_FALSE(indices.empty());
  for (const std::string& i : indices) {
    EXPECT_EQ(i.find("/ 40)"), std::string::npos) << i;
    EXPECT_EQ(i.find("% 40)"), std::string::npos) << i;
  }
}

}  // namespace
}  // namespace seam
