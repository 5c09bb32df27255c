#include "testing/long_sums.h"

#include <cmath>
#include <cstdlib>
#include <sstream>

#include "ir/builder.h"

namespace seam::testing_long_sums {

std::vector<int64_t> long_sizes() {
  std::vector<int64_t> sizes = {(int64_t{1} << 24) + 5, (int64_t{1} << 25) + 7};
  const char* large = std::getenv("SEAM_LARGE_TESTS");
  if (large && std::string(large) == "1") {
    sizes.push_back(100'000'000);
    sizes.push_back((int64_t{1} << 28) + 3);
  }
  return sizes;
}

namespace {

// Chunked f32 sums (lower_rows.cpp, chunk_vectors) add at most about 2 * sqrt(n) terms in sequence.
constexpr double kRelative = 1e-3;

void add_row_sums(int64_t n, std::vector<LongSumCase>& cases) {
  for (DType dtype : {DType::Float32, DType::BFloat16}) {
    for (double v : {1.0, 0.1}) {
      Builder b("row_sum");
      Value x = b.input(Type::tensor(dtype, {1}), "x");
      const Value sum = b.sum(b.cast(b.expand(x, {n}), DType::Float32), {0});
      HostTensor in = HostTensor::from_doubles(dtype, {1}, {v});
      const double exact = in.get_double(0) * static_cast<double>(n);  // v as the dtype holds it
      cases.push_back(
          {"row sum of " + std::to_string(n) + " " + std::string(dtype_name(dtype)) + " " + std::to_string(v),
           b.finish({sum}),
           {std::move(in)},
           {exact},
           kRelative * exact});
    }
  }
}

// sum(x(n, 2), dims=[0]): the reduced axis is not the innermost one.
void add_column_sums(int64_t n, std::vector<LongSumCase>& cases) {
  Builder b("column_sums");
  Value x = b.input(Type::tensor(DType::Float32, {1, 2}), "x");
  const Value sums = b.sum(b.expand(x, {n, 2}), {0});
  const double count = static_cast<double>(n);
  cases.push_back({"column sums of " + std::to_string(n),
                   b.finish({sums}),
                   {HostTensor::from_doubles(DType::Float32, {1, 2}, {1.0, 0.5})},
                   {count, 0.5 * count},
                   kRelative * count});
}

// log(sum(exp(y - max(y)))) over a row repeating 3, 0.7, 0.7 is 3 + log(n / 3 * (1 + 2 exp(-2.3))): the
// online pair's running sums (one per lane of a vector, each seeing every value: 3 divides no vector)
// add 1 and exp(-2.3) in turn.
void add_log_sum_exp(int64_t n, std::vector<LongSumCase>& cases) {
  n -= n % 3;
  Builder b("log_sum_exp");
  Value x = b.input(Type::tensor(DType::Float32, {1, 3}), "x");
  const Value y = b.reshape(b.expand(x, {n / 3, 3}), {n});
  const Value m = b.reduce(OpKind::Max, y, {0}, true);
  const Value s = b.sum(b.exp(b.sub(y, b.expand(m, {n}))), {0});
  const Value lse = b.add(b.unary(OpKind::Log, s), b.squeeze(m, {0}));
  const double small = std::exp(static_cast<double>(0.7f) - 3.0);
  cases.push_back({"log-sum-exp of " + std::to_string(n),
                   b.finish({lse}),
                   {HostTensor::from_doubles(DType::Float32, {1, 3}, {3.0, 0.7, 0.7})},
                   {3.0 + std::log(static_cast<double>(n / 3) * (1 + 2 * small))},
                   kRelative});
}

// cumsum of [2^24, 1, 1, ...]: a serial f32 running sum stays at 2^24 (2^24 + 1 rounds back to it);
// torch.cumsum on the CPU accumulates in double and rounds each output once. Along the innermost axis
// (the rows kernel) and along an outer one (the lines kernel).
void add_cumsums(std::vector<LongSumCase>& cases) {
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
    cases.push_back({"cumsum along the innermost axis",
                     b.finish({c}),
                     {HostTensor::from_doubles(DType::Float32, {n}, values)},
                     expected,
                     0.0});
  }
  Builder b("cumsum_lines");
  Value x = b.input(Type::tensor(DType::Float32, {n, 2}), "x");
  const Value c = b.cumsum(x, 0);
  std::vector<double> pairs, expected_pairs;
  for (size_t i = 0; i < values.size(); ++i) {
    pairs.insert(pairs.end(), {values[i], values[i]});
    expected_pairs.insert(expected_pairs.end(), {expected[i], expected[i]});
  }
  cases.push_back({"cumsum along an outer axis",
                   b.finish({c}),
                   {HostTensor::from_doubles(DType::Float32, {n, 2}, pairs)},
                   expected_pairs,
                   0.0});
}

}  // namespace

std::vector<LongSumCase> long_sum_cases() {
  std::vector<LongSumCase> cases;
  for (int64_t n : long_sizes()) {
    add_row_sums(n, cases);
    add_column_sums(n, cases);
    add_log_sum_exp(n, cases);
  }
  add_cumsums(cases);
  return cases;
}

std::string check_long_sum(const LongSumCase& c, const HostTensor& out) {
  if (out.numel() != static_cast<int64_t>(c.expected.size()))
    return c.name + ": " + std::to_string(out.numel()) + " elements, expected " +
           std::to_string(c.expected.size());
  std::ostringstream differs;
  for (size_t i = 0; i < c.expected.size(); ++i) {
    const double got = out.get_double(static_cast<int64_t>(i));
    if (!(std::abs(got - c.expected[i]) <= c.tolerance))
      differs << c.name << ": element " << i << " is " << got << ", expected " << c.expected[i] << " (within "
              << c.tolerance << ")\n";
  }
  return differs.str();
}

}  // namespace seam::testing_long_sums
