// Floating sums over more terms than a serial f32 sum can count (2^24 equal terms, after which adding one
// more changes nothing) on the host backend, against the exact value in f64: row sums, sums across rows
// (a non-innermost axis), the online max/sum pair of a log-sum-exp, and cumsum's running sums. Inputs
// are broadcasts of one element, so no test allocates more than a few bytes of input; the sizes sweep
// across 2^24 and 2^25. SEAM_LARGE_TESTS=1 adds 10^8 and 2^28 + 3 terms (seconds each).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>

#include "exec/executable.h"
#include "ir/builder.h"

namespace seam {
namespace {

std::vector<int64_t> long_sizes() {
  std::vector<int64_t> sizes = {(int64_t{1} << 24) + 5, (int64_t{1} << 25) + 7};
  const char* large = std::getenv("SEAM_LARGE_TESTS");
  if (large && std::string(large) == "1") {
    sizes.push_back(100'000'000);
    sizes.push_back((int64_t{1} << 28) + 3);
  }
  return sizes;
}

std::vector<HostTensor> run_host(const Fusion& fusion, const std::vector<HostTensor>& inputs) {
  ExecutableOptions options;
  options.backend = Backend::Host;
  options.poison_outputs = true;
  return Executable::compile(fusion, options)->run(inputs);
}

// Chunked f32 sums (lower_rows.cpp, chunk_vectors) add at most about 2 * sqrt(n) terms in sequence.
void expect_relatively_near(double actual, double exact, const std::string& what) {
  EXPECT_NEAR(actual, exact, 1e-3 * std::abs(exact)) << what;
}

// f32 and bf16 data: a bf16 element converts to f32 exactly, the sum accumulates in f32 either way.
TEST(LongSum, RowSumsOfEqualTerms) {
  for (int64_t n : long_sizes()) {
    for (DType dtype : {DType::Float32, DType::BFloat16}) {
      for (double v : {1.0, 0.1}) {
        Builder b("row_sum");
        Value x = b.input(Type::tensor(dtype, {1}), "x");
        const Value sum = b.sum(b.cast(b.expand(x, {n}), DType::Float32), {0});
        const HostTensor in = HostTensor::from_doubles(dtype, {1}, {v});
        const double term = in.get_double(0);  // v as the dtype holds it
        expect_relatively_near(
            run_host(b.finish({sum}), {in})[0].get_double(0), term * static_cast<double>(n),
            "n " + std::to_string(n) + " " + std::string(dtype_name(dtype)) + " v " + std::to_string(v));
      }
    }
  }
}

// sum(ones(n, 2), dims=[0]): the reduced axis is not the innermost one.
TEST(LongSum, SumsAcrossRows) {
  for (int64_t n : long_sizes()) {
    Builder b("column_sums");
    Value x = b.input(Type::tensor(DType::Float32, {1, 2}), "x");
    const Value sums = b.sum(b.expand(x, {n, 2}), {0});
    const std::vector<HostTensor> out =
        run_host(b.finish({sums}), {HostTensor::from_doubles(DType::Float32, {1, 2}, {1.0, 0.5})});
    expect_relatively_near(out[0].get_double(0), static_cast<double>(n), "n " + std::to_string(n));
    expect_relatively_near(out[0].get_double(1), 0.5 * static_cast<double>(n), "n " + std::to_string(n));
  }
}

// log(sum(exp(y - max(y)))) over a row repeating 3, 0.7, 0.7 is 3 + log(n / 3 * (1 + 2 exp(-2.3))): the
// online pair's running sums (one per lane of a vector, each seeing every value: 3 divides no vector)
// add 1 and exp(-2.3) in turn.
TEST(LongSum, LogSumExpOfRepeatingValues) {
  for (int64_t n : long_sizes()) {
    n -= n % 3;
    Builder b("log_sum_exp");
    Value x = b.input(Type::tensor(DType::Float32, {1, 3}), "x");
    const Value y = b.reshape(b.expand(x, {n / 3, 3}), {n});
    const Value m = b.reduce(OpKind::Max, y, {0}, true);
    const Value s = b.sum(b.exp(b.sub(y, b.expand(m, {n}))), {0});
    const Value lse = b.add(b.unary(OpKind::Log, s), b.squeeze(m, {0}));
    const std::vector<HostTensor> out =
        run_host(b.finish({lse}), {HostTensor::from_doubles(DType::Float32, {1, 3}, {3.0, 0.7, 0.7})});
    const double small = std::exp(static_cast<double>(0.7f) - 3.0);
    EXPECT_NEAR(out[0].get_double(0), 3.0 + std::log(static_cast<double>(n / 3) * (1 + 2 * small)), 1e-3)
        << "n " << n;
  }
}

// cumsum of [2^24, 1, 1, ...]: a serial f32 running sum stays at 2^24 (2^24 + 1 rounds back to it);
// torch.cumsum on the CPU accumulates in double and rounds each output once, and so must seam's host
// kernels, along the innermost axis (the rows kernel) and along an outer one (the lines kernel).
TEST(LongSum, RunningSumsRoundEachOutputOnce) {
  const int64_t n = 9;
  std::vector<double> values(static_cast<size_t>(n), 1.0);
  values[0] = 16777216.0;
  std::vector<double> expected;
  double exact = 0;
  for (double v : values) expected.push_back(static_cast<double>(static_cast<float>(exact += v)));
  {
    Builder b("cumsum_rows");
    Value x = b.input(Type::tensor(DType::Float32, {n}), "x");
    const Value c = b.cumsum(x, 0);
    EXPECT_EQ(
        run_host(b.finish({c}), {HostTensor::from_doubles(DType::Float32, {n}, values)})[0].to_doubles(),
        expected);
  }
  {
    Builder b("cumsum_lines");
    Value x = b.input(Type::tensor(DType::Float32, {n, 2}), "x");
    const Value c = b.cumsum(x, 0);
    std::vector<double> pairs, expected_pairs;
    for (size_t i = 0; i < values.size(); ++i) {
      pairs.insert(pairs.end(), {values[i], values[i]});
      expected_pairs.insert(expected_pairs.end(), {expected[i], expected[i]});
    }
    EXPECT_EQ(
        run_host(b.finish({c}), {HostTensor::from_doubles(DType::Float32, {n, 2}, pairs)})[0].to_doubles(),
        expected_pairs);
  }
}

}  // namespace
}  // namespace seam
