// Random numbers (docs/RANDOM.md): the Philox-4x32 generator against the Random123 known answers, the
// element mapping, exact values of uniform and normal, determinism, streams, distributions, IR checks.
#include <gtest/gtest.h>

#include <cmath>

#include "interp_test_util.h"
#include "support/philox.h"

namespace seam {
namespace {

using testing_interp::error_of;
using testing_interp::run_one;

// Known-answer vectors of the Random123 distribution (kat_vectors) for philox4x32: counter, key, result.
struct Kat {
  rng::Words4 counter;
  unsigned int key0, key1;
  int rounds;
  rng::Words4 expected;
};

TEST(Philox, Random123KnownAnswers) {
  const Kat kats[] = {
      {{{0, 0, 0, 0}}, 0, 0, 10, {{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}}},
      {{{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}},
       0xffffffff,
       0xffffffff,
       10,
       {{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}}},
      {{{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}},
       0xa4093822,
       0x299f31d0,
       10,
       {{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}}},
      {{{0, 0, 0, 0}}, 0, 0, 7, {{0x5f6fb709, 0x0d893f64, 0x4f121f81, 0x4f730a48}}},
      {{{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}},
       0xa4093822,
       0x299f31d0,
       7,
       {{0x4dfccaba, 0x190a87f0, 0xc47362ba, 0xb6b5242a}}},
  };
  for (const Kat& kat : kats) {
    rng::Words4 r = rng::philox4x32(kat.counter, kat.key0, kat.key1, kat.rounds);
    for (int w = 0; w < 4; ++w)
      EXPECT_EQ(r.w[w], kat.expected.w[w]) << "rounds " << kat.rounds << " word " << w;
  }
}

// Element i of (seed, offset) is philox(counter = (lo(i), hi(i), lo(offset), hi(offset)), key = (lo(seed),
// hi(seed))): the third known answer, reached through the element mapping.
TEST(Philox, ElementMapping) {
  rng::Words4 r = rng::element_words(0x299f31d0a4093822ull, 0x0370734413198a2eull, 0x85a308d3243f6a88ull);
  EXPECT_EQ(r.w[0], 0xd16cfe09u);
  EXPECT_EQ(r.w[3], 0x24126ea1u);
  rng::Words4 zero = rng::element_words(0, 0, 0);
  EXPECT_EQ(zero.w[0], 0x6627e8d5u);
}

// The generator's log and cos against the C library (which the generator does not use, so that every
// platform gives the same bits): within a few units in the last place.
TEST(Philox, LogAndCosAreAccurate) {
  for (int i = 0; i < 100000; ++i) {
    const rng::Words4 r = rng::element_words(3, 0, static_cast<uint64_t>(i));
    const double u =
        static_cast<double>((((static_cast<uint64_t>(r.w[0]) << 32) | r.w[1]) >> 11) + 1) * 0x1p-53;
    const double t = rng::unit_double(r.w[2], r.w[3]);
    EXPECT_NEAR(rng::log_unit(u), std::log(u), 1e-15 * std::fabs(std::log(u)) + 1e-300) << u;
    EXPECT_NEAR(rng::cos_two_pi(t), std::cos(2 * M_PI * t), 2e-15) << t;
  }
  for (int e = 0; e <= 53; ++e) EXPECT_DOUBLE_EQ(rng::log_unit(std::ldexp(1.0, -e)), -e * std::log(2.0));
  EXPECT_EQ(rng::cos_two_pi(0.0), 1.0);
  EXPECT_EQ(rng::cos_two_pi(0.5), -1.0);
  EXPECT_EQ(rng::cos_two_pi(0.25), 0.0);
}

Fusion uniform_fusion(DType dtype, Shape shape, int64_t seed, int64_t offset, double lo = 0.0,
                      double hi = 1.0) {
  Builder b("u");
  Value l = b.constant(Number::of_float(lo), DType::Float64),
        h = b.constant(Number::of_float(hi), DType::Float64);
  Value s = b.constant(Number::of_int(seed), DType::Int64),
        o = b.constant(Number::of_int(offset), DType::Int64);
  return b.finish({b.uniform(l, h, s, o, std::move(shape), dtype)});
}

Fusion normal_fusion(DType dtype, Shape shape, int64_t seed, int64_t offset, double mean = 0.0,
                     double std = 1.0) {
  Builder b("n");
  Value m = b.constant(Number::of_float(mean), DType::Float64),
        d = b.constant(Number::of_float(std), DType::Float64);
  Value s = b.constant(Number::of_int(seed), DType::Int64),
        o = b.constant(Number::of_int(offset), DType::Int64);
  return b.finish({b.normal(m, d, s, o, std::move(shape), dtype)});
}

// Exact values from the words of the first known answer (seed 0, offset 0, element 0).
TEST(RandomOps, UniformExactValues) {
  EXPECT_EQ(run_one(uniform_fusion(DType::Float32, {1}, 0, 0), {}).get_double(0), 0x6627e8 * 0x1p-24);
  const uint64_t bits53 = ((uint64_t{0x6627e8d5} << 32) | 0xe169c58d) >> 11;
  EXPECT_EQ(run_one(uniform_fusion(DType::Float64, {1}, 0, 0), {}).get_double(0),
            static_cast<double>(bits53) * 0x1p-53);
  // lo + (hi - lo) * u, one rounding (fma in f32).
  EXPECT_EQ(run_one(uniform_fusion(DType::Float32, {1}, 0, 0, -2.0, 3.0), {}).get_double(0),
            static_cast<double>(std::fmaf(5.0f, 0x6627e8 * 0x1p-24f, -2.0f)));
}

TEST(RandomOps, NormalMatchesBoxMuller) {
  HostTensor out = run_one(normal_fusion(DType::Float64, {64}, 5, 7, 1.5, 2.0), {});
  for (int64_t i = 0; i < 64; ++i) {
    const rng::Words4 r = rng::element_words(5, 7, static_cast<uint64_t>(i));
    const double u1 =
        static_cast<double>((((static_cast<uint64_t>(r.w[0]) << 32) | r.w[1]) >> 11) + 1) * 0x1p-53;
    const double u2 = rng::unit_double(r.w[2], r.w[3]);
    const double libm = 1.5 + 2.0 * std::sqrt(-2.0 * std::log(u1)) * std::cos(2 * M_PI * u2);
    EXPECT_NEAR(out.get_double(i), libm, 1e-13 * (1 + std::fabs(libm))) << i;
  }
}

TEST(RandomOps, DeterministicAndIndependentOfShape) {
  for (DType dtype : {DType::Float16, DType::BFloat16, DType::Float32, DType::Float64}) {
    HostTensor a = run_one(uniform_fusion(dtype, {6, 5}, 42, 3), {});
    HostTensor b = run_one(uniform_fusion(dtype, {6, 5}, 42, 3), {});
    HostTensor flat = run_one(uniform_fusion(dtype, {30}, 42, 3), {});
    EXPECT_EQ(a.to_doubles(), b.to_doubles()) << dtype_name(dtype);
    EXPECT_EQ(a.to_doubles(), flat.to_doubles()) << "the value is a function of the linear index";
    HostTensor n1 = run_one(normal_fusion(dtype, {30}, 42, 3), {});
    HostTensor n2 = run_one(normal_fusion(dtype, {6, 5}, 42, 3), {});
    EXPECT_EQ(n1.to_doubles(), n2.to_doubles()) << dtype_name(dtype);
  }
}

// Different seeds and offsets give different streams; a prefix of a larger tensor is the smaller one.
TEST(RandomOps, SeedsAndOffsetsSelectStreams) {
  auto values = [](int64_t seed, int64_t offset, int64_t n) {
    return run_one(uniform_fusion(DType::Float64, {n}, seed, offset), {}).to_doubles();
  };
  const std::vector<double> base = values(1, 0, 1000);
  for (auto [seed, offset] : {std::pair<int64_t, int64_t>{2, 0},
                              {1, 1},
                              {1, int64_t{1} << 32},
                              {int64_t{1} << 32, 0},
                              {-1, 0},
                              {1, -1}}) {
    const std::vector<double> other = values(seed, offset, 1000);
    int equal = 0;
    for (size_t i = 0; i < base.size(); ++i) equal += base[i] == other[i];
    EXPECT_EQ(equal, 0) << "seed " << seed << " offset " << offset;
  }
  const std::vector<double> prefix = values(1, 0, 10);
  EXPECT_EQ(prefix, std::vector<double>(base.begin(), base.begin() + 10));
}

// i32 seeds and offsets are their i64 values (sign-extended).
TEST(RandomOps, NarrowSeedsWiden) {
  Builder b;
  Value lo = b.constant(Number::of_int(0), DType::Int32), hi = b.constant(Number::of_int(1), DType::Int32);
  Value seed = b.constant(Number::of_int(-5), DType::Int32),
        offset = b.constant(Number::of_int(9), DType::Int32);
  HostTensor narrow = run_one(b.finish({b.uniform(lo, hi, seed, offset, {16}, DType::Float32)}), {});
  EXPECT_EQ(narrow.to_doubles(), run_one(uniform_fusion(DType::Float32, {16}, -5, 9), {}).to_doubles());
}

// Run-time scalar inputs as seed and offset give the values their constants would.
TEST(RandomOps, ScalarInputSeeds) {
  Builder b;
  Value seed = b.input(Type::scalar(DType::Int64), "seed"),
        offset = b.input(Type::scalar(DType::Int64), "offset");
  Value lo = b.constant(Number::of_float(-1.0), DType::Float32),
        hi = b.constant(Number::of_float(1.0), DType::Float32);
  Fusion f = b.finish({b.uniform(lo, hi, seed, offset, {3, 7}, DType::BFloat16)});
  HostTensor s = HostTensor::from_ints(DType::Int64, {}, {77}),
             o = HostTensor::from_ints(DType::Int64, {}, {12});
  EXPECT_EQ(run_one(f, {s, o}).to_doubles(),
            run_one(uniform_fusion(DType::BFloat16, {3, 7}, 77, 12, -1.0, 1.0), {}).to_doubles());
}

TEST(RandomOps, UniformStaysInHalfOpenRange) {
  for (DType dtype : {DType::Float16, DType::BFloat16, DType::Float32, DType::Float64}) {
    // Narrow ranges where rounding to the dtype reaches hi often: hi never appears.
    for (auto [lo, hi] : {std::pair<double, double>{0.0, 1.0}, {1.0, 1.0078125}, {-3.0, -2.0}, {2.0, 2.0}}) {
      HostTensor out = run_one(uniform_fusion(dtype, {4096}, 11, 0, lo, hi), {});
      int at_lo = 0;
      for (double v : out.to_doubles()) {
        ASSERT_GE(v, lo) << dtype_name(dtype);
        if (hi > lo) {
          ASSERT_LT(v, hi) << dtype_name(dtype);
        }
        at_lo += v == lo;
      }
      if (hi == lo) {
        EXPECT_EQ(at_lo, 4096);
      }
    }
  }
}

TEST(RandomOps, DistributionsOf100kSamples) {
  for (DType dtype : {DType::BFloat16, DType::Float32, DType::Float64}) {
    const int64_t n = 100000;
    std::vector<double> u = run_one(uniform_fusion(dtype, {n}, 123, 4, -1.0, 3.0), {}).to_doubles();
    std::vector<double> z = run_one(normal_fusion(dtype, {n}, 123, 4, 0.5, 2.0), {}).to_doubles();
    auto moments = [](const std::vector<double>& v) {
      double sum = 0, sq = 0;
      for (double x : v) sum += x;
      const double mean = sum / static_cast<double>(v.size());
      for (double x : v) sq += (x - mean) * (x - mean);
      return std::pair<double, double>{mean, std::sqrt(sq / static_cast<double>(v.size()))};
    };
    auto [umean, ustd] = moments(u);
    auto [zmean, zstd] = moments(z);
    // Five standard errors: mean 1, std 4/sqrt(12) for uniform; 0.5 and 2 for normal.
    EXPECT_NEAR(umean, 1.0, 5 * 1.1547 / std::sqrt(double(n)) + 0.01) << dtype_name(dtype);
    EXPECT_NEAR(ustd, 4.0 / std::sqrt(12.0), 0.01) << dtype_name(dtype);
    EXPECT_NEAR(zmean, 0.5, 5 * 2.0 / std::sqrt(double(n)) + 0.01) << dtype_name(dtype);
    EXPECT_NEAR(zstd, 2.0, 0.02) << dtype_name(dtype);
    int beyond_3_sigma = 0;
    for (double x : z) beyond_3_sigma += std::fabs(x - 0.5) > 6.0;
    EXPECT_NEAR(beyond_3_sigma, 0.0027 * n, 80) << dtype_name(dtype);  // two-sided 3-sigma tail: 270
  }
}

TEST(RandomOps, EmptyAndRankZero) {
  EXPECT_EQ(run_one(uniform_fusion(DType::Float32, {0, 3}, 1, 0), {}).numel(), 0);
  HostTensor scalar = run_one(normal_fusion(DType::Float32, {}, 0, 0), {});
  EXPECT_EQ(scalar.rank(), 0);
  EXPECT_EQ(scalar.get_double(0), run_one(normal_fusion(DType::Float32, {1}, 0, 0), {}).get_double(0));
}

TEST(RandomOps, BadOperandsAndTypesAreErrors) {
  Builder b;
  Value f = b.constant(Number::of_float(1.0), DType::Float32),
        i = b.constant(Number::of_int(1), DType::Int64);
  Value flag = b.constant(Number::of_bool(true), DType::Bool);
  Value t = b.input(Type::tensor(DType::Float32, {2}), "t");
  EXPECT_NE(
      error_of([&] { b.uniform(t, f, i, i, {2}, DType::Float32); }).find("operand 0 (lo) must be a scalar"),
      std::string::npos);
  EXPECT_NE(error_of([&] {
              b.uniform(f, f, f, i, {2}, DType::Float32);
            }).find("operand 2 (seed) must be an integer"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              b.normal(f, f, i, f, {2}, DType::Float32);
            }).find("operand 3 (offset) must be an integer"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              b.normal(f, flag, i, i, {2}, DType::Float32);
            }).find("operand 1 (std) must be a number"),
            std::string::npos);
  EXPECT_NE(error_of([&] { b.uniform(f, f, i, i, {2}, DType::Int32); }).find("makes floating numbers"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              b.uniform(f, f, i, i, {2, -1}, DType::Float32);
            }).find("negative extent"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              b.add(OpKind::Uniform, {f, f, i}, {{"shape", Shape{2}}, {"dtype", DType::Float32}});
            }).find("takes 4 operand(s), got 3"),
            std::string::npos);
}

}  // namespace
}  // namespace seam
