// How the body printer writes values: arrays only where memory is touched as a whole (a wide or guarded
// load fills the value, a wide store reads it), one scalar per lane everywhere else, float arithmetic as
// C++ operators and integer arithmetic through the wrapping helpers.
#include "codegen/kernel_printer.h"

#include <gtest/gtest.h>

namespace seam {
namespace {

kir::Var var(std::string name, DType dtype, int lanes) { return kir::Var{std::move(name), dtype, lanes}; }

kir::Stmt define(kir::Var v, kir::Expr e) {
  kir::Stmt s{kir::Stmt::Kind::Define};
  s.var = std::move(v);
  s.expr = std::move(e);
  return s;
}

kir::Expr call(OpKind op, std::vector<kir::Var> args) {
  kir::Expr e{kir::Expr::Kind::Call};
  e.op = op;
  e.args = std::move(args);
  return e;
}

// out[4 * chunk + l] = bf16(float(in[4 * chunk + l]) * float(in[...])), and an integer product of a
// one-lane load with itself, stored element-wise.
kir::Kernel small_kernel() {
  kir::Kernel kernel;
  kernel.name = "k";
  kernel.params = {{kir::Param::Kind::Input, "in0", DType::BFloat16, 0},
                   {kir::Param::Kind::Input, "in1", DType::Int32, 1},
                   {kir::Param::Kind::Output, "out0", DType::BFloat16, 0},
                   {kir::Param::Kind::Output, "out1", DType::Int32, 1}};
  kir::OutputProgram wide{2, 8, 4, 2, "chunk0", {}, false, {}};
  kir::Expr load{kir::Expr::Kind::Load};
  load.param = 0;
  load.offset = kir::mul(kir::variable("chunk0"), 4);
  wide.body.push_back(define(var("v0", DType::BFloat16, 4), load));
  kir::Expr widen{kir::Expr::Kind::Convert};
  widen.args = {var("v0", DType::BFloat16, 4)};
  wide.body.push_back(define(var("v1", DType::Float32, 4), widen));
  wide.body.push_back(
      define(var("v2", DType::Float32, 4),
             call(OpKind::Mul, {var("v1", DType::Float32, 4), var("v1", DType::Float32, 4)})));
  wide.body.push_back(
      define(var("v3", DType::Float32, 4), call(OpKind::Neg, {var("v2", DType::Float32, 4)})));
  kir::Expr narrow{kir::Expr::Kind::Convert};
  narrow.args = {var("v3", DType::Float32, 4)};
  wide.body.push_back(define(var("v4", DType::BFloat16, 4), narrow));
  kir::Stmt store{kir::Stmt::Kind::Store};
  store.param = 2;
  store.index = kir::mul(kir::variable("chunk0"), 4);
  store.source = var("v4", DType::BFloat16, 4);
  wide.body.push_back(store);

  kir::OutputProgram scalar{3, 2, 1, 2, "chunk1", {}, false, {}};
  kir::Expr one{kir::Expr::Kind::Load};
  one.param = 1;
  one.offset = kir::variable("chunk1");
  scalar.body.push_back(define(var("v5", DType::Int32, 1), one));
  scalar.body.push_back(define(var("v6", DType::Int32, 1),
                               call(OpKind::Mul, {var("v5", DType::Int32, 1), var("v5", DType::Int32, 1)})));
  kir::Stmt element{kir::Stmt::Kind::Store};
  element.param = 3;
  element.index = kir::variable("chunk1");
  element.source = var("v6", DType::Int32, 1);
  scalar.body.push_back(element);
  kernel.outputs = {wide, scalar};
  return kernel;
}

bool contains(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

TEST(KernelPrinter, ArraysOnlyWhereMemoryIsAccessedWhole) {
  const std::string text = print_cuda_kernel(small_kernel(), CudaLaunchShape{});
  EXPECT_TRUE(contains(text, "alignas(16) seam_bf16 v0[4];")) << text;  // a wide load fills it
  EXPECT_TRUE(contains(text, "seam_load<4>(in0 + (chunk0 * 4), v0);")) << text;
  EXPECT_TRUE(contains(text, "float v1_3 = seam_convert<float>(v0[3]);")) << text;
  EXPECT_TRUE(contains(text, "alignas(16) seam_bf16 v4[4];")) << text;  // a wide store reads it
  EXPECT_TRUE(contains(text, "v4[2] = seam_convert<seam_bf16>(v3_2);")) << text;
  EXPECT_TRUE(contains(text, "seam_store<4>(out0 + (chunk0 * 4), v4);")) << text;
  EXPECT_FALSE(contains(text, "v1[")) << text;
  EXPECT_FALSE(contains(text, "v2[")) << text;
  // A one-lane load is a scalar too; so is what an element store reads.
  EXPECT_TRUE(contains(text, "int v5_0 = *(in1 + chunk1);")) << text;
  EXPECT_TRUE(contains(text, "out1[chunk1] = v6_0;")) << text;
}

TEST(KernelPrinter, FloatArithmeticAsOperatorsIntegersThroughWrappingHelpers) {
  const std::string text = print_cuda_kernel(small_kernel(), CudaLaunchShape{});
  EXPECT_TRUE(contains(text, "float v2_0 = (v1_0 * v1_0);")) << text;
  EXPECT_TRUE(contains(text, "float v3_1 = (-v2_1);")) << text;
  EXPECT_TRUE(contains(text, "int v6_0 = seam_mul(v5_0, v5_0);")) << text;
  EXPECT_EQ(print_host_kernel(small_kernel()).find("v2["), std::string::npos);  // one body printer
}

TEST(KernelPrinter, LaunchBoundsCarryTheMinimumBlocksPerMultiprocessorWhenAsked) {
  EXPECT_TRUE(
      contains(print_cuda_kernel(small_kernel(), CudaLaunchShape{128, 0}), "__launch_bounds__(128) k("));
  EXPECT_TRUE(
      contains(print_cuda_kernel(small_kernel(), CudaLaunchShape{256, 10}), "__launch_bounds__(256, 10) k("));
}

}  // namespace
}  // namespace seam
