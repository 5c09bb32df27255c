// Matrix products on the GPU through cuBLASLt (exec/cublas_matmul.*) against the interpreter, which sums
// in double: every dtype, batched and broadcast shapes, transposed and strided layouts, views copied
// first, empty contractions, misaligned inputs, random products, random fusions around them, and the
// transformer stack end to end. Skips without a GPU.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>

#include "device_tensors.h"
#include "exec/executable.h"
#include "interp/compare.h"
#include "interp/interpreter.h"
#include "support/error.h"
#include "support/parallel.h"
#include "testing/random_fusion.h"
#include "testing/random_matmul.h"
#include "text/parser.h"
#include "text/printer.h"
#include "workloads/transformer.h"

namespace seam {
namespace {

bool quick() { return std::getenv("SEAM_GPU_QUICK") != nullptr; }

ExecutableOptions cuda_options() {
  ExecutableOptions options;
  options.backend = Backend::Cuda;
  options.poison_outputs = true;
  return options;
}

// The library sums `k` products in float (double for f64) where the interpreter sums in double: an
// absolute allowance for that order near zero, on top of the output dtype's rounding.
Tolerance product_tolerance(DType dtype, int64_t k) {
  Tolerance t = default_tolerance(dtype);
  const double epsilon = dtype == DType::Float64 ? 2.3e-16 : 1.2e-7;
  t.atol = std::max(t.atol, 16.0 * epsilon * static_cast<double>(std::max<int64_t>(k, 1)));
  if (dtype == DType::Float32) t.rtol = 1e-5;
  return t;
}

int64_t contraction_of(const Fusion& fusion) {
  for (const Node& n : fusion.nodes()) {
    if (n.op == OpKind::Matmul) return fusion.type(n.operands[0]).shape.back();
    if (n.op == OpKind::Linear) return fusion.type(n.operands[1]).shape.back();
  }
  return 1;
}

void expect_matches_interpreter(const Fusion& fusion, uint64_t seed, const std::string& what) {
  auto exe = Executable::compile(fusion, cuda_options());
  std::vector<HostTensor> inputs = random_inputs(fusion, seed);
  std::vector<HostTensor> actual = exe->run(inputs);
  std::vector<HostTensor> expected = interpret(fusion, inputs);
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t o = 0; o < actual.size(); ++o) {
    Comparison c = compare_tensors(actual[o], expected[o],
                                   product_tolerance(expected[o].dtype(), contraction_of(fusion)));
    EXPECT_TRUE(c.ok) << what << " output " << o << ": " << c.message << "\n" << print_fusion(fusion);
  }
}

TEST(GpuMatmul, ShapesLayoutsAndDtypes) {
  SKIP_WITHOUT_GPU();
  for (DType dtype : {DType::BFloat16, DType::Float16, DType::Float32, DType::Float64}) {
    uint64_t seed = 11;
    for (const std::string& text : matmul_cases(dtype)) {
      Fusion fusion = parse_fusion(text);
      expect_matches_interpreter(fusion, seed++, std::string(dtype_name(dtype)));
    }
  }
}

TEST(GpuMatmul, RandomProducts) {
  SKIP_WITHOUT_GPU();
  std::mt19937 rng(2026);
  const int count = quick() ? 20 : 120;
  for (int c = 0; c < count; ++c) {
    const DType dtype = c % 3 == 0 ? DType::BFloat16 : c % 3 == 1 ? DType::Float32 : DType::Float64;
    Fusion fusion = parse_fusion(random_matmul_text(rng, dtype));
    expect_matches_interpreter(fusion, static_cast<uint64_t>(c), "random product " + std::to_string(c));
  }
}

TEST(GpuMatmul, RandomFusionsAroundProducts) {
  SKIP_WITHOUT_GPU();
  RandomFusionOptions options;
  options.reductions = false;
  const size_t count = quick() ? 10 : 60;
  int with_products = 0;
  std::vector<Fusion> fusions;
  for (size_t k = 0; k < count; ++k) fusions.push_back(random_fusion(9100 + k, options));
  auto exes = parallel_map(count, [&](size_t k) { return Executable::compile(fusions[k], cuda_options()); });
  for (size_t k = 0; k < count; ++k) {
    const uint64_t seed = 9100 + k;
    const Fusion& fusion = fusions[k];
    bool has_product = false;
    for (const Node& n : fusion.nodes()) has_product |= n.op == OpKind::Matmul || n.op == OpKind::Linear;
    with_products += has_product;
    Executable* exe = exes[k].get();
    std::vector<HostTensor> inputs = random_inputs(fusion, seed * 7);
    std::vector<HostTensor> actual = exe->run(inputs), expected = interpret(fusion, inputs);
    // Products feed pointwise math: allow what float sums over a few elements differ by, amplified.
    auto tolerance = [](DType dtype) {
      return dtype == DType::Float32 || dtype == DType::Float64 ? Tolerance{1e-4, 1e-5}
                                                                : default_tolerance(dtype);
    };
    const std::vector<Comparison> comparisons = compare_outputs(fusion, inputs, actual, expected, tolerance);
    for (size_t o = 0; o < actual.size(); ++o) {
      const Comparison& c = comparisons[o];
      EXPECT_TRUE(c.ok) << fusion.name() << " output " << o << ": " << c.message;
    }
  }
  EXPECT_GT(with_products, 0);
}

TEST(GpuMatmul, MisalignedInputsGetANarrowerPlan) {
  SKIP_WITHOUT_GPU();
  Fusion fusion = parse_fusion(matmul_cases(DType::BFloat16)[0]);
  auto exe = Executable::compile(fusion, cuda_options());
  std::vector<HostTensor> inputs = random_inputs(fusion, 3);
  std::vector<HostTensor> expected = interpret(fusion, inputs);
  for (size_t shift : {2, 4, 8, 16}) {
    std::vector<DeviceTensor> device_inputs;
    for (const HostTensor& x : inputs) device_inputs.push_back(to_device(x, shift));
    std::vector<DeviceTensor> outputs = exe->run_device(device_inputs, nullptr);
    check_cuda(driver().stream_synchronize(nullptr), "cuStreamSynchronize");
    Comparison c = compare_tensors(to_host(outputs[0]), expected[0], product_tolerance(DType::BFloat16, 256));
    EXPECT_TRUE(c.ok) << "inputs " << shift << " bytes past alignment: " << c.message;
  }
}

// The whole stack on the GPU: rmsnorm, projections, RoPE, attention, SwiGLU. Elementwise tolerances do
// not hold here for any two correct implementations (a residual stream of magnitude ~1000 cancels to
// small values, so one bf16 rounding of a large intermediate moves a small output by its ulp): outputs
// must agree within two bf16 ulps of the output's largest magnitude.
TEST(GpuMatmul, TransformerStack) {
  SKIP_WITHOUT_GPU();
  for (int64_t layers : {int64_t{1}, int64_t{2}}) {
    TransformerConfig config;
    config.layers = layers;
    Fusion fusion = build_transformer_stack(config);
    auto exe = Executable::compile(fusion, cuda_options());
    int products = 0;
    for (const CompiledStep& step : exe->steps()) products += step.library;
    EXPECT_EQ(products, 7 * layers);
    std::vector<HostTensor> inputs = random_inputs(fusion, static_cast<uint64_t>(layers));
    HostTensor actual = exe->run(inputs)[0], expected = interpret(fusion, inputs)[0];
    double largest = 0;
    for (double v : expected.to_doubles()) largest = std::max(largest, std::abs(v));
    Comparison c = compare_tensors(actual, expected, Tolerance{1.6e-2, largest * 2.0 / 128});
    EXPECT_TRUE(c.ok) << layers << " layers: " << c.message;
  }
}

}  // namespace
}  // namespace seam
