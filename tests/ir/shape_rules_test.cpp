// Every op's shape/dtype rule, and an error for each way to misuse it. Errors must be seam::Error whose
// message names the op and the problem.
#include <gtest/gtest.h>

#include <cmath>

#include "ir/builder.h"
#include "support/error.h"

namespace seam {
namespace {

using enum DType;

Type T(DType d, Shape s) { return Type::tensor(d, std::move(s)); }

// Runs `f` and expects a seam::Error whose message contains every fragment.
template <typename F>
void expect_error(F&& f, std::initializer_list<std::string> fragments) {
  try {
    f();
    ADD_FAILURE() << "expected seam::Error";
  } catch (const Error& e) {
    for (const std::string& fragment : fragments)
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos)
          << "message: " << e.what() << "\nmissing: " << fragment;
  }
}

class ShapeRules : public ::testing::Test {
 protected:
  Builder b;
  Value f32_23 = b.input(T(Float32, {2, 3}), "a");
  Value bf16_23 = b.input(T(BFloat16, {2, 3}), "b");
  Value i32_23 = b.input(T(Int32, {2, 3}), "c");
  Value bool_23 = b.input(T(Bool, {2, 3}), "d");
  Value f16_23 = b.input(T(Float16, {2, 3}), "e");
  std::string type(Value v) { return b.type(v).to_string(); }
};

TEST_F(ShapeRules, Leaves) {
  EXPECT_EQ(type(b.constant(Number::of_float(2.5), Float32)), "f32");
  EXPECT_EQ(type(b.full({4, 0}, Int64, Number::of_int(3))), "i64[4,0]");
  EXPECT_EQ(type(b.iota(5, Float32, Number::of_float(0.5), Number::of_int(2))), "f32[5]");
  EXPECT_EQ(type(b.input(Type::scalar(Float64), "s")), "f64");
  EXPECT_EQ(type(b.input(T(Float32, {2, 3}), "strided", {1, 2})), "f32[2,3]");
  expect_error([&] { b.constant(Number::of_float(2.5), Int32); }, {"const", "2.5", "does not fit", "i32"});
  expect_error([&] { b.full({-1, 2}, Float32, Number::of_int(0)); }, {"full", "negative extent"});
  expect_error([&] { b.input(T(Float32, {2, -3})); }, {"input", "negative extent"});
  expect_error([&] { b.iota(3, Bool); }, {"iota", "bool"});
  expect_error([&] { b.iota(3, Int32, Number::of_int(0), Number::of_int(0)); }, {"step must not be zero"});
  expect_error([&] { b.input(T(Float32, {2, 3}), "x", {1}); }, {"strides", "1 entries for rank 2"});
  expect_error([&] { b.input(T(Float32, {2, 3}), "x", {-1, 1}); }, {"non-negative"});
  expect_error(
      [&] {
        b.add(OpKind::Full, {}, {{"value", Number::of_int(1)}}, Type::scalar(Float32));
      },
      {"full must have a tensor type"});
  expect_error([&] { b.add(OpKind::Const, {}, {}, Type::scalar(Float32)); }, {"needs attribute 'value'"});
  expect_error([&] { b.add(OpKind::Input, {}); }, {"needs a declared result type"});
}

TEST_F(ShapeRules, UnaryDTypeRules) {
  EXPECT_EQ(type(b.neg(bf16_23)), "bf16[2,3]");
  EXPECT_EQ(type(b.neg(i32_23)), "i32[2,3]");
  EXPECT_EQ(type(b.exp(i32_23)), "f32[2,3]");
  EXPECT_EQ(type(b.exp(f16_23)), "f16[2,3]");
  EXPECT_EQ(type(b.unary(OpKind::Sqrt, bool_23)), "f32[2,3]");
  EXPECT_EQ(type(b.unary(OpKind::LogicalNot, f32_23)), "bool[2,3]");
  EXPECT_EQ(type(b.unary(OpKind::Abs, b.constant(Number::of_int(-3), Int64))), "i64");
  expect_error([&] { b.neg(bool_23); }, {"neg", "does not accept bool"});
  expect_error(
      [&] {
        b.neg(b.input(T(Float32, {2})));
        b.add(OpKind::Neg, {f32_23, f32_23});
      },
      {"neg", "takes 1 operand(s), got 2"});
}

TEST_F(ShapeRules, BinaryPromotion) {
  EXPECT_EQ(type(b.add(bf16_23, f32_23)), "f32[2,3]");
  EXPECT_EQ(type(b.add(bf16_23, f16_23)), "f32[2,3]");
  EXPECT_EQ(type(b.add(i32_23, bf16_23)), "bf16[2,3]");
  EXPECT_EQ(type(b.add(i32_23, bool_23)), "i32[2,3]");
  EXPECT_EQ(type(b.mul(bf16_23, b.constant(Number::of_float(0.5), Float64))), "bf16[2,3]");
  EXPECT_EQ(type(b.mul(i32_23, b.constant(Number::of_float(0.5), Float64))), "f32[2,3]");
  EXPECT_EQ(type(b.mul(i32_23, b.constant(Number::of_int(2), Int64))), "i32[2,3]");
  EXPECT_EQ(type(b.div(i32_23, i32_23)), "f32[2,3]");
  EXPECT_EQ(type(b.div(f16_23, i32_23)), "f16[2,3]");
  EXPECT_EQ(type(b.binary(OpKind::Lt, i32_23, f32_23)), "bool[2,3]");
  EXPECT_EQ(type(b.binary(OpKind::LogicalAnd, i32_23, f32_23)), "bool[2,3]");
  EXPECT_EQ(type(b.binary(OpKind::Pow, i32_23, i32_23)), "i32[2,3]");
  EXPECT_EQ(type(b.add(b.constant(Number::of_int(1), Int32), b.constant(Number::of_int(1), Int64))), "i64");
  expect_error([&] { b.add(bool_23, bool_23); }, {"add", "does not accept bool"});
  Value other = b.input(T(Float32, {3, 2}));
  expect_error([&] { b.add(f32_23, other); }, {"add", "shapes differ", "f32[2,3]", "f32[3,2]", "broadcast"});
  Value rank3 = b.input(T(Float32, {1, 2, 3}));
  expect_error([&] { b.mul(f32_23, rank3); }, {"mul", "shapes differ"});
  expect_error([&] { b.add(f32_23, Value{999}); }, {"operand %999 is not defined"});
}

TEST_F(ShapeRules, Where) {
  EXPECT_EQ(type(b.where(bool_23, bf16_23, f32_23)), "f32[2,3]");
  EXPECT_EQ(type(b.where(bool_23, i32_23, b.constant(Number::of_float(0.0), Float64))), "f32[2,3]");
  expect_error([&] { b.where(f32_23, f32_23, f32_23); }, {"where", "condition must be bool", "f32"});
  expect_error([&] { b.add(OpKind::Where, {bool_23, f32_23}); }, {"where", "takes 3 operand(s), got 2"});
}

TEST_F(ShapeRules, Cast) {
  EXPECT_EQ(type(b.cast(f32_23, BFloat16)), "bf16[2,3]");
  EXPECT_EQ(type(b.cast(b.constant(Number::of_int(1), Int64), Float32)), "f32");
  expect_error([&] { b.add(OpKind::Cast, {f32_23}); }, {"cast", "needs attribute 'dtype'"});
  expect_error(
      [&] {
        b.add(OpKind::Cast, {f32_23}, {{"dtype", int64_t{3}}});
      },
      {"dtype", "must be of kind dtype"});
  expect_error(
      [&] {
        b.add(OpKind::Cast, {f32_23}, {{"dtype", Float16}, {"bogus", true}});
      },
      {"cast", "has no attribute 'bogus'"});
}

TEST_F(ShapeRules, Broadcast) {
  EXPECT_EQ(type(b.broadcast(f32_23, {0, 2})), "f32[1,2,1,3]");
  EXPECT_EQ(type(b.broadcast(f32_23, {-1})), "f32[2,3,1]");
  expect_error(
      [&] {
        b.add(OpKind::Broadcast, {f32_23}, {{"axes", std::vector<int64_t>{3}}});
      },
      {"broadcast", "axis 3 out of range for rank 3"});
  expect_error(
      [&] {
        b.add(OpKind::Broadcast, {f32_23}, {{"axes", std::vector<int64_t>{1, 0}}});
      },
      {"strictly increasing"});
  expect_error([&] { b.broadcast(b.constant(Number::of_int(1), Int64), {0}); }, {"needs a tensor operand"});
}

TEST_F(ShapeRules, Expand) {
  Value x = b.broadcast(f32_23, {0});
  EXPECT_EQ(type(b.expand(x, {4, 2, 3})), "f32[4,2,3]");
  EXPECT_EQ(type(b.expand(x, {0, -1, 3})), "f32[0,2,3]");
  expect_error([&] { b.expand(x, {4, 5, 3}); }, {"expand", "axis 1 of extent 2 cannot become 5"});
  expect_error(
      [&] {
        b.expand(b.broadcast(x, {0}), {-5, 4, 2, 3});
      },
      {"expand", "axis 0: the extent -5 is negative"});
  expect_error([&] { b.expand(x, {4, 2}); }, {"expand", "'shape' has 2 entries for rank 3"});
}

TEST_F(ShapeRules, Squeeze) {
  Value x = b.broadcast(f32_23, {0, 3});
  EXPECT_EQ(type(b.squeeze(x, {0, 3})), "f32[2,3]");
  EXPECT_EQ(type(b.squeeze(x, {-1})), "f32[1,2,3]");
  expect_error([&] { b.squeeze(x, {1}); }, {"squeeze", "axis 1 has extent 2, not 1"});
  expect_error([&] { b.squeeze(x, {7}); }, {"squeeze", "axis 7 out of range"});
}

TEST_F(ShapeRules, Reshape) {
  EXPECT_EQ(type(b.reshape(f32_23, {3, 2})), "f32[3,2]");
  EXPECT_EQ(type(b.reshape(f32_23, {-1})), "f32[6]");
  EXPECT_EQ(type(b.reshape(f32_23, {1, -1, 1})), "f32[1,6,1]");
  expect_error([&] { b.reshape(f32_23, {4, 2}); }, {"reshape", "cannot view f32[2,3] (6 elements) as [4,2]"});
  expect_error([&] { b.reshape(f32_23, {-1, -1}); }, {"at most one -1"});
  expect_error([&] { b.reshape(f32_23, {-1, 4}); }, {"cannot infer -1"});
  expect_error(
      [&] {
        b.add(OpKind::Reshape, {f32_23}, {{"shape", std::vector<int64_t>{-6}}});
      },
      {"negative extent"});
}

TEST_F(ShapeRules, Permute) {
  Value x = b.input(T(Float32, {2, 3, 4}));
  EXPECT_EQ(type(b.permute(x, {2, 0, 1})), "f32[4,2,3]");
  EXPECT_EQ(type(b.permute(x, {-1, 0, 1})), "f32[4,2,3]");
  expect_error([&] { b.permute(x, {0, 0, 1}); }, {"permute", "is not a permutation"});
  expect_error([&] { b.permute(x, {0, 1}); }, {"permute", "'perm' has 2 entries for rank 3"});
}

TEST_F(ShapeRules, Slice) {
  EXPECT_EQ(type(b.slice(f32_23, {0, 1}, {2, 3}, {1, 1})), "f32[2,2]");
  EXPECT_EQ(type(b.slice(f32_23, {0, 0}, {2, 3}, {2, 2})), "f32[1,2]");
  EXPECT_EQ(type(b.slice_axis(f32_23, -1, -2, 100)), "f32[2,2]");
  EXPECT_EQ(type(b.slice_axis(f32_23, 1, 2, 1)), "f32[2,0]");
  expect_error([&] { b.slice(f32_23, {0, 2}, {2, 4}, {1, 1}); }, {"slice", "axis 1", "stop 4, extent 3"});
  expect_error([&] { b.slice(f32_23, {0, 2}, {2, 1}, {1, 1}); }, {"slice", "start 2, stop 1"});
  expect_error([&] { b.slice(f32_23, {0, 0}, {2, 3}, {1, 0}); }, {"slice", "step must be >= 1"});
  expect_error([&] { b.slice(f32_23, {0}, {2}, {1}); }, {"'starts' has 1 entries for rank 2"});
}

TEST_F(ShapeRules, Pad) {
  EXPECT_EQ(type(b.pad(f32_23, {1, 0}, {2, 3}, Number::of_float(0.0))), "f32[5,6]");
  EXPECT_EQ(type(b.pad(f32_23, {-1, 0}, {0, -3}, Number::of_int(0))), "f32[1,0]");
  expect_error([&] { b.pad(f32_23, {-2, 0}, {-1, 0}, Number::of_int(0)); }, {"pad", "axis 0", "negative"});
  expect_error([&] { b.pad(i32_23, {0, 0}, {1, 1}, Number::of_float(0.5)); }, {"pad value 0.5 does not fit"});
  expect_error([&] { b.pad(f32_23, {0}, {0, 1}, Number::of_int(0)); }, {"'low' has 1 entries"});
}

TEST_F(ShapeRules, Cat) {
  Value x = b.input(T(Float32, {2, 5}));
  EXPECT_EQ(type(b.cat({f32_23, x}, 1)), "f32[2,8]");
  EXPECT_EQ(type(b.cat({f32_23, f32_23}, -2)), "f32[4,3]");
  EXPECT_EQ(type(b.cat({f32_23}, 0)), "f32[2,3]");
  expect_error([&] { b.cat({f32_23, x}, 0); }, {"cat", "operand 1 is f32[2,5]", "only on axis 0"});
  expect_error([&] { b.cat({f32_23, bf16_23}, 0); }, {"cat", "operand 1 has dtype bf16"});
  expect_error([&] { b.cat({f32_23, b.input(T(Float32, {6}))}, 0); }, {"cat", "operand 1 has rank 1"});
  expect_error([&] { b.cat({f32_23, f32_23}, 2); }, {"cat", "axis 2 out of range"});
  expect_error([&] { b.cat({}, 0); }, {"cat needs at least one operand"});
}

TEST_F(ShapeRules, Reductions) {
  Value x = b.input(T(BFloat16, {2, 3, 4}));
  EXPECT_EQ(type(b.sum(x, {1})), "bf16[2,4]");
  EXPECT_EQ(type(b.sum(x, {0, 2}, true)), "bf16[1,3,1]");
  EXPECT_EQ(type(b.sum(x, {-1})), "bf16[2,3]");
  EXPECT_EQ(type(b.sum(i32_23, {0})), "i64[3]");
  EXPECT_EQ(type(b.sum(bool_23, {0, 1})), "i64[]");
  EXPECT_EQ(type(b.reduce(OpKind::Max, i32_23, {1})), "i32[2]");
  Value empty = b.input(T(Float32, {0, 3}));
  EXPECT_EQ(type(b.sum(empty, {0})), "f32[3]");
  expect_error([&] { b.reduce(OpKind::Max, empty, {0}); }, {"max", "cannot reduce axis 0 of extent 0"});
  expect_error([&] { b.sum(x, {}); }, {"sum", "at least one axis"});
  expect_error([&] { b.sum(x, {3}); }, {"axis 3 out of range for rank 3"});
  expect_error(
      [&] {
        b.add(OpKind::Sum, {x}, {{"axes", std::vector<int64_t>{1, 1}}, {"keepdim", false}});
      },
      {"strictly increasing"});
  expect_error(
      [&] {
        b.add(OpKind::Sum, {x}, {{"axes", std::vector<int64_t>{1}}});
      },
      {"needs attribute 'keepdim'"});
}

TEST_F(ShapeRules, Opaque) {
  Value a = b.input(T(BFloat16, {4, 2, 8}));
  Value w = b.input(T(BFloat16, {8, 16}));
  Value batched = b.input(T(BFloat16, {1, 8, 16}));
  EXPECT_EQ(type(b.matmul(a, w)), "bf16[4,2,16]");
  EXPECT_EQ(type(b.matmul(a, batched)), "bf16[4,2,16]");
  Value weight = b.input(T(BFloat16, {16, 8}));
  Value bias = b.input(T(BFloat16, {16}));
  EXPECT_EQ(type(b.linear(a, weight)), "bf16[4,2,16]");
  EXPECT_EQ(type(b.linear(a, weight, bias)), "bf16[4,2,16]");
  expect_error([&] { b.matmul(a, weight); }, {"matmul", "inner extents differ"});
  expect_error([&] { b.matmul(a, b.input(T(Float32, {8, 16}))); }, {"matmul", "dtypes differ"});
  expect_error([&] { b.matmul(i32_23, b.input(T(Int32, {3, 2}))); }, {"needs floating operands"});
  expect_error([&] { b.matmul(b.input(T(BFloat16, {8})), w); }, {"rank >= 2"});
  expect_error([&] { b.matmul(a, b.input(T(BFloat16, {3, 8, 16}))); }, {"do not broadcast"});
  expect_error([&] { b.linear(a, w); }, {"linear", "last extent 8 differs from the weight's 16"});
  expect_error([&] { b.linear(a, weight, b.input(T(BFloat16, {8}))); }, {"bias must be [16]"});
}

TEST_F(ShapeRules, ErrorsNameTheValueBeingDefined) {
  int next = b.num_nodes();
  expect_error([&] { b.reshape(f32_23, {7}); }, {"%" + std::to_string(next) + " = reshape:"});
}

TEST(Fusion, FinishChecksOutputsAndNames) {
  {
    Builder b;
    b.input(T(Float32, {2}), "x");
    expect_error([&] { b.finish(std::vector<Value>{}); }, {"has no outputs"});
  }
  {
    Builder b;
    Value x = b.input(T(Float32, {2}), "x");
    expect_error(
        [&] {
          b.finish({FusionOutput{x, "out"}, FusionOutput{x, "out"}});
        },
        {"'out' is used twice"});
  }
  {
    Builder b;
    b.input(T(Float32, {2}), "x");
    Value y = b.input(T(Float32, {2}), "x");
    expect_error([&] { b.finish({y}); }, {"input name 'x' is used twice"});
  }
  {
    Builder b("bad name");
    Value x = b.input(T(Float32, {2}));
    expect_error([&] { b.finish({x}); }, {"not an identifier"});
  }
  {
    Builder b;
    b.input(T(Float32, {2}));
    expect_error([&] { b.finish({Value{5}}); }, {"output %5 is not a value"});
  }
}

TEST(Fusion, ConsumersAndInputs) {
  Builder b("f");
  Value x = b.input(T(Float32, {2}), "x");
  Value y = b.input(T(Float32, {2}), "y");
  Value s = b.add(x, x);
  Value t = b.mul(s, y);
  Fusion f = b.finish({FusionOutput{t, "t"}});
  ASSERT_EQ(f.inputs().size(), 2u);
  EXPECT_EQ(f.consumers(x), std::vector<Value>{s});  // used twice by one node, listed once
  EXPECT_EQ(f.consumers(s), std::vector<Value>{t});
  EXPECT_TRUE(f.is_output(t));
  EXPECT_FALSE(f.is_output(s));
  EXPECT_EQ(f.input_strides(x), (Shape{1}));
}

TEST(Number, PrintsRoundTripForms) {
  EXPECT_EQ(Number::of_float(2.0).to_string(), "2.0");
  EXPECT_EQ(Number::of_float(0.1).to_string(), "0.1");
  EXPECT_EQ(Number::of_float(1e-5).to_string(), "1e-05");
  EXPECT_EQ(Number::of_float(-INFINITY).to_string(), "-inf");
  EXPECT_EQ(Number::of_float(NAN).to_string(), "nan");
  EXPECT_EQ(Number::of_int(-7).to_string(), "-7");
  EXPECT_EQ(Number::of_bool(true).to_string(), "true");
  EXPECT_FALSE(Number::of_int(2) == Number::of_float(2.0));
  EXPECT_TRUE(Number::of_float(NAN) == Number::of_float(NAN));
  EXPECT_FALSE(Number::of_float(0.0) == Number::of_float(-0.0));
}

}  // namespace
}  // namespace seam

namespace seam {
namespace {

TEST(ShapeRulesOverflow, HugeElementCountsAreErrorsNotOverflow) {
  Builder b;
  expect_error(
      [&] {
        b.input(Type::tensor(DType::Float32, {int64_t{1} << 40, int64_t{1} << 40}));
      },
      {"too many elements"});
  Value x = b.input(Type::tensor(DType::Float32, {4}));
  expect_error(
      [&] {
        b.add(OpKind::Reshape, {x}, {{"shape", std::vector<int64_t>{int64_t{1} << 40, int64_t{1} << 40, 0}}});
      },
      {"too many elements"});
}

}  // namespace
}  // namespace seam

namespace seam {
namespace {

TEST(Builder, CopyRebuildsNodesFromAnotherFusion) {
  Builder source("src");
  Value x = source.input(Type::tensor(DType::BFloat16, {2, 4}), "x");
  Value f = source.full({2, 4}, DType::Float32, Number::of_float(0.5));
  Value y = source.add(source.cast(x, DType::Float32), f);
  Fusion fusion = source.finish({y});

  Builder copy("dst");
  Value cx = copy.input(Type::tensor(DType::BFloat16, {2, 4}));
  Value cf = copy.copy(fusion.node(f), {});  // a leaf keeps its declared type
  Value cc = copy.copy(fusion.node(Value{y.id - 1}), {cx});
  Value cy = copy.copy(fusion.node(y), {cc, cf});
  EXPECT_EQ(copy.type(cf).to_string(), "f32[2,4]");
  EXPECT_EQ(copy.type(cy).to_string(), "f32[2,4]");
  EXPECT_EQ(copy.node(cy).op, OpKind::Add);
  // Operands are checked again: a copy over operands of the wrong shape is an error.
  Value other = copy.input(Type::tensor(DType::Float32, {4, 2}));
  EXPECT_THROW(copy.copy(fusion.node(y), {cc, other}), Error);
}

}  // namespace
}  // namespace seam
