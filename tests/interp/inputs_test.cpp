// Input checking, strided inputs, random inputs and HostTensor element access.
#include <cmath>
#include <cstring>
#include <set>

#include "interp_test_util.h"
#include "support/half.h"

namespace seam {
namespace {

using testing_interp::error_of;
using testing_interp::run_one;

// y = x + 0 for one declared input (so the interpreter must read every element of x).
Fusion identity_of(Type type, std::string name, Shape strides = {}) {
  Builder b;
  Value x = b.input(type, std::move(name), std::move(strides));
  return b.finish({b.add(x, b.constant(Number::of_int(0), DType::Int64))});
}

Fusion two_inputs() {
  Builder b;
  Value sin = b.input(Type::tensor(DType::BFloat16, {4, 2}), "sin");
  Value cos = b.input(Type::tensor(DType::BFloat16, {4, 2}), "cos");
  return b.finish({b.mul(sin, cos)});
}

TEST(Inputs, WrongCount) {
  const std::string message = error_of([] {
    interpret(two_inputs(), {HostTensor::zeros(DType::BFloat16, {4, 2})});
  });
  EXPECT_NE(message.find("takes 2 input(s), got 1"), std::string::npos) << message;
}

TEST(Inputs, WrongDtypeNamesTheInput) {
  const std::string message = error_of([] {
    interpret(two_inputs(),
              {HostTensor::zeros(DType::BFloat16, {4, 2}), HostTensor::zeros(DType::Float32, {4, 2})});
  });
  EXPECT_EQ(message, "input 1 ('cos'): expected bf16[4,2], got f32[4,2]");
}

TEST(Inputs, WrongRankAndShape) {
  const std::string rank = error_of([] {
    interpret(two_inputs(),
              {HostTensor::zeros(DType::BFloat16, {8}), HostTensor::zeros(DType::BFloat16, {4, 2})});
  });
  EXPECT_EQ(rank, "input 0 ('sin'): expected bf16[4,2], got bf16[8]");
  const std::string shape = error_of([] {
    interpret(two_inputs(),
              {HostTensor::zeros(DType::BFloat16, {4, 2}), HostTensor::zeros(DType::BFloat16, {2, 4})});
  });
  EXPECT_EQ(shape, "input 1 ('cos'): expected bf16[4,2], got bf16[2,4]");
}

TEST(Inputs, ScalarInputMustBeRankZero) {
  Fusion f = identity_of(Type::scalar(DType::Float32), "s");
  EXPECT_EQ(error_of([&] { interpret(f, {HostTensor::zeros(DType::Float32, {1})}); }),
            "input 0 ('s'): expected f32[], got f32[1]");
  EXPECT_EQ(run_one(f, {HostTensor::from_doubles(DType::Float32, {}, {2.5})}).get_double(0), 2.5);
}

TEST(Inputs, StridesMustMatchTheDeclaration) {
  Fusion contiguous = identity_of(Type::tensor(DType::Float32, {2, 3}), "x");
  const std::string message = error_of([&] {
    interpret(contiguous, {HostTensor::zeros_strided(DType::Float32, {2, 3}, {1, 2})});
  });
  EXPECT_EQ(message, "input 0 ('x'): expected strides [3,1] for f32[2,3], got strides [1,2]");
  Fusion strided = identity_of(Type::tensor(DType::Float32, {2, 3}), "x", {1, 2});
  EXPECT_NE(error_of([&] {
              interpret(strided, {HostTensor::zeros(DType::Float32, {2, 3})});
            }).find("expected strides [1,2]"),
            std::string::npos);
}

TEST(Inputs, TruncatedStorageIsAnError) {
  Fusion f = identity_of(Type::tensor(DType::Float32, {2, 3}), "x");
  HostTensor x = HostTensor::zeros(DType::Float32, {2, 3});
  x.storage().resize(8);
  EXPECT_NE(error_of([&] { interpret(f, {x}); }).find("bytes of storage"), std::string::npos);
}

TEST(Inputs, StridedInputIsReadByItsStrides) {
  // Column-major [2,3]: element (r, c) lives at offset r + 2c. Storage holds 10 * offset.
  Fusion f = identity_of(Type::tensor(DType::Int32, {2, 3}), "x", {1, 2});
  HostTensor x = HostTensor::zeros_strided(DType::Int32, {2, 3}, {1, 2});
  ASSERT_EQ(x.storage().size(), 6 * sizeof(int32_t));
  for (int32_t offset = 0; offset < 6; ++offset) {
    const int32_t v = 10 * offset;
    std::memcpy(x.storage().data() + offset * 4, &v, 4);
  }
  HostTensor out = run_one(f, {x});
  EXPECT_EQ(out.to_ints(), (std::vector<int64_t>{0, 20, 40, 10, 30, 50}));
  EXPECT_TRUE(out.is_contiguous());
}

TEST(Inputs, BroadcastStrideZeroInput) {
  // Stride 0 on axis 0: both rows read the same storage.
  Fusion f = identity_of(Type::tensor(DType::Float32, {2, 2}), "x", {0, 1});
  HostTensor x = HostTensor::zeros_strided(DType::Float32, {2, 2}, {0, 1});
  ASSERT_EQ(x.storage().size(), 2 * sizeof(float));
  x.set_double(0, 1.5);
  x.set_double(1, -2);
  EXPECT_EQ(run_one(f, {x}).to_doubles(), (std::vector<double>{1.5, -2, 1.5, -2}));
}

TEST(RandomInputs, HonourDeclarationsAndSeed) {
  Builder b;
  Value x = b.input(Type::tensor(DType::BFloat16, {3, 4}), "x", {1, 3});
  Value i = b.input(Type::tensor(DType::Int32, {64}), "i");
  Value m = b.input(Type::tensor(DType::Bool, {64}), "m");
  Fusion f = b.finish({x, i, m});
  std::vector<HostTensor> a = random_inputs(f, 1), again = random_inputs(f, 1), other = random_inputs(f, 2);
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a[0].strides(), (Shape{1, 3}));
  EXPECT_EQ(a[0].storage(), again[0].storage());
  EXPECT_NE(a[0].storage(), other[0].storage());
  for (double v : a[0].to_doubles()) {
    EXPECT_GE(v, -1.0);
    EXPECT_LE(v, 1.0);
    EXPECT_EQ(v, bf16_bits_to_float(double_to_bf16_bits(v)));  // a bf16 value
  }
  std::set<int64_t> ints, bools;
  for (int64_t v : a[1].to_ints()) ints.insert(v);
  for (int64_t v : a[2].to_ints()) bools.insert(v);
  EXPECT_GE(*ints.begin(), -8);
  EXPECT_LE(*ints.rbegin(), 7);
  EXPECT_GT(ints.size(), 8u);  // 64 draws from 16 values
  EXPECT_EQ(bools, (std::set<int64_t>{0, 1}));
  EXPECT_EQ(interpret(f, a).size(), 3u);  // accepted as inputs
}

TEST(HostTensor, SetDoubleRoundsOnceToTheDtype) {
  HostTensor t = HostTensor::zeros(DType::BFloat16, {1});
  t.set_double(0, 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -30));  // above the bf16 midpoint
  EXPECT_EQ(t.get_double(0), 1.0078125);
  HostTensor i = HostTensor::zeros(DType::Int32, {1});
  i.set_double(0, -3.9);
  EXPECT_EQ(i.get_int(0), -3);
}

TEST(HostTensor, Int64BeyondDoublePrecision) {
  const int64_t big = (int64_t{1} << 60) + 1;
  HostTensor t = HostTensor::from_ints(DType::Int64, {1}, {big});
  EXPECT_EQ(t.get_int(0), big);
  EXPECT_EQ(t.get_double(0), std::ldexp(1.0, 60));
}

TEST(HostTensor, ContiguityAndCopies) {
  HostTensor t = HostTensor::zeros_strided(DType::Float32, {2, 2}, {1, 2});
  EXPECT_FALSE(t.is_contiguous());
  for (int64_t i = 0; i < 4; ++i) t.set_int(i, i);
  HostTensor c = t.contiguous();
  EXPECT_TRUE(c.is_contiguous());
  EXPECT_EQ(c.strides(), (Shape{2, 1}));
  EXPECT_EQ(c.to_ints(), (std::vector<int64_t>{0, 1, 2, 3}));
  EXPECT_TRUE(HostTensor::zeros_strided(DType::Float32, {1, 3}, {7, 1}).is_contiguous());
  HostTensor r = c.restrided({1, 2});
  EXPECT_EQ(r.strides(), (Shape{1, 2}));
  EXPECT_EQ(r.to_ints(), (std::vector<int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(r.storage(), t.storage());  // same layout as the column-major original
  EXPECT_EQ(HostTensor::zeros(DType::Float16, {0, 5}).storage().size(), 0u);
}

TEST(HostTensor, BadArgumentsThrow) {
  HostTensor t = HostTensor::zeros(DType::Float32, {2});
  EXPECT_THROW(t.get_double(2), Error);
  EXPECT_THROW(t.set_int(-1, 0), Error);
  EXPECT_THROW(HostTensor::zeros(DType::Float32, {-1}), Error);
  EXPECT_THROW(HostTensor::zeros_strided(DType::Float32, {2}, {1, 1}), Error);
  EXPECT_THROW(HostTensor::from_doubles(DType::Float32, {2}, {1.0}), Error);
  EXPECT_THROW(HostTensor().get_double(0), Error);  // no storage
}

}  // namespace
}  // namespace seam
