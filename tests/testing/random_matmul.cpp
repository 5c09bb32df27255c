#include "testing/random_matmul.h"

#include <algorithm>
#include <numeric>
#include <vector>

#include "ir/type.h"

namespace seam {
namespace {

std::string shape_text(const Shape& s) {
  std::string t = "[";
  for (size_t i = 0; i < s.size(); ++i) t += (i ? "," : "") + std::to_string(s[i]);
  return t + "]";
}

// Strides of `shape` laid out in a random order whose innermost axis is one of the last two.
Shape random_strides(const Shape& shape, std::mt19937& rng) {
  std::vector<size_t> order(shape.size());  // outermost first
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  if (shape.size() >= 2) {
    const size_t inner = shape.size() - 1 - rng() % 2;
    order.erase(std::find(order.begin(), order.end(), inner));
    order.push_back(inner);
  }
  Shape strides(shape.size());
  int64_t stride = 1;
  for (size_t i = order.size(); i-- > 0;) {
    strides[order[i]] = stride;
    stride *= std::max<int64_t>(shape[order[i]], 1);
  }
  return strides;
}

std::string with_dtype(std::string text, DType dtype) {
  const std::string name(dtype_name(dtype));
  for (size_t at = text.find("{T}"); at != std::string::npos; at = text.find("{T}", at))
    text.replace(at, 3, name);
  return text;
}

const char* const kCases[] = {
    // linear, batched input, bias (the transformer's shape, tensor-core sized)
    R"(fusion f { %0 = input {name="x"} : {T}[2,64,256]
      %1 = input {name="w"} : {T}[384,256]
      %2 = input {name="b"} : {T}[384]
      %3 = linear %0, %1, %2 : {T}[2,64,384]
      return y=%3 })",
    // linear of a vector
    R"(fusion f { %0 = input {name="x"} : {T}[64]
      %1 = input {name="w"} : {T}[40,64]
      %2 = linear %0, %1 : {T}[40]
      return y=%2 })",
    // batched, odd extents: matrices at 2-byte offsets in half precision
    R"(fusion f { %0 = input {name="a"} : {T}[2,3,33,17]
      %1 = input {name="b"} : {T}[2,3,17,9]
      %2 = matmul %0, %1 : {T}[2,3,33,9]
      return y=%2 })",
    // a right operand shared by the batch: one product of 160 rows
    R"(fusion f { %0 = input {name="a"} : {T}[4,5,8,16]
      %1 = input {name="b"} : {T}[16,32]
      %2 = matmul %0, %1 : {T}[4,5,8,32]
      return y=%2 })",
    // a left operand shared by the batch: batch stride 0
    R"(fusion f { %0 = input {name="a"} : {T}[8,16]
      %1 = input {name="b"} : {T}[3,16,32]
      %2 = matmul %0, %1 : {T}[3,8,32]
      return y=%2 })",
    // batch axes without a common stride: two library calls
    R"(fusion f { %0 = input {name="a"} : {T}[2,1,8,16]
      %1 = input {name="b"} : {T}[1,3,16,4]
      %2 = matmul %0, %1 : {T}[2,3,8,4]
      return y=%2 })",
    // transposed inputs: transpose flags, no copies
    R"(fusion f { %0 = input {name="x", strides=[1,8]} : {T}[8,16]
      %1 = input {name="w", strides=[1,16]} : {T}[16,32]
      %2 = matmul %0, %1 : {T}[8,32]
      return y=%2 })",
    // a permuted view of an input, read in place (attention's q @ k^T)
    R"(fusion f { %0 = input {name="q"} : {T}[2,8,64,32]
      %1 = input {name="k"} : {T}[2,8,64,32]
      %2 = permute %1 {perm=[0,1,3,2]} : {T}[2,8,32,64]
      %3 = matmul %0, %2 : {T}[2,8,64,64]
      return y=%3 })",
    // a broadcast matrix axis: written out by a copy kernel first
    R"(fusion f { %0 = input {name="a"} : {T}[1,16]
      %1 = expand %0 {shape=[8,16]} : {T}[8,16]
      %2 = input {name="b"} : {T}[16,4]
      %3 = matmul %1, %2 : {T}[8,4]
      return y=%3 })",
    // a strided bias view: copied first
    R"(fusion f { %0 = input {name="x"} : {T}[4,16]
      %1 = input {name="w"} : {T}[8,16]
      %2 = input {name="b"} : {T}[16]
      %3 = slice %2 {starts=[0], stops=[16], steps=[2]} : {T}[8]
      %4 = linear %0, %1, %3 : {T}[4,8]
      return y=%4 })",
    // a contiguous bias at an address off 16 bytes: aligned by a copy for the library's epilogue
    R"(fusion f { %0 = input {name="x"} : {T}[4,16]
      %1 = input {name="w"} : {T}[8,16]
      %2 = input {name="b"} : {T}[9]
      %3 = slice %2 {starts=[1], stops=[9], steps=[1]} : {T}[8]
      %4 = linear %0, %1, %3 : {T}[4,8]
      return y=%4 })",
    // empty contractions: zeros, and the bias in every row
    R"(fusion f { %0 = input {name="a"} : {T}[3,0]
      %1 = input {name="b"} : {T}[0,4]
      %2 = matmul %0, %1 : {T}[3,4]
      return y=%2 })",
    R"(fusion f { %0 = input {name="x"} : {T}[2,3,0]
      %1 = input {name="w"} : {T}[5,0]
      %2 = input {name="b"} : {T}[5]
      %3 = linear %0, %1, %2 : {T}[2,3,5]
      return y=%3 })",
    // an empty output
    R"(fusion f { %0 = input {name="a"} : {T}[0,16]
      %1 = input {name="b"} : {T}[16,4]
      %2 = matmul %0, %1 : {T}[0,4]
      return y=%2 })",
};

}  // namespace

std::vector<std::string> matmul_cases(DType dtype) {
  std::vector<std::string> texts;
  for (const char* text : kCases) texts.push_back(with_dtype(text, dtype));
  return texts;
}

std::string random_matmul_text(std::mt19937& rng, DType dtype) {
  auto extent = [&](int most) { return static_cast<int64_t>(1 + rng() % static_cast<unsigned>(most)); };
  const std::string t(dtype_name(dtype));
  auto input = [&](const char* id, const char* name, const Shape& shape) {
    return std::string("  ") + id + " = input {name=\"" + name +
           "\", strides=" + shape_text(random_strides(shape, rng)) + "} : " + t + shape_text(shape) + "\n";
  };
  std::string text = "fusion random_product {\n";
  const int64_t M = extent(5), K = extent(6), N = extent(5);
  if (rng() % 3 != 0) {  // matmul
    Shape batch;
    for (int d = static_cast<int>(rng() % 4); d > 0; --d) batch.push_back(extent(3));
    auto operand_batch = [&] {
      Shape own(batch.begin() + static_cast<std::ptrdiff_t>(rng() % (batch.size() + 1)), batch.end());
      for (int64_t& e : own)
        if (rng() % 3 == 0) e = 1;
      return own;
    };
    Shape a = operand_batch(), b = operand_batch();
    a.insert(a.end(), {M, K});
    b.insert(b.end(), {K, N});
    // The output batch is the broadcast of the operands' batches.
    const size_t rank = std::max(a.size(), b.size());
    Shape out(rank, 1);
    for (size_t from_end = 1; from_end <= rank; ++from_end) {
      const int64_t ea = from_end <= a.size() ? a[a.size() - from_end] : 1;
      const int64_t eb = from_end <= b.size() ? b[b.size() - from_end] : 1;
      out[rank - from_end] = std::max(ea, eb);
    }
    out[rank - 2] = M;
    out[rank - 1] = N;
    text += input("%0", "a", a) + input("%1", "b", b);
    text += "  %2 = matmul %0, %1 : " + t + shape_text(out) + "\n  return y=%2\n}\n";
  } else {  // linear
    Shape x;
    for (int d = static_cast<int>(rng() % 3); d > 0; --d) x.push_back(extent(3));
    x.push_back(K);
    Shape out = x;
    out.back() = N;
    const bool bias = rng() % 2 == 0;
    text += input("%0", "x", x) + input("%1", "w", {N, K});
    if (bias) text += "  %2 = input {name=\"bias\"} : " + t + "[" + std::to_string(N) + "]\n";
    text += std::string("  %3 = linear %0, %1") + (bias ? ", %2" : "") + " : " + t + shape_text(out) +
            "\n  return y=%3\n}\n";
  }
  return text;
}

}  // namespace seam
