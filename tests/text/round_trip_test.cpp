// print(parse(print(f))) == print(f), and parse(print(f)) rebuilds f node for node.
#include <gtest/gtest.h>

#include <set>

#include "ir/builder.h"
#include "ir/verify.h"
#include "testing/random_fusion.h"
#include "text/every_op.h"
#include "text/parser.h"
#include "text/printer.h"

namespace seam {
namespace {

void expect_same_fusion(const Fusion& a, const Fusion& b) {
  ASSERT_EQ(a.name(), b.name());
  ASSERT_EQ(a.num_nodes(), b.num_nodes());
  for (int32_t id = 0; id < a.num_nodes(); ++id) {
    const Node& x = a.node(Value{id});
    const Node& y = b.node(Value{id});
    EXPECT_EQ(x.op, y.op) << "node " << id;
    EXPECT_EQ(x.operands, y.operands) << "node " << id;
    EXPECT_TRUE(x.attrs == y.attrs) << "node " << id;
    EXPECT_EQ(x.type, y.type) << "node " << id;
  }
  ASSERT_EQ(a.outputs().size(), b.outputs().size());
  for (size_t i = 0; i < a.outputs().size(); ++i) {
    EXPECT_EQ(a.outputs()[i].value, b.outputs()[i].value);
    EXPECT_EQ(a.outputs()[i].name, b.outputs()[i].name);
  }
}

TEST(RoundTrip, EveryOpTextIsCanonical) {
  Fusion f = parse_fusion(testing_text::kEveryOpText);
  EXPECT_EQ(print_fusion(f), testing_text::kEveryOpText);
  std::set<OpKind> seen;
  for (const Node& n : f.nodes()) seen.insert(n.op);
  EXPECT_EQ(static_cast<int>(seen.size()), kNumOpKinds) << "extend kEveryOpText with the new op";
}

TEST(RoundTrip, BuilderFusionSurvivesPrintAndParse) {
  Builder b("built");
  Value x = b.input(Type::tensor(DType::BFloat16, {2, 4, 6}), "x", {48, 1, 4});
  Value s = b.constant(Number::of_float(1e-05), DType::Float32);
  Value y = b.mul(b.cast(x, DType::Float32), s);
  Value z = b.slice_axis(y, -1, 1, 5, 2);
  Value w = b.pad(z, {0, 1, 0}, {1, 0, -1}, Number::of_float(-0.0));
  Value q = b.full({3, 5, 1}, DType::Float16, Number::of_float(std::numeric_limits<double>::quiet_NaN()));
  Value c = b.cat({b.cast(w, DType::Float16), q}, 1);
  Fusion f = b.finish({{c, "out"}, {s, ""}});
  std::string text = print_fusion(f);
  Fusion g = parse_fusion(text);
  expect_same_fusion(f, g);
  EXPECT_EQ(print_fusion(g), text);
}

// Random ops (docs/RANDOM.md) with constant and run-time seeds print and parse back to the same fusion,
// and the parsed fusion computes the same values.
TEST(RoundTrip, RandomOps) {
  Builder b("random");
  Value seed = b.input(Type::scalar(DType::Int32), "seed");
  Value lo = b.constant(Number::of_float(-0.5), DType::Float32);
  Value hi = b.constant(Number::of_int(3), DType::Int64);
  Value offset = b.constant(Number::of_int(-(int64_t{1} << 40)), DType::Int64);
  Value u = b.uniform(lo, hi, seed, offset, {3, 0, 2}, DType::BFloat16);
  Value n = b.normal(hi, lo, offset, seed, {}, DType::Float64);
  Fusion f = b.finish({{u, "u"}, {n, "n"}});
  std::string text = print_fusion(f);
  EXPECT_NE(text.find("%4 = uniform %1, %2, %0, %3 {shape=[3,0,2], dtype=bf16} : bf16[3,0,2]"),
            std::string::npos)
      << text;
  Fusion g = parse_fusion(text);
  expect_same_fusion(f, g);
  EXPECT_EQ(print_fusion(g), text);
  RandomFusionOptions options;
  options.random = true;
  for (uint64_t s = 0; s < 300; ++s) {
    Fusion r = random_fusion(s, options);
    const std::string t = print_fusion(r);
    ASSERT_EQ(print_fusion(parse_fusion(t, "random")), t) << "seed " << s;
  }
}

TEST(RoundTrip, FloatLiteralsAreExact) {
  const double values[] = {0.1, 1e-05, 1e+20, -0.0, 5e-324, 1.7976931348623157e308, 2.5, -3.0, 1.0 / 3};
  for (double v : values) {
    Builder b("lit");
    Value c = b.constant(Number::of_float(v), DType::Float64);
    Fusion f = b.finish({c});
    Fusion g = parse_fusion(print_fusion(f));
    EXPECT_TRUE(g.node(Value{0}).attrs.get_number("value") == Number::of_float(v)) << print_fusion(f);
  }
}

TEST(RoundTrip, ThousandsOfRandomFusions) {
  RandomFusionOptions options;
  options.special_values = true;
  options.indexing = true;
  for (uint64_t seed = 0; seed < 1200; ++seed) {
    options.num_ops = 5 + static_cast<int>(seed % 40);
    Fusion f = random_fusion(seed, options);
    std::string text = print_fusion(f);
    Fusion g = parse_fusion(text, "random");
    verify(g);
    ASSERT_EQ(print_fusion(g), text) << "seed " << seed;
    expect_same_fusion(f, g);
    if (HasFailure()) FAIL() << "seed " << seed << "\n" << text;
  }
}

}  // namespace
}  // namespace seam
