// Row kernels (reductions): the layout the lowering picks, its errors, the host kernel it prints run
// directly against the interpreter, and the CUDA it prints compiled by NVRTC for sm_90.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "codegen/embedded_headers.h"
#include "codegen/kernel_printer.h"
#include "exec/executable.h"
#include "exec/host_compiler.h"
#include "exec/host_kernel_runner.h"
#include "interp/compare.h"
#include "interp/interpreter.h"
#include "ir/builder.h"
#include "lower/lower_rows.h"
#include "plan/row_plan.h"
#include "runtime/kernel_cache.h"
#include "runtime/nvrtc_compiler.h"
#include "support/error.h"
#include "testing/norm_backward.h"
#include "testing/nvrtc_request.h"
#include "testing/random_fusion.h"
#include "workloads/rope.h"

namespace seam {
namespace {

using enum DType;

Fusion reduction(OpKind op, DType dtype, const Shape& shape, std::vector<int64_t> axes,
                 bool keepdim = false) {
  Builder b("reduce");
  Value x = b.input(Type::tensor(dtype, shape), "x");
  return b.finish({b.reduce(op, x, std::move(axes), keepdim)});
}

kir::RowLaunch launch_of(const Fusion& fusion) {
  RowLowering lowered = plan_and_lower_rows(fusion, RowLoweringOptions{});
  EXPECT_TRUE(lowered.deferred.empty());
  EXPECT_FALSE(lowered.misaligned_reduction);
  EXPECT_TRUE(lowered.kernel.outputs.empty());
  return *lowered.kernel.rows;
}

TEST(RowKernel, InnerReductionsSpreadARowOverConsecutiveThreads) {
  // 64 rows of 4096 f32: vectors of 4; too few rows to fill the GPU, so a row takes 1024 threads.
  kir::RowLaunch long_rows = launch_of(reduction(OpKind::Sum, Float32, {64, 4096}, {1}));
  EXPECT_EQ(long_rows.rows, 64);
  EXPECT_EQ(long_rows.reduced, 4096);
  EXPECT_EQ(long_rows.vector, 4);
  EXPECT_EQ(long_rows.threads_per_row, 1024);
  EXPECT_TRUE(long_rows.lanes_contiguous);
  // Rows of one vector: a thread per row, a block of 256 rows.
  kir::RowLaunch short_rows = launch_of(reduction(OpKind::Max, BFloat16, {1000, 4}, {1}));
  EXPECT_EQ(short_rows.vector, 4);
  EXPECT_EQ(short_rows.threads_per_row, 1);
  EXPECT_EQ(short_rows.rows_per_block, 256);
}

TEST(RowKernel, OuterReductionsPutConsecutiveRowsOnConsecutiveThreads) {
  // The thunder GQA RoPE backward: a few copies per element, many rows: one thread per row.
  kir::RowLaunch copies = launch_of(reduction(OpKind::Sum, Float32, {2, 8, 4, 64, 128}, {2}, true));
  EXPECT_EQ(copies.threads_per_row, 1);
  EXPECT_EQ(copies.rows_per_block, 256);
  EXPECT_FALSE(copies.lanes_contiguous);
  // Few rows, long columns: more threads per row so that the rows spread over more blocks (f64: an f32
  // sum over leading axes runs as outer reductions instead, lower_rows.cpp's lone_outer_row_axes).
  kir::RowLaunch columns = launch_of(reduction(OpKind::Sum, Float64, {4096, 64}, {0}));
  EXPECT_EQ(columns.rows_per_block, 32);
  EXPECT_EQ(columns.threads_per_row, 8);
  EXPECT_FALSE(columns.lanes_contiguous);
}

TEST(RowKernel, BlockSizeOptionIsRoundedToAPowerOfTwo) {
  RowLoweringOptions options;
  options.row_block_size = 200;
  // Rows shorter than a block share it (a longer row takes a block of its own).
  RowLowering lowered = plan_and_lower_rows(reduction(OpKind::Sum, Float32, {64, 64}, {1}), options);
  EXPECT_EQ(lowered.kernel.rows->block_size(), 128);
}

TEST(RowKernel, RejectsFusionsWithoutOneReductionSignature) {
  Builder b("two_signatures");
  Value x = b.input(Type::tensor(Float32, {4, 6}), "x");
  Value w = b.input(Type::tensor(Float32, {6, 4}), "w");
  Fusion two = b.finish({b.sum(w, {0}), b.sum(x, {1})});
  try {
    plan_and_lower_rows(two, RowLoweringOptions{});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("one shape and one set of axes"), std::string::npos) << e.what();
  }
  // A sum over the rows of the same shape is an outer reduction of the kernel (lower/outer_reductions.h).
  Builder c("both_axes");
  Value z = c.input(Type::tensor(Float32, {4, 6}), "z");
  RowLowering both = plan_and_lower_rows(c.finish({c.sum(z, {0}), c.sum(z, {1})}), RowLoweringOptions{});
  EXPECT_EQ(both.kernel.rows->outer.size(), 1u);
  EXPECT_TRUE(both.deferred.empty());
  Builder p("pointwise");
  Value y = p.input(Type::tensor(Float32, {4}), "y");
  EXPECT_THROW(plan_and_lower_rows(p.finish({p.neg(y)}), RowLoweringOptions{}), Error);
}

TEST(RowKernel, OutputsOfOtherShapesAreChunkProgramsOfTheSameKernel) {
  Builder b("mixed");
  Value x = b.input(Type::tensor(Float32, {4, 6}), "x");
  Value z = b.input(Type::tensor(Float32, {3, 2}), "z");
  RowLowering lowered =
      plan_and_lower_rows(b.finish({b.neg(z), b.sum(x, {1}), b.neg(x)}), RowLoweringOptions{});
  EXPECT_TRUE(lowered.deferred.empty());
  ASSERT_EQ(lowered.kernel.outputs.size(), 1u);
  EXPECT_EQ(lowered.kernel.outputs[0].param, 2);  // after the two inputs: output 0
  EXPECT_EQ(lowered.kernel.outputs[0].lanes, 2);  // vectorized like a pointwise kernel
  EXPECT_EQ(lowered.kernel.total_chunks(), 4 + 3);
}

// A plan for less aligned inputs (LaunchParams::max_vector_bytes) narrows the chunk programs of a row
// kernel too: they read the same inputs as a pointwise kernel would.
TEST(RowKernel, ChunkProgramsFollowTheAlignmentClass) {
  Builder b("mixed");
  Value x = b.input(Type::tensor(BFloat16, {4, 6}), "x");
  Value z = b.input(Type::tensor(BFloat16, {3, 16}), "z");
  Fusion fusion = b.finish({b.neg(z), b.sum(x, {1})});
  RowLoweringOptions options;
  EXPECT_EQ(plan_and_lower_rows(fusion, options).kernel.outputs.at(0).lanes, 8);
  options.max_vector_bytes = 4;
  EXPECT_EQ(plan_and_lower_rows(fusion, options).kernel.outputs.at(0).lanes, 2);
}

// The printed host kernel run directly: the entry walks every row with one thread.
TEST(RowKernel, HostKernelMatchesInterpreter) {
  Builder b("layer_norm");
  Value x = b.input(Type::tensor(Float32, {3, 10}), "x");
  Value mean = b.div(b.sum(x, {1}, true), b.constant(Number::of_float(10.0), Float32));
  Value centered = b.sub(x, b.expand(mean, {3, 10}));
  Value var = b.div(b.sum(b.mul(centered, centered), {1}, true), b.constant(Number::of_float(10.0), Float32));
  Fusion fusion = b.finish({b.mul(centered, b.expand(b.unary(OpKind::Rsqrt, var), {3, 10})), mean});
  RowLoweringOptions options;
  options.kernel_name = "layer_norm";
  RowLowering lowered = plan_and_lower_rows(fusion, options);
  ASSERT_TRUE(lowered.deferred.empty());
  auto module = compile_host_kernels({print_host_kernel(lowered.kernel)});
  std::vector<HostTensor> inputs = random_inputs(fusion, 4);
  std::vector<Type> types;
  for (const FusionOutput& o : fusion.outputs()) types.push_back(fusion.type(o.value));
  std::vector<HostTensor> actual = run_host_kernel(*module, lowered.kernel, inputs, types);
  std::vector<HostTensor> expected = interpret(fusion, inputs);
  for (size_t o = 0; o < actual.size(); ++o) {
    Comparison c = compare_tensors(actual[o], expected[o], Tolerance{1e-5, 1e-5});
    EXPECT_TRUE(c.ok) << "output " << o << ": " << c.message;
  }
}

CompileRequest request_for(const std::vector<kir::Kernel>& kernels) {
  CompileRequest request = testing_nvrtc::sm90_request();
  for (const kir::Kernel& k : kernels) testing_nvrtc::add_kernel(request, k);
  return request;
}

void add_steps(const Fusion& fusion, std::vector<kir::Kernel>& kernels, LaunchParams launch = {}) {
  ExecutableOptions options;
  options.launch = launch;
  for (const CompiledStep& step :
       plan_fusion(segment_fusion(fusion, options.segment), PlanOptions{options.launch, {}}).steps) {
    kernels.push_back(step.kernel);
    kernels.back().name = "kernel_" + std::to_string(kernels.size());
  }
}

// Every layout (threads per row 1, < 32, 32, > 32, contiguous or not), accumulator and op, softmax,
// the RoPE backward and random fusions with reductions.
TEST(RowKernel, CudaKernelsCompileForSm90) {
  if (!nvrtc_available()) GTEST_SKIP() << "built without NVRTC";
  std::vector<kir::Kernel> kernels;
  auto add = [&](const Fusion& fusion) {
    RowLoweringOptions options;
    options.kernel_name = "row_" + std::to_string(kernels.size());
    kernels.push_back(plan_and_lower_rows(fusion, options).kernel);
  };
  for (OpKind op : {OpKind::Sum, OpKind::Max, OpKind::Min})
    for (DType dtype : {BFloat16, Float32, Float64, Int32, Bool}) {
      add(reduction(op, dtype, {64, 4096}, {1}));
      add(reduction(op, dtype, {1000, 8}, {1}, true));
      add(reduction(op, dtype, {4096, 64}, {0}));
      add(reduction(op, dtype, {8, 4, 64}, {1}));
    }
  std::set<int> threads_per_row;
  for (const kir::Kernel& k : kernels)
    threads_per_row.insert(k.rows->threads_per_row * (k.rows->lanes_contiguous ? 1 : -1));
  EXPECT_GE(threads_per_row.size(), 4u);

  Builder b("softmax");
  Value x = b.input(Type::tensor(BFloat16, {4, 1024}), "x");
  Value xf = b.cast(x, Float32);
  Value e = b.exp(b.sub(xf, b.expand(b.reduce(OpKind::Max, xf, {1}, true), {4, 1024})));
  add_steps(b.finish({b.cast(b.div(e, b.expand(b.sum(e, {1}, true), {4, 1024})), BFloat16)}), kernels);
  // Online max and sum pairs (softmax, log-sum-exp): f32 pairs in one exchange over every layout
  // (several rows per block, several warps, a cluster, lanes strided), persistent and streamed;
  // f64 pairs the old way.
  for (DType dtype : {Float32, Float64})
    for (const auto& [shape, axis] : std::vector<std::pair<Shape, int64_t>>{
             {{64, 100}, 1}, {{16, 2048}, 1}, {{2, 131072}, 1}, {{512, 64}, 0}})
      for (bool persistent : {true, false}) {
        Builder sb("online");
        Value v = sb.input(Type::tensor(dtype, shape), "x");
        Value m = sb.expand(sb.reduce(OpKind::Max, v, {axis}, true), shape);
        Value s = sb.sum(sb.exp(sb.sub(v, m)), {axis}, true);
        Fusion fusion =
            sb.finish({sb.add(sb.unary(OpKind::Log, s), sb.reduce(OpKind::Max, v, {axis}, true))});
        RowLoweringOptions options;
        options.kernel_name = "online_" + std::to_string(kernels.size());
        options.row_persistent = persistent;
        kernels.push_back(plan_and_lower_rows(fusion, options).kernel);
      }
  // Long streamed rows: f32 sums and online pairs in chunks (kir::Stmt::RowLoop::chunk), an integer sum
  // beside an f32 one in the same chunked loop, an integer sum alone in one loop.
  auto chunked = [](const kir::Kernel& k) {
    return std::any_of(k.rows->body.begin(), k.rows->body.end(),
                       [](const kir::Stmt& s) { return s.kind == kir::Stmt::Kind::RowLoop && s.chunk > 0; });
  };
  for (DType dtype : {Float32, BFloat16, Int32}) {
    Builder lb("long_row");
    Value x = lb.input(Type::tensor(dtype, {2, 65536}), "x");
    std::vector<Value> outs = {lb.sum(x, {1})};
    if (dtype == Int32) outs.push_back(lb.sum(lb.cast(x, Float32), {1}));
    RowLoweringOptions options;
    options.kernel_name = "long_row_" + std::to_string(kernels.size());
    options.row_persistent = false;
    kernels.push_back(plan_and_lower_rows(lb.finish(outs), options).kernel);
    EXPECT_TRUE(chunked(kernels.back())) << dtype_name(dtype);
  }
  {
    RowLoweringOptions options;
    options.kernel_name = "long_int_row";
    options.row_persistent = false;
    EXPECT_FALSE(
        chunked(plan_and_lower_rows(reduction(OpKind::Sum, Int64, {2, 65536}, {1}), options).kernel));
  }
  // Normalization backwards with their next rows loaded ahead into registers (row_load_ahead: a
  // second set of cache arrays, per-row scalars).
  LaunchParams ahead;
  ahead.row_load_ahead = true;
  const size_t before_norms = kernels.size();
  for (DType dtype : {BFloat16, Float32}) {
    add_steps(rmsnorm_backward(4096, 2048, dtype), kernels, ahead);  // M = N would split
    add_steps(layernorm_backward(4096, 2048, dtype), kernels, ahead);
  }
  EXPECT_TRUE(std::any_of(kernels.begin() + static_cast<std::ptrdiff_t>(before_norms), kernels.end(),
                          [](const kir::Kernel& k) { return k.rows && k.rows->load_ahead; }));
  RopeOptions rope;
  rope.seq_len = 8;
  rope.direction = Direction::Backward;
  add_steps(build_rope(rope_config("W3"), rope), kernels);
  RandomFusionOptions random;
  random.opaque = false;
  for (uint64_t seed = 0; seed < 30; ++seed) add_steps(random_fusion(seed, random), kernels);

  CompiledKernel compiled = compile_cuda_cached(request_for(kernels), BinaryCache::shared());
  EXPECT_TRUE(compiled.is_cubin);
  EXPECT_EQ(compiled.symbols.size(), kernels.size());
}

}  // namespace
}  // namespace seam
