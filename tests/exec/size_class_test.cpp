// Shape-generic kernels (docs/CODEGEN.md, "Size classes"): extents are kernel arguments, so the sizes of
// one class print the same kernel text and share one compiled module. Each size runs on the host backend
// against the reference interpreter; the distinct texts over a sweep are the compiles it costs.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "codegen/kernel_constants.h"
#include "exec/executable.h"
#include "interp/compare.h"
#include "interp/interpreter.h"
#include "lower/kernel_ir.h"
#include "testing/norm_backward.h"
#include "testing/random_fusion.h"
#include "testing/scan_cases.h"
#include "text/parser.h"
#include "workloads/rope.h"

namespace seam {
namespace {

void expect_matches_interpreter(const Fusion& fusion, Executable& exe, uint64_t seed) {
  std::vector<HostTensor> inputs = random_inputs(fusion, seed);
  std::vector<HostTensor> actual = exe.run(inputs);
  std::vector<HostTensor> expected = interpret(fusion, inputs);
  auto tolerance = [](DType dtype) {
    return is_floating(dtype) ? Tolerance{dtype == DType::BFloat16 ? 1.6e-2 : 1e-5, 1e-5} : Tolerance{0, 0};
  };
  const std::vector<Comparison> comparisons = compare_outputs(fusion, inputs, actual, expected, tolerance);
  for (size_t o = 0; o < comparisons.size(); ++o)
    EXPECT_TRUE(comparisons[o].ok) << fusion.name() << " output " << o << ": " << comparisons[o].message;
}

std::string joined_sources(const Executable& exe) {
  std::string text;
  for (const std::string& s : exe.sources()) text += s;
  return text;
}

// Compiles every fusion on the host backend, checks each against the interpreter, and returns the
// number of distinct kernel texts. A size whose text an earlier size printed must reuse its module.
int distinct_texts(const std::vector<Fusion>& fusions, const LaunchParams& launch = LaunchParams{}) {
  ExecutableOptions options;
  options.backend = Backend::Host;
  options.poison_outputs = true;
  options.launch = launch;
  std::set<std::string> texts;
  std::vector<std::unique_ptr<Executable>> alive;  // keeps the modules loaded for the later sizes
  for (size_t i = 0; i < fusions.size(); ++i) {
    auto exe = Executable::compile(fusions[i], options);
    const bool seen = !texts.insert(joined_sources(*exe)).second;
    if (seen) {
      EXPECT_EQ(exe->module_origin(), ModuleOrigin::Loaded) << fusions[i].name() << " size " << i;
    }
    expect_matches_interpreter(fusions[i], *exe, 7 + i);
    alive.push_back(std::move(exe));
  }
  std::printf("%zu sizes, %zu kernel texts\n", fusions.size(), texts.size());
  return static_cast<int>(texts.size());
}

TEST(SizeClasses, RopeForwardAndBackwardOverSequenceLengthsAndBatches) {
  const RopeConfig& config = rope_configs().front();  // W1: Llama-2-7b
  for (Direction direction : {Direction::Forward, Direction::Backward}) {
    std::vector<Fusion> fusions;
    for (int64_t batch : {1, 2})
      for (int64_t t : {1, 2, 3, 8, 9, 31, 32, 33, 64, 65}) {
        RopeOptions options;
        options.batch = batch;
        options.seq_len = t;
        options.direction = direction;
        options.contract = RopeContract::Thunder;
        // Named per size ("..._b2_t65"): kernels are named by their text, so fusions share them.
        fusions.push_back(build_rope(config, options));
      }
    // Classes by batch and sequence length: 1 or more each (an axis of 1 folds away in the index
    // arithmetic), so at most 4 texts for 20 sizes.
    EXPECT_LE(distinct_texts(fusions), 4) << direction_name(direction);
  }
}

// A slice, a pad and a cat along the innermost axis: the vector width a row admits (4, 2 or 1 f32
// lanes) is part of the class, and sizes 0 and 1 on either side of every divisor stay correct.
TEST(SizeClasses, PointwiseClassBoundaries) {
  std::vector<Fusion> fusions;
  for (int64_t rows : {1, 2, 5})
    for (int64_t n : {2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64, 127, 128}) {
      const std::string m = std::to_string(rows), half = std::to_string(n / 2), w = std::to_string(n);
      const std::string padded = std::to_string(n / 2 + 2);
      const std::string cat = std::to_string(n / 2 + 2 + n);
      fusions.push_back(
          parse_fusion("fusion boundaries {\n"
                       "  %x = input {name=\"x\"} : f32[" +
                       m + "," + w +
                       "]\n"
                       "  %s = slice %x {starts=[0,0], stops=[" +
                       m + "," + half + "], steps=[1,1]} : f32[" + m + "," + half +
                       "]\n"
                       "  %p = pad %s {low=[0,1], high=[0,1], value=0.5} : f32[" +
                       m + "," + padded +
                       "]\n"
                       "  %e = exp %x : f32[" +
                       m + "," + w +
                       "]\n"
                       "  %c = cat %p, %e {axis=1} : f32[" +
                       m + "," + cat +
                       "]\n"
                       "  return c=%c\n"
                       "}\n"));
    }
  const int texts = distinct_texts(fusions);
  EXPECT_LE(texts, 12) << "48 sizes";
  // With extents as literals every size is its own text.
  LaunchParams specialized;
  specialized.specialize_extents = true;
  EXPECT_EQ(distinct_texts(std::vector<Fusion>(fusions.begin(), fusions.begin() + 8), specialized), 8);
}

std::string softmax_text(int64_t m, int64_t n) {
  const std::string shape = "[" + std::to_string(m) + "," + std::to_string(n) + "]";
  const std::string row = "[" + std::to_string(m) + ",1]";
  return "fusion softmax {\n"
         "  %x = input {name=\"x\"} : f32" +
         shape +
         "\n"
         "  %m = max %x {axes=[1], keepdim=true} : f32" +
         row +
         "\n"
         "  %mb = expand %m {shape=" +
         shape + "} : f32" + shape +
         "\n"
         "  %d = sub %x, %mb : f32" +
         shape +
         "\n"
         "  %e = exp %d : f32" +
         shape +
         "\n"
         "  %s = sum %e {axes=[1], keepdim=true} : f32" +
         row +
         "\n"
         "  %sb = expand %s {shape=" +
         shape + "} : f32" + shape +
         "\n"
         "  %y = div %e, %sb : f32" +
         shape +
         "\n"
         "  return y=%y\n"
         "}\n";
}

// RMSNorm divides by the row length as a constant of the fusion: a floating constant, which kernels take
// as an argument too.
std::string rmsnorm_text(int64_t m, int64_t n) {
  const std::string shape = "[" + std::to_string(m) + "," + std::to_string(n) + "]";
  const std::string row = "[" + std::to_string(m) + ",1]";
  return "fusion rmsnorm {\n"
         "  %x = input {name=\"x\"} : bf16" +
         shape +
         "\n"
         "  %xf = cast %x {dtype=f32} : f32" +
         shape +
         "\n"
         "  %sq = mul %xf, %xf : f32" +
         shape +
         "\n"
         "  %ss = sum %sq {axes=[1], keepdim=true} : f32" +
         row +
         "\n"
         "  %n = const {value=" +
         std::to_string(n) +
         ".0} : f32\n"
         "  %ms = div %ss, %n : f32" +
         row +
         "\n"
         "  %eps = const {value=1e-05} : f32\n"
         "  %var = add %ms, %eps : f32" +
         row +
         "\n"
         "  %r = rsqrt %var : f32" +
         row +
         "\n"
         "  %rows = expand %r {shape=" +
         shape + "} : f32" + shape +
         "\n"
         "  %yf = mul %xf, %rows : f32" +
         shape +
         "\n"
         "  %y = cast %yf {dtype=bf16} : bf16" +
         shape +
         "\n"
         "  return y=%y\n"
         "}\n";
}

// Softmax and RMSNorm over rows of 2 to 4097 elements and 2 to 65 rows: row kernels print the rows, the
// row length, their index arithmetic and the fusion's floating constants as arguments, so sizes with the
// same row layout (vector width, threads and rows per block, a persistent row's iterations, peeling) and
// more than one row share one text.
TEST(SizeClasses, RowKernelsShareATextPerLayout) {
  for (auto* text_of : {&softmax_text, &rmsnorm_text}) {
    std::vector<Fusion> fusions;
    std::vector<std::string> layouts;
    ExecutableOptions options;
    options.backend = Backend::Host;
    for (int64_t m : {2, 3, 65})
      for (int64_t n : {2, 3, 4, 5, 8, 31, 32, 33, 255, 256, 257, 1000, 1024, 4096, 4097}) {
        Fusion fusion = parse_fusion(text_of(m, n));
        const std::vector<CompiledStep> steps = Executable::compile(fusion, options)->steps();
        ASSERT_EQ(steps.size(), 1u);
        if (!steps[0].kernel.rows) continue;  // short rows: reductions written out in a pointwise kernel
        const kir::RowLaunch& r = *steps[0].kernel.rows;
        layouts.push_back(std::to_string(r.vector) + " " + std::to_string(r.threads_per_row) + " " +
                          std::to_string(r.rows_per_block) + " " + std::to_string(r.iterations) + " " +
                          std::to_string(r.peel) + std::to_string(r.peel_columns) +
                          std::to_string(r.lanes_contiguous) + " " + std::to_string(r.cluster));
        fusions.push_back(std::move(fusion));
      }
    const int texts = distinct_texts(fusions, options.launch);
    const int distinct_layouts =
        static_cast<int>(std::set<std::string>(layouts.begin(), layouts.end()).size());
    EXPECT_EQ(texts, distinct_layouts) << fusions.front().name() << ": " << fusions.size() << " sizes";
  }
}

// The frontend's first fusion with symbolic sizes: exp(x) * rsqrt(sum(x * x, 1, keepdim)).
std::string scaled_exp_text(int64_t m, int64_t n) {
  const std::string shape = "[" + std::to_string(m) + "," + std::to_string(n) + "]";
  const std::string row = "[" + std::to_string(m) + ",1]";
  return "fusion scaled_exp {\n"
         "  %x = input {name=\"x\"} : f32" +
         shape +
         "\n"
         "  %sq = mul %x, %x : f32" +
         shape +
         "\n"
         "  %s = sum %sq {axes=[1], keepdim=true} : f32" +
         row +
         "\n"
         "  %e = exp %x : f32" +
         shape +
         "\n"
         "  %r = rsqrt %s : f32" +
         row +
         "\n"
         "  %rb = expand %r {shape=" +
         shape + "} : f32" + shape +
         "\n"
         "  %y = mul %e, %rb : f32" +
         shape +
         "\n"
         "  return y=%y\n"
         "}\n";
}

// The number of rows is never in a row kernel's text, one row included: every row count of a row
// length whose layout does not change with it (rows of 128 elements and fewer: a thread per vector at
// most) shares one text.
TEST(SizeClasses, EveryRowCountSharesOneText) {
  for (auto* text_of : {&scaled_exp_text, &softmax_text, &rmsnorm_text})
    for (int64_t n : {128, 100}) {
      std::vector<Fusion> fusions;
      for (int64_t m : {4, 1, 2, 7, 64, 300, 1000}) fusions.push_back(parse_fusion(text_of(m, n)));
      EXPECT_EQ(distinct_texts(fusions), 1) << fusions.front().name() << " rows of " << n;
    }
}

// A mean as a sum divided by the row length as an integer (a frontend's `x.size(1)`): integer constants
// of the kernel's math are arguments too, so row lengths of one layout share a text.
std::string centered_text(int64_t m, int64_t n) {
  const std::string shape = "[" + std::to_string(m) + "," + std::to_string(n) + "]";
  const std::string row = "[" + std::to_string(m) + ",1]";
  return "fusion centered {\n  %x = input {name=\"x\"} : f32" + shape +
         "\n  %s = sum %x {axes=[1], keepdim=true} : f32" + row +
         "\n  %n = const {value=" + std::to_string(n) + "} : i64\n  %mean = div %s, %n : f32" + row +
         "\n  %mb = expand %mean {shape=" + shape + "} : f32" + shape + "\n  %y = sub %x, %mb : f32" + shape +
         "\n  return y=%y\n}\n";
}

TEST(SizeClasses, IntegerConstantsOfTheMathAreArguments) {
  std::vector<Fusion> fusions;
  for (int64_t n : {128, 100, 112, 124}) fusions.push_back(parse_fusion(centered_text(3, n)));
  EXPECT_EQ(distinct_texts(fusions), 1);
}

// Normalization backwards: the outer reductions' workspace layout (columns, the partial blocks of the
// grid and their groups) and the rows are arguments, so row counts of one layout share a text while
// the grid grows with them.
TEST(SizeClasses, OuterReductionsShareATextPerLayout) {
  LaunchParams launch;
  launch.sm_count = 132;
  for (bool layernorm : {false, true}) {
    std::vector<Fusion> fusions;
    std::set<std::string> layouts;
    std::set<int64_t> grids;
    for (int64_t m : {17, 300, 2000}) {
      fusions.push_back(layernorm ? layernorm_backward(m, 512, DType::BFloat16)
                                  : rmsnorm_backward(m, 512, DType::BFloat16));
      ExecutableOptions options;
      options.backend = Backend::Host;
      options.launch = launch;
      const auto exe = Executable::compile(fusions.back(), options);
      ASSERT_EQ(exe->steps().size(), 1u);
      const kir::RowLaunch& r = *exe->steps()[0].kernel.rows;
      ASSERT_FALSE(r.outer.empty());
      layouts.insert(std::to_string(r.vector) + " " + std::to_string(r.threads_per_row) + " " +
                     std::to_string(r.rows_per_block) + " " + std::to_string(r.iterations) + " " +
                     std::to_string(r.min_blocks_per_sm) + " " + std::to_string(r.load_ahead));
      grids.insert(exe->steps()[0].grid.blocks);
    }
    EXPECT_GT(grids.size(), 1u) << "the grid follows the rows";
    EXPECT_EQ(distinct_texts(fusions, launch), static_cast<int>(layouts.size())) << fusions.front().name();
  }
}

// Scans: the line count, the scanned extent and the line layout are arguments, so the sizes of one scan
// launch (the rows kernel over long lines, a thread per line over short ones) share a text, one line too
// (integer sums: exact, as the interpreter's).
TEST(SizeClasses, ScansShareATextPerLaunch) {
  std::vector<Fusion> rows, lines;
  for (int64_t m : {3, 1, 40})
    for (int64_t n : {4097, 3000})
      rows.push_back(testing_scan::cumsum_fusion("rows", DType::Int32, {m, n}, -1));
  for (int64_t m : {9, 1, 100})
    lines.push_back(testing_scan::cumsum_fusion("lines", DType::Int32, {m, 33}, 1));
  for (int64_t m : {4, 2})
    lines.push_back(testing_scan::cumsum_fusion("lines", DType::Int32, {m, 100, 5}, 1));
  EXPECT_EQ(distinct_texts(rows), 1);
  EXPECT_EQ(distinct_texts(lines), 2) << "contiguous lines, and lines with an inner stride";
}

// The divisors' magic numbers against plain division, over the ranges the kernels' index types allow.
TEST(SizeClasses, FastDivisionIsExact) {
  uint64_t state = 88172645463325252ull;
  auto next = [&] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  for (bool wide : {false, true}) {
    const uint64_t top = wide ? (uint64_t{1} << 63) : (uint64_t{1} << 31);
    for (int trial = 0; trial < 4000; ++trial) {
      int64_t d = 0;
      switch (trial % 4) {
        case 0: d = static_cast<int64_t>(next() % 100 + 1); break;
        case 1: d = static_cast<int64_t>(next() % (top - 1) + 1); break;
        case 2: d = int64_t{1} << (next() % (wide ? 62 : 30)); break;
        default: d = (int64_t{1} << (next() % (wide ? 61 : 29) + 1)) + 1; break;
      }
      KernelConstants constants;
      constants.index64 = wide;
      constants.divisors = {d};
      const std::vector<uint64_t> words = constants.pack();
      const uint64_t m = words[1];
      const unsigned s = static_cast<unsigned>(words[2]);
      const uint64_t ud = static_cast<uint64_t>(d);
      for (uint64_t n :
           {uint64_t{0}, uint64_t{1}, ud - 1, ud, ud + 1, top - 1, (top - 1) / ud * ud, next() % top}) {
        if (n >= top) continue;
        const uint64_t hi = wide ? static_cast<uint64_t>((static_cast<unsigned __int128>(n) * m) >> 64)
                                 : ((n * (m & 0xffffffffu)) >> 32);
        EXPECT_EQ((hi + n) >> s, n / ud) << "n " << n << " d " << d << (wide ? " (64-bit)" : " (32-bit)");
      }
    }
  }
}

}  // namespace
}  // namespace seam
