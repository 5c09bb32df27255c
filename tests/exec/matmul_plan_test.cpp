// Matrix products as column-major GEMM calls (plan/matmul_plan.h): the library's terms for row-major,
// transposed, broadcast and strided operands, batch folding and merging, and the layouts with no GEMM
// form. No GPU: the GPU suite runs the same shapes through cuBLASLt against the interpreter.
#include "plan/matmul_plan.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "exec/executable.h"
#include "interp/compare.h"
#include "interp/interpreter.h"
#include "passes/pipeline.h"
#include "support/error.h"
#include "testing/random_fusion.h"
#include "testing/random_matmul.h"
#include "text/parser.h"
#include "text/printer.h"

namespace seam {
namespace {

MatmulPlan plan_of(const std::string& text) {
  KernelFusion kernel{parse_fusion(text), {}, {}, {}};
  return plan_matmul(kernel);
}

TEST(MatmulPlan, LinearIsOneGemmWithTheWeightTransposed) {
  MatmulPlan p = plan_of(R"(fusion f {
    %0 = input {name="x"} : bf16[2,64,256]
    %1 = input {name="w"} : bf16[384,256]
    %2 = linear %0, %1 : bf16[2,64,384]
    return y=%2
  })");
  EXPECT_EQ(p.op, OpKind::Linear);
  // D^T[384 x 128] = W[384 x 256] (stored 256 x 384 column-major: op T) X^T[256 x 128] (op N).
  EXPECT_EQ(p.m, 384);
  EXPECT_EQ(p.n, 128);  // the batch of 2 folds into the rows
  EXPECT_EQ(p.k, 256);
  EXPECT_TRUE(p.transpose_a);
  EXPECT_FALSE(p.transpose_b);
  EXPECT_EQ(p.lda, 256);
  EXPECT_EQ(p.ldb, 256);
  EXPECT_EQ(p.ldd, 384);
  EXPECT_EQ(p.batch, 1);
  EXPECT_EQ(p.input_a, 1u);
  EXPECT_EQ(p.input_b, 0u);
  ASSERT_EQ(p.calls.size(), 1u);
  EXPECT_FALSE(p.input_bias.has_value());
  EXPECT_EQ(p.output_elements, 2 * 64 * 384);
}

TEST(MatmulPlan, LinearWithBiasAndAVector) {
  MatmulPlan p = plan_of(R"(fusion f {
    %0 = input {name="x"} : f32[16]
    %1 = input {name="w"} : f32[8,16]
    %2 = input {name="b"} : f32[8]
    %3 = linear %0, %1, %2 : f32[8]
    return y=%3
  })");
  EXPECT_EQ(p.m, 8);
  EXPECT_EQ(p.n, 1);
  EXPECT_EQ(p.k, 16);
  ASSERT_TRUE(p.input_bias.has_value());
  EXPECT_EQ(*p.input_bias, 2u);
  EXPECT_EQ(p.bias_offset, 0);
}

TEST(MatmulPlan, BatchedMatmulIsOneStridedBatch) {
  MatmulPlan p = plan_of(R"(fusion f {
    %0 = input {name="a"} : f16[2,3,33,17]
    %1 = input {name="b"} : f16[2,3,17,9]
    %2 = matmul %0, %1 : f16[2,3,33,9]
    return y=%2
  })");
  EXPECT_EQ(p.m, 9);
  EXPECT_EQ(p.n, 33);
  EXPECT_EQ(p.k, 17);
  EXPECT_FALSE(p.transpose_a);
  EXPECT_FALSE(p.transpose_b);
  EXPECT_EQ(p.lda, 9);
  EXPECT_EQ(p.ldb, 17);
  EXPECT_EQ(p.ldd, 9);
  EXPECT_EQ(p.batch, 6);  // 2 x 3 merged
  EXPECT_EQ(p.stride_a, 17 * 9);
  EXPECT_EQ(p.stride_b, 33 * 17);
  EXPECT_EQ(p.stride_d, 33 * 9);
  ASSERT_EQ(p.calls.size(), 1u);
  // Odd strides: f16 matrices every 2 * 153 bytes are 2-byte aligned at best.
  EXPECT_EQ(p.offset_alignment_a, 2);
  EXPECT_EQ(p.offset_alignment_d, 2);
}

TEST(MatmulPlan, ARightOperandSharedByTheBatchFoldsIntoTheRows) {
  MatmulPlan p = plan_of(R"(fusion f {
    %0 = input {name="a"} : f32[4,5,8,16]
    %1 = input {name="b"} : f32[16,32]
    %2 = matmul %0, %1 : f32[4,5,8,32]
    return y=%2
  })");
  EXPECT_EQ(p.n, 4 * 5 * 8);
  EXPECT_EQ(p.batch, 1);
  EXPECT_EQ(p.calls.size(), 1u);
}

TEST(MatmulPlan, ALeftOperandSharedByTheBatchIsAStrideOfZero) {
  MatmulPlan p = plan_of(R"(fusion f {
    %0 = input {name="a"} : f32[8,16]
    %1 = input {name="b"} : f32[3,16,32]
    %2 = matmul %0, %1 : f32[3,8,32]
    return y=%2
  })");
  EXPECT_EQ(p.batch, 3);
  EXPECT_EQ(p.stride_a, 16 * 32);
  EXPECT_EQ(p.stride_b, 0);
  EXPECT_EQ(p.stride_d, 8 * 32);
}

TEST(MatmulPlan, BatchAxesThatCannotMergeBecomeSeveralCalls) {
  // a broadcasts over axis 1, b over axis 0: the two batch axes have no common stride.
  MatmulPlan p = plan_of(R"(fusion f {
    %0 = input {name="a"} : f32[2,1,8,16]
    %1 = input {name="b"} : f32[1,3,16,4]
    %2 = matmul %0, %1 : f32[2,3,8,4]
    return y=%2
  })");
  EXPECT_EQ(p.batch, 3);
  EXPECT_EQ(p.stride_a, 16 * 4);
  EXPECT_EQ(p.stride_b, 0);
  ASSERT_EQ(p.calls.size(), 2u);
  EXPECT_EQ(p.calls[1].a, 0);
  EXPECT_EQ(p.calls[1].b, 8 * 16);
  EXPECT_EQ(p.calls[1].d, 3 * 8 * 4);
}

TEST(MatmulPlan, TransposedInputsBecomeTransposeFlags) {
  // x @ w with w stored as [N, K] (strides [1, 32]): a transposed view, read without a copy.
  MatmulPlan p = plan_of(R"(fusion f {
    %0 = input {name="x", strides=[1,8]} : bf16[8,16]
    %1 = input {name="w", strides=[1,16]} : bf16[16,32]
    %2 = matmul %0, %1 : bf16[8,32]
    return y=%2
  })");
  EXPECT_TRUE(p.transpose_a);  // b's rows are contiguous
  EXPECT_EQ(p.lda, 16);
  EXPECT_TRUE(p.transpose_b);  // a's rows are contiguous
  EXPECT_EQ(p.ldb, 8);
}

TEST(MatmulPlan, ViewsOfInputsAreReadInPlace) {
  MatmulPlan p = plan_of(R"(fusion f {
    %0 = input {name="q"} : f32[2,8,4]
    %1 = input {name="k"} : f32[2,8,4]
    %2 = permute %1 {perm=[0,2,1]} : f32[2,4,8]
    %3 = matmul %0, %2 : f32[2,8,8]
    return y=%3
  })");
  EXPECT_EQ(p.input_a, 1u);
  EXPECT_TRUE(p.transpose_a);
  EXPECT_EQ(p.lda, 4);
  EXPECT_EQ(p.batch, 2);
  EXPECT_EQ(p.stride_a, 32);
}

TEST(MatmulPlan, EmptyAndZeroLengthProducts) {
  MatmulPlan empty = plan_of(R"(fusion f {
    %0 = input {name="a"} : f32[0,16]
    %1 = input {name="b"} : f32[16,4]
    %2 = matmul %0, %1 : f32[0,4]
    return y=%2
  })");
  EXPECT_TRUE(empty.calls.empty());
  EXPECT_FALSE(empty.zero_fill);
  MatmulPlan zero = plan_of(R"(fusion f {
    %0 = input {name="a"} : f32[3,0]
    %1 = input {name="b"} : f32[0,4]
    %2 = matmul %0, %1 : f32[3,4]
    return y=%2
  })");
  EXPECT_TRUE(zero.calls.empty());
  EXPECT_TRUE(zero.zero_fill);
  EXPECT_EQ(zero.output_elements, 12);
  MatmulPlan bias = plan_of(R"(fusion f {
    %0 = input {name="x"} : f32[2,3,0]
    %1 = input {name="w"} : f32[4,0]
    %2 = input {name="b"} : f32[4]
    %3 = linear %0, %1, %2 : f32[2,3,4]
    return y=%3
  })");
  EXPECT_TRUE(bias.calls.empty());
  EXPECT_TRUE(bias.bias_fill);
  EXPECT_FALSE(bias.zero_fill);
  EXPECT_EQ(bias.m, 4);
}

TEST(MatmulPlan, ABroadcastMatrixAxisHasNoGemmForm) {
  try {
    plan_of(R"(fusion f {
      %0 = input {name="a"} : f32[1,16]
      %1 = expand %0 {shape=[8,16]} : f32[8,16]
      %2 = input {name="b"} : f32[16,4]
      %3 = matmul %1, %2 : f32[8,4]
      return y=%3
    })");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("left operand f32[8,16] has no GEMM layout"), std::string::npos)
        << e.what();
  }
}

TEST(MatmulPlan, AStridedBiasIsRejected) {
  try {
    plan_of(R"(fusion f {
      %0 = input {name="x"} : f32[4,16]
      %1 = input {name="w"} : f32[8,16]
      %2 = input {name="b"} : f32[16]
      %3 = slice %2 {starts=[0], stops=[16], steps=[2]} : f32[8]
      %4 = linear %0, %1, %3 : f32[4,8]
      return y=%4
    })");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("bias f32[8] must be contiguous"), std::string::npos) << e.what();
  }
}

// The plan executed the way a column-major GEMM library executes it, on the inputs' raw f64 storage:
// what cuBLASLt computes from the plan, up to rounding. Every output element must be written once.
HostTensor run_plan(const MatmulPlan& p, const std::vector<HostTensor>& inputs, const Shape& out_shape) {
  auto raw = [&](size_t input) {
    std::vector<double> values(inputs[input].storage().size() / sizeof(double));
    std::memcpy(values.data(), inputs[input].storage().data(), values.size() * sizeof(double));
    return values;
  };
  HostTensor out = HostTensor::zeros(DType::Float64, out_shape);
  std::vector<int> written(static_cast<size_t>(p.output_elements), p.zero_fill ? 1 : 0);
  if (p.bias_fill) {
    const std::vector<double> bias = raw(*p.input_bias);
    for (int64_t e = 0; e < p.output_elements; ++e)
      out.set_double(e, bias.at(static_cast<size_t>(p.bias_offset + e % p.m)));
    return out;
  }
  if (p.calls.empty()) {
    EXPECT_TRUE(p.zero_fill || p.output_elements == 0);
    return out;
  }
  const std::vector<double> a = raw(p.input_a), b = raw(p.input_b);
  const std::vector<double> bias = p.input_bias ? raw(*p.input_bias) : std::vector<double>{};
  std::vector<double> d(static_cast<size_t>(p.output_elements), 0.0);
  for (const GemmCall& call : p.calls)
    for (int64_t i = 0; i < p.batch; ++i)
      for (int64_t col = 0; col < p.n; ++col)
        for (int64_t row = 0; row < p.m; ++row) {
          double acc = 0;
          for (int64_t k = 0; k < p.k; ++k) {
            const int64_t ai = call.a + i * p.stride_a + (p.transpose_a ? k + row * p.lda : row + k * p.lda);
            const int64_t bi = call.b + i * p.stride_b + (p.transpose_b ? col + k * p.ldb : k + col * p.ldb);
            acc += a.at(static_cast<size_t>(ai)) * b.at(static_cast<size_t>(bi));
          }
          if (p.input_bias) acc += bias.at(static_cast<size_t>(p.bias_offset + row));
          const size_t di = static_cast<size_t>(call.d + i * p.stride_d + row + col * p.ldd);
          d.at(di) = acc;
          ++written.at(di);
        }
  for (size_t e = 0; e < written.size(); ++e) EXPECT_EQ(written[e], 1) << "output element " << e;
  for (int64_t e = 0; e < p.output_elements; ++e) out.set_double(e, d[static_cast<size_t>(e)]);
  return out;
}

TEST(MatmulPlan, RandomLayoutsComputeWhatTheInterpreterDoes) {
  std::mt19937 rng(7);
  for (int c = 0; c < 300; ++c) {
    const std::string text = random_matmul_text(rng, DType::Float64);
    SCOPED_TRACE(text);
    Fusion fusion = parse_fusion(text);
    KernelFusion kernel{fusion, {}, {}, {}};
    const MatmulPlan plan = plan_matmul(kernel);
    std::vector<HostTensor> inputs = random_inputs(fusion, static_cast<uint64_t>(c));
    HostTensor expected = interpret(fusion, inputs)[0];
    HostTensor actual = run_plan(plan, inputs, expected.shape());
    Comparison cmp = compare_tensors(actual, expected, Tolerance{1e-12, 1e-12});
    EXPECT_TRUE(cmp.ok) << cmp.message;
  }
}

// Every matrix product step that lowering makes of random fusions has a GEMM plan (views it cannot read
// in place are copied first): the GPU backend runs what the host backend runs.
TEST(MatmulPlan, EveryStepOfRandomFusionsHasAPlan) {
  RandomFusionOptions options;
  options.reductions = true;
  int products = 0;
  int copies = 0;
  for (uint64_t seed = 1; seed <= 400; ++seed) {
    Fusion fusion = run_pipeline(random_fusion(seed, options), PipelineOptions{});
    const std::vector<CompiledStep> steps =
        plan_fusion(segment_fusion(fusion, SegmentOptions{}), PlanOptions{}).steps;
    for (size_t s = 0; s < steps.size(); ++s) {
      const CompiledStep& step = steps[s];
      if (!step.library) {
        copies += s + 1 < steps.size() && steps[s + 1].library && steps[s + 1].group == step.group;
        continue;
      }
      ++products;
      try {
        plan_matmul(step.kernel_fusion);
      } catch (const Error& e) {
        ADD_FAILURE() << e.what() << "\n" << print_fusion(step.kernel_fusion.fusion);
      }
    }
  }
  EXPECT_GT(products, 50);
  EXPECT_GT(copies, 0);  // broadcast operands were written out first
}

// The GPU suite's hand-picked products (tests/testing/random_matmul.h) on the host backend: every one
// lowers to planned library steps (copies first where needed) and computes what the interpreter does.
TEST(MatmulPlan, HandPickedCasesRunOnTheHostBackend) {
  for (DType dtype : {DType::BFloat16, DType::Float32}) {
    for (const std::string& text : matmul_cases(dtype)) {
      SCOPED_TRACE(text);
      Fusion fusion = parse_fusion(text);
      ExecutableOptions options;
      options.poison_outputs = true;
      auto exe = Executable::compile(fusion, options);
      for (const CompiledStep& step : exe->steps()) {
        if (step.library) {
          EXPECT_NO_THROW(plan_matmul(step.kernel_fusion));
        }
      }
      std::vector<HostTensor> inputs = random_inputs(fusion, 5);
      Comparison c =
          compare_tensors(exe->run(inputs)[0], interpret(fusion, inputs)[0], default_tolerance(dtype));
      EXPECT_TRUE(c.ok) << c.message;
    }
  }
}

}  // namespace
}  // namespace seam
