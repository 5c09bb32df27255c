// cumprod, cummin and cummax on the interpreter: hand values (torch's dtypes, wrapping integer products,
// NaN that stays, the later of equal values kept), and every dtype and axis against a brute-force
// reference that folds each output's prefix afresh, on values with NaNs, infinities and signed zeros.
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include "interp_test_util.h"
#include "text/parser.h"
#include "text/printer.h"

namespace seam {
namespace {

using testing_interp::error_of;
using testing_interp::run_one;

HostTensor scan(OpKind op, const HostTensor& in, int64_t axis) {
  Builder b;
  Value x = b.input(Type::tensor(in.dtype(), in.shape()), "x");
  return run_one(b.finish({b.scan(op, x, axis)}), {in});
}

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

// Bitwise equality of two element lists: NaN equals NaN, -0 differs from +0.
void expect_same_values(const std::vector<double>& actual, const std::vector<double>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    if (std::isnan(expected[i])) {
      EXPECT_TRUE(std::isnan(actual[i])) << "element " << i << ": " << actual[i] << ", expected NaN";
      continue;
    }
    EXPECT_EQ(actual[i], expected[i]) << "element " << i;
    EXPECT_EQ(std::signbit(actual[i]), std::signbit(expected[i])) << "element " << i << " (sign of zero)";
  }
}

TEST(ScanProductExtremum, HandValues) {
  const HostTensor x = HostTensor::from_doubles(DType::Float32, {2, 3}, {2, -1, 3, 0.5, 4, -2});
  const HostTensor prod = scan(OpKind::Cumprod, x, 1);
  EXPECT_EQ(prod.dtype(), DType::Float32);
  EXPECT_EQ(prod.to_doubles(), (std::vector<double>{2, -2, -6, 0.5, 2, -4}));
  EXPECT_EQ(scan(OpKind::Cumprod, x, 0).to_doubles(), (std::vector<double>{2, -1, 3, 1, -4, -6}));
  EXPECT_EQ(scan(OpKind::Cummin, x, -1).to_doubles(), (std::vector<double>{2, -1, -1, 0.5, 0.5, -2}));
  EXPECT_EQ(scan(OpKind::Cummax, x, -1).to_doubles(), (std::vector<double>{2, 2, 3, 0.5, 4, 4}));
  EXPECT_EQ(scan(OpKind::Cummax, x, 0).to_doubles(), (std::vector<double>{2, -1, 3, 2, 4, 3}));
}

TEST(ScanProductExtremum, DtypesFollowTorch) {
  // cumprod of integers and bools multiplies in i64 (torch.cumprod); cummin/cummax keep the dtype.
  const HostTensor ints = HostTensor::from_ints(DType::Int32, {4}, {3, -2, 5, 1});
  const HostTensor prod = scan(OpKind::Cumprod, ints, 0);
  EXPECT_EQ(prod.dtype(), DType::Int64);
  EXPECT_EQ(prod.to_ints(), (std::vector<int64_t>{3, -6, -30, -30}));
  const HostTensor low = scan(OpKind::Cummin, ints, 0);
  EXPECT_EQ(low.dtype(), DType::Int32);
  EXPECT_EQ(low.to_ints(), (std::vector<int64_t>{3, -2, -2, -2}));
  const HostTensor flags = HostTensor::from_ints(DType::Bool, {5}, {1, 1, 0, 1, 0});
  EXPECT_EQ(scan(OpKind::Cumprod, flags, 0).dtype(), DType::Int64);
  EXPECT_EQ(scan(OpKind::Cumprod, flags, 0).to_ints(), (std::vector<int64_t>{1, 1, 0, 0, 0}));
  EXPECT_EQ(scan(OpKind::Cummax, flags, 0).dtype(), DType::Bool);
  EXPECT_EQ(scan(OpKind::Cummin, flags, 0).to_ints(), (std::vector<int64_t>{1, 1, 0, 0, 0}));
  EXPECT_EQ(scan(OpKind::Cummax, HostTensor::from_ints(DType::Bool, {3}, {0, 1, 0}), 0).to_ints(),
            (std::vector<int64_t>{0, 1, 1}));
  const HostTensor half = HostTensor::from_doubles(DType::BFloat16, {3}, {1.5, -4, 2});
  EXPECT_EQ(scan(OpKind::Cummin, half, 0).dtype(), DType::BFloat16);
  EXPECT_EQ(scan(OpKind::Cumprod, half, 0).dtype(), DType::BFloat16);
}

TEST(ScanProductExtremum, IntegerProductsWrapAround) {
  const int64_t big = int64_t{1} << 40;
  const HostTensor in = HostTensor::from_ints(DType::Int64, {3}, {big, big, 3});
  const uint64_t square = static_cast<uint64_t>(big) * static_cast<uint64_t>(big);  // 2^80 mod 2^64 = 0
  EXPECT_EQ(scan(OpKind::Cumprod, in, 0).to_ints(),
            (std::vector<int64_t>{big, static_cast<int64_t>(square), static_cast<int64_t>(square * 3)}));
  const int64_t max = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(scan(OpKind::Cumprod, HostTensor::from_ints(DType::Int64, {2}, {max, 2}), 0).to_ints(),
            (std::vector<int64_t>{max, -2}));
}

TEST(ScanProductExtremum, HalfProductsAreRoundedFromAWiderRunningProduct) {
  // 3 * (1/3 as an f16, 1365/4096) = 4095/4096 rounds (to even) to 1, but the running product keeps it:
  // after the second pair it is (4095/4096)^2 = 2047/2048 + 2^-24 -> 2047/2048, where a product rounded
  // at each step would stay 1.
  const HostTensor in = HostTensor::from_doubles(DType::Float16, {4}, {3.0, 1.0 / 3.0, 3.0, 1.0 / 3.0});
  EXPECT_EQ(in.get_double(1), 1365.0 / 4096);
  EXPECT_EQ(scan(OpKind::Cumprod, in, 0).to_doubles(), (std::vector<double>{3.0, 1.0, 3.0, 2047.0 / 2048}));
}

TEST(ScanProductExtremum, NaNStaysAndTheLaterOfEqualValuesIsKept) {
  const HostTensor in = HostTensor::from_doubles(DType::Float32, {6}, {1, kNaN, 5, -kInf, kNaN, 7});
  expect_same_values(scan(OpKind::Cummax, in, 0).to_doubles(), {1, kNaN, kNaN, kNaN, kNaN, kNaN});
  expect_same_values(scan(OpKind::Cummin, in, 0).to_doubles(), {1, kNaN, kNaN, kNaN, kNaN, kNaN});
  expect_same_values(scan(OpKind::Cumprod, in, 0).to_doubles(), {1, kNaN, kNaN, kNaN, kNaN, kNaN});
  // +0 and -0 are equal: torch keeps the later one.
  const HostTensor zeros = HostTensor::from_doubles(DType::Float32, {4}, {0.0, -0.0, -1.0, 0.0});
  expect_same_values(scan(OpKind::Cummax, zeros, 0).to_doubles(), {0.0, -0.0, -0.0, 0.0});
  expect_same_values(scan(OpKind::Cummin, zeros, 0).to_doubles(), {0.0, -0.0, -1.0, -1.0});
  const HostTensor infinities = HostTensor::from_doubles(DType::Float64, {3}, {-kInf, -kInf, kInf});
  expect_same_values(scan(OpKind::Cummax, infinities, 0).to_doubles(), {-kInf, -kInf, kInf});
  expect_same_values(scan(OpKind::Cummin, infinities, 0).to_doubles(), {-kInf, -kInf, -kInf});
}

// The brute-force meaning of output k of a line: its prefix x[0..k] folded afresh. A product multiplies
// left to right (in double, or wrapping 64-bit integers); a maximum (minimum) is the last NaN of the
// prefix if there is one, else its last element that no element of the prefix exceeds (undercuts).
struct Folded {
  double real = 0;
  int64_t integer = 0;
};
Folded brute_force(OpKind op, const std::vector<double>& reals, const std::vector<int64_t>& integers,
                   bool floating, size_t k) {
  Folded out;
  if (op == OpKind::Cumprod) {
    out.real = 1;
    uint64_t product = 1;
    for (size_t j = 0; j <= k; ++j) {
      out.real *= reals[j];
      product *= static_cast<uint64_t>(integers[j]);
    }
    out.integer = static_cast<int64_t>(product);
    return out;
  }
  size_t pick = 0;
  bool nan = false;
  for (size_t j = 0; j <= k; ++j)
    if (floating && std::isnan(reals[j])) pick = j, nan = true;
  if (!nan) {
    for (size_t j = 0; j <= k; ++j) {
      bool beaten = false;
      for (size_t i = 0; i <= k; ++i) {
        if (floating)
          beaten = beaten || (op == OpKind::Cummax ? reals[i] > reals[j] : reals[i] < reals[j]);
        else
          beaten = beaten || (op == OpKind::Cummax ? integers[i] > integers[j] : integers[i] < integers[j]);
      }
      if (!beaten) pick = j;
    }
  }
  out.real = reals[pick];
  out.integer = integers[pick];
  return out;
}

HostTensor special_values(DType dtype, const Shape& shape, std::mt19937_64& rng) {
  HostTensor t = HostTensor::random(dtype, shape, rng);
  const double specials[] = {kNaN, 0.0, -0.0, kInf, -kInf, 1.0, -1.0};
  for (int64_t i = 0; i < t.numel(); ++i) {
    const uint64_t r = rng();
    if (is_floating(dtype) && r % 16 == 0) t.set_double(i, specials[(r >> 8) % std::size(specials)]);
    if (dtype == DType::Int64 && r % 8 == 0) t.set_int(i, static_cast<int64_t>(rng()));  // products wrap
    if (dtype == DType::Int32 && r % 8 == 0) t.set_int(i, static_cast<int32_t>(rng()));
  }
  return t;
}

TEST(ScanProductExtremum, EveryDtypeAndAxisMatchesABruteForceReference) {
  std::mt19937_64 rng(11);
  const Shape shape = {3, 37, 4};
  for (DType dtype : {DType::Float32, DType::Float16, DType::BFloat16, DType::Float64, DType::Int32,
                      DType::Int64, DType::Bool}) {
    const HostTensor in = special_values(dtype, shape, rng);
    for (OpKind op : {OpKind::Cumprod, OpKind::Cummin, OpKind::Cummax}) {
      for (int64_t axis : {0, 1, 2}) {
        SCOPED_TRACE(std::string(op_name(op)) + " " + std::string(dtype_name(dtype)) + " axis " +
                     std::to_string(axis));
        const HostTensor out = scan(op, in, axis - 3);  // counted from the end
        const bool floating = is_floating(dtype);
        // Expected values rounded to the output's dtype as a store rounds them.
        HostTensor expected = HostTensor::zeros(out.dtype(), shape);
        const int64_t extent = shape[static_cast<size_t>(axis)];
        const int64_t inner = axis == 2 ? 1 : axis == 1 ? 4 : 37 * 4;
        for (int64_t line = 0; line < in.numel() / extent; ++line) {
          const int64_t start = (line / inner) * extent * inner + line % inner;
          std::vector<double> reals;
          std::vector<int64_t> integers;
          for (int64_t k = 0; k < extent; ++k) {
            reals.push_back(in.get_double(start + k * inner));
            integers.push_back(floating ? 0 : in.get_int(start + k * inner));
          }
          for (int64_t k = 0; k < extent; ++k) {
            const Folded f = brute_force(op, reals, integers, floating, static_cast<size_t>(k));
            if (floating)
              expected.set_double(start + k * inner, f.real);
            else
              expected.set_int(start + k * inner, f.integer);
          }
        }
        ASSERT_EQ(out.dtype(), expected.dtype());
        if (floating)
          expect_same_values(out.to_doubles(), expected.to_doubles());
        else
          EXPECT_EQ(out.to_ints(), expected.to_ints());
      }
    }
  }
}

TEST(ScanProductExtremum, RankZeroEmptyAndBadAxes) {
  const HostTensor scalar = HostTensor::from_doubles(DType::Float16, {}, {-2.5});
  for (OpKind op : {OpKind::Cumprod, OpKind::Cummin, OpKind::Cummax}) {
    EXPECT_EQ(scan(op, scalar, -1).to_doubles(), (std::vector<double>{-2.5}));
    EXPECT_EQ(scan(op, HostTensor::zeros(DType::Int32, {0, 3}), 0).shape(), (Shape{0, 3}));
    Builder b;
    Value x = b.input(Type::tensor(DType::Float32, {2, 3}), "x");
    EXPECT_NE(error_of([&] { b.scan(op, x, 2); }).find("axis 2 out of range"), std::string::npos);
    EXPECT_NE(error_of([&] { b.scan(op, x, -3); }).find(op_name(op)), std::string::npos);
  }
  Builder b;
  Value x = b.input(Type::tensor(DType::Float32, {2, 3}), "x");
  EXPECT_NE(error_of([&] { b.scan(OpKind::Sum, x, 0); }).find("not a scan"), std::string::npos);
}

TEST(ScanProductExtremum, TextRoundTrip) {
  const Fusion f = parse_fusion(R"(fusion f {
  %0 = input : i32[2,3]
  %1 = cumprod %0 {axis=-1} : i64[2,3]
  %2 = cummin %0 {axis=0} : i32[2,3]
  %3 = cummax %0 {axis=-2} : i32[2,3]
  return %1, %2, %3
})");
  const std::string text = print_fusion(f);
  EXPECT_NE(text.find("cumprod %0 {axis=1} : i64[2,3]"), std::string::npos) << text;
  EXPECT_NE(text.find("cummin %0 {axis=0} : i32[2,3]"), std::string::npos) << text;
  EXPECT_NE(text.find("cummax %0 {axis=0} : i32[2,3]"), std::string::npos) << text;
  EXPECT_NE(
      error_of([] {
        parse_fusion(
            "fusion f {\n  %0 = input : i32[2,3]\n  %1 = cummax %0 {axis=1} : i64[2,3]\n  return %1\n}");
      }).find("i32"),
      std::string::npos);
}

}  // namespace
}  // namespace seam
