// Oracle and property tests: every pass alone and the whole pipeline keep the interface and the value of
// every output, bit for bit as the interpreter computes it, on random fusions and on fusions built to
// be full of the patterns the passes rewrite.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>

#include "interp/interpreter.h"
#include "ir/builder.h"
#include "passes/pipeline.h"
#include "passes/rewrite.h"
#include "support/error.h"
#include "testing/random_fusion.h"

namespace seam {
namespace {

// Empty when equal: same dtype and shape, and each element either bit-identical or NaN in both.
std::string bit_difference(const HostTensor& before, const HostTensor& after) {
  if (before.dtype() != after.dtype() || before.shape() != after.shape())
    return "type changed from " + std::string(dtype_name(before.dtype())) + shape_to_string(before.shape()) +
           " to " + std::string(dtype_name(after.dtype())) + shape_to_string(after.shape());
  HostTensor a = before.contiguous(), b = after.contiguous();
  const size_t size = static_cast<size_t>(dtype_size(a.dtype()));
  for (int64_t i = 0; i < a.numel(); ++i) {
    const size_t at = static_cast<size_t>(i) * size;
    if (std::memcmp(a.storage().data() + at, b.storage().data() + at, size) == 0) continue;
    if (is_floating(a.dtype()) && std::isnan(a.get_double(i)) && std::isnan(b.get_double(i))) continue;
    return "element " + std::to_string(i) + " changed";
  }
  return "";
}

// Checks the pass contract for `after`, the result of `pass_name` (a pass, or "pipeline") on `before`.
void expect_pass_keeps_results(const Fusion& before, const Fusion& after, const std::string& pass_name,
                               uint64_t input_seed) {
  check_interface_preserved(before, after, pass_name);
  std::vector<HostTensor> inputs = random_inputs(before, input_seed);
  std::vector<HostTensor> expected = interpret(before, inputs);
  std::vector<HostTensor> actual = interpret(after, inputs);
  ASSERT_EQ(expected.size(), actual.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    std::string diff = bit_difference(expected[i], actual[i]);
    EXPECT_TRUE(diff.empty()) << pass_name << " changed output " << i << " of " << before.name() << ": "
                              << diff;
  }
}

int count_non_slices(const Fusion& f) {
  int n = 0;
  for (const Node& node : f.nodes()) n += node.op != OpKind::Slice;
  return n;
}

// Every pass alone, then the pipeline; adds 1 to changed[i] when pass i changed the fusion.
void check_every_pass(const Fusion& fusion, uint64_t input_seed, std::vector<int>& changed) {
  changed.resize(pass_pipeline().size());
  for (size_t i = 0; i < pass_pipeline().size(); ++i) {
    const PassInfo& pass = pass_pipeline()[i];
    Fusion after = run_pass_checked(pass, fusion);
    expect_pass_keeps_results(fusion, after, std::string(pass.name), input_seed);
    changed[i] += !same_structure(fusion, after);
  }
  Fusion after = run_pipeline(fusion);
  expect_pass_keeps_results(fusion, after, "pipeline", input_seed);
  // Only a partial split-then-cat whose pieces have other users can add a node: one merged slice.
  EXPECT_LE(count_non_slices(after), count_non_slices(fusion)) << "the pipeline grew " << fusion.name();
  EXPECT_TRUE(same_structure(run_pipeline(after), after)) << "the pipeline did not reach a fixed point";
}

// Fusions dense in what the passes rewrite: cast chains, duplicated ops, slices of slices, splits
// followed by cats, reshape and permute chains, identity movement ops. A step that does not fit is
// skipped (the builder rejects it and stays unchanged).
class PatternFusion {
 public:
  explicit PatternFusion(uint64_t seed) : rng_(seed), b_("patterns_" + std::to_string(seed)) {}

  Fusion make() {
    const int inputs = static_cast<int>(uniform(1, 3));
    for (int i = 0; i < inputs; ++i) {
      Shape shape(static_cast<size_t>(uniform(1, 3)));
      for (int64_t& e : shape) e = uniform(chance(0.05) ? 0 : 1, 6);
      values_.push_back(b_.input(Type::tensor(pick_dtype(), shape), "in" + std::to_string(i)));
    }
    for (int step = 0; step < 30; ++step) {
      try {
        values_.push_back(random_step(values_[index(values_.size())]));
      } catch (const Error&) {
      }
    }
    std::vector<FusionOutput> outputs = {{values_.back(), "last"}};
    for (int i = 0; i < 3; ++i) outputs.push_back({values_[index(values_.size())], ""});
    return b_.finish(outputs);
  }

 private:
  int64_t uniform(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng_); }
  size_t index(size_t n) { return static_cast<size_t>(uniform(0, static_cast<int64_t>(n) - 1)); }
  bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  DType pick_dtype() { return kAllDTypes[index(std::size(kAllDTypes))]; }

  Value random_step(Value x) {
    const Type t = b_.type(x);
    const int rank = t.rank();
    const int64_t axis = rank > 0 ? uniform(0, rank - 1) : 0;
    const int64_t extent = rank > 0 ? t.shape[static_cast<size_t>(axis)] : 0;
    switch (uniform(0, 12)) {
      case 0: return b_.cast(x, pick_dtype());
      case 1: return b_.cast(b_.cast(x, pick_dtype()), chance(0.5) ? t.dtype : pick_dtype());
      case 2: {  // an exact copy of an existing node
        const Node n = b_.node(values_[index(values_.size())]);
        SEAM_CHECK(n.op != OpKind::Input, "inputs are not copied: each is a distinct argument");
        return b_.add(n.op, n.operands, n.attrs, n.type);
      }
      case 3: {  // split into pieces, then cat them (usually in order, maybe only some)
        std::vector<Value> pieces;
        for (int64_t at = 0; at < extent;) {
          int64_t next = std::min(extent, at + uniform(0, 3));
          pieces.push_back(b_.slice_axis(x, axis, at, next));
          at = next;
        }
        if (chance(0.3)) std::shuffle(pieces.begin(), pieces.end(), rng_);
        if (chance(0.3) && pieces.size() > 1) pieces.pop_back();
        return b_.cat(pieces, axis);
      }
      case 4: {
        int64_t start = uniform(0, extent), stop = uniform(start, extent);
        return b_.slice_axis(b_.slice_axis(x, axis, start, stop, uniform(1, 3)), axis, uniform(0, 2),
                             uniform(0, 6), uniform(1, 2));
      }
      case 5: {
        int64_t start = uniform(0, extent);
        return b_.slice_axis(x, axis, start, uniform(start, extent), uniform(1, 3));
      }
      case 6: {
        Shape flat = {t.numel()};
        return chance(0.5) ? b_.reshape(b_.reshape(x, flat), t.shape) : b_.reshape(x, flat);
      }
      case 7: {
        std::vector<int64_t> perm(static_cast<size_t>(rank));
        for (int i = 0; i < rank; ++i) perm[static_cast<size_t>(i)] = i;
        std::shuffle(perm.begin(), perm.end(), rng_);
        return b_.permute(x, perm);
      }
      case 8: {
        std::vector<int64_t> low(static_cast<size_t>(rank)), high(static_cast<size_t>(rank));
        for (int64_t& v : low) v = chance(0.7) ? 0 : uniform(-1, 2);
        for (int64_t& v : high) v = chance(0.7) ? 0 : uniform(-1, 2);
        return b_.pad(x, low, high, Number::of_int(0));
      }
      case 9: {  // identity movement ops
        switch (uniform(0, 4)) {
          case 0: return b_.squeeze(x, {});
          case 1: return b_.broadcast(x, {});
          case 2: return b_.expand(x, t.shape);
          case 3: return b_.cat({x}, 0);
          default:
            return b_.slice(x, Shape(static_cast<size_t>(rank), 0), t.shape,
                            Shape(static_cast<size_t>(rank), 1));
        }
      }
      case 10: return b_.neg(x);
      case 11: {  // the gradient of two slices: zero pads with adjacent interiors, summed (pads_to_cat)
        if (rank == 0 || extent < 2) return b_.neg(x);
        const int64_t cut = uniform(1, extent - 1);
        std::vector<int64_t> none(static_cast<size_t>(rank), 0), low = none, high = none;
        high[static_cast<size_t>(axis)] = extent - cut;
        Value first = b_.pad(b_.neg(b_.slice_axis(x, axis, 0, cut)), none, high, Number::of_int(0));
        low[static_cast<size_t>(axis)] = cut;
        Value second = b_.pad(b_.slice_axis(x, axis, cut, extent), low, none, Number::of_int(0));
        if (chance(0.4)) return chance(0.5) ? b_.add(first, second) : b_.add(second, first);
        Value m = chance(0.5) ? x : b_.neg(x);
        return chance(0.5) ? b_.add(b_.add(m, first), second) : b_.add(second, b_.add(first, m));
      }
      default: {
        Value y = values_[index(values_.size())];
        return b_.add(x, y);
      }
    }
  }

  std::mt19937_64 rng_;
  Builder b_;
  std::vector<Value> values_;
};

TEST(PassOracle, PatternFusionsKeepTheirResults) {
  std::vector<int> changed;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    SCOPED_TRACE("pattern seed " + std::to_string(seed));
    check_every_pass(PatternFusion(seed).make(), seed, changed);
    if (HasFailure()) return;
  }
  // The generator really exercises every pass.
  for (size_t i = 0; i < changed.size(); ++i) EXPECT_GT(changed[i], 50) << pass_pipeline()[i].name;
}

TEST(PassOracle, RandomFusionsKeepTheirResults) {
  std::vector<int> changed;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    SCOPED_TRACE("random seed " + std::to_string(seed));
    RandomFusionOptions options;
    options.special_values = seed % 3 == 0;  // inf and nan literals
    options.indexing = seed % 2 == 0;
    check_every_pass(random_fusion(seed, options), seed, changed);
    if (HasFailure()) return;
  }
  int total = 0;
  for (int n : changed) total += n;
  EXPECT_GT(total, 50);
}

// With random ops (docs/RANDOM.md): no pass may change which element of a random op is which.
TEST(PassOracle, RandomFusionsWithRandomOpsKeepTheirResults) {
  std::vector<int> changed;
  for (uint64_t seed = 0; seed < 100; ++seed) {
    SCOPED_TRACE("random seed " + std::to_string(seed));
    RandomFusionOptions options;
    options.random = true;
    check_every_pass(random_fusion(5000 + seed, options), seed, changed);
    if (HasFailure()) return;
  }
}

TEST(PassOracle, HandWrittenRoundTripsKeepNanAndLargeValues) {
  Builder b("round_trips");
  Value x = b.input(Type::tensor(DType::BFloat16, {8}), "x");
  Value i = b.input(Type::tensor(DType::Int32, {8}), "i");
  Value nan = b.full({8}, DType::BFloat16, Number::of_float(std::nan("")));
  Value big = b.full({8}, DType::Int32, Number::of_int(16777217));  // not exact in f32
  Value xs = b.cat({b.slice_axis(x, 0, 0, 4), b.slice_axis(nan, 0, 4, 8)}, 0);
  Value bf = b.cast(b.cast(xs, DType::Float32), DType::BFloat16);             // folds away
  Value lossy = b.cast(b.cast(b.add(i, big), DType::Float32), DType::Int32);  // stays
  Value wide = b.cast(b.cast(b.add(i, big), DType::Int64), DType::Float64);   // becomes one cast
  Fusion f = b.finish({{bf, "bf"}, {lossy, "lossy"}, {wide, "wide"}});
  std::vector<int> changed;
  check_every_pass(f, 7, changed);
  Fusion after = run_pipeline(f);
  int casts = 0;
  for (const Node& n : after.nodes()) casts += n.op == OpKind::Cast;
  EXPECT_EQ(casts, 3);  // the lossy pair and the widening cast
}

}  // namespace
}  // namespace seam
