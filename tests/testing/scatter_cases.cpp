#include "testing/scatter_cases.h"

#include <algorithm>
#include <numeric>

#include "interp/interpreter.h"
#include "ir/builder.h"
#include "support/error.h"

namespace seam::testing_scatter {

HostTensor scatter_indices(DType dtype, const Shape& shape, int64_t axis, int64_t extent, bool duplicates,
                           std::mt19937_64& rng) {
  HostTensor t = HostTensor::zeros(dtype, shape);
  const size_t a = static_cast<size_t>(axis);
  const int64_t length = shape[a];
  SEAM_ASSERT(duplicates || length <= extent, "distinct indices need a line no longer than the extent");
  int64_t inner = 1;
  for (size_t d = a + 1; d < shape.size(); ++d) inner *= shape[d];
  const int64_t lines = length == 0 ? 0 : t.numel() / length;
  std::vector<int64_t> positions(static_cast<size_t>(extent));
  for (int64_t line = 0; line < lines; ++line) {
    std::iota(positions.begin(), positions.end(), int64_t{0});
    std::shuffle(positions.begin(), positions.end(), rng);
    const int64_t base = (line / inner) * length * inner + line % inner;
    for (int64_t k = 0; k < length; ++k) {
      int64_t p = duplicates ? positions[static_cast<size_t>(rng() % static_cast<uint64_t>(extent))]
                             : positions[static_cast<size_t>(k)];
      if (rng() & 1) p -= extent;
      t.set_int(base + k * inner, p);
    }
  }
  return t;
}

namespace {

Type tensor(DType dtype, Shape shape) { return Type::tensor(dtype, std::move(shape)); }

// One scatter of inputs: data `data_shape`, index `index_shape` (unique along `axis` unless `duplicates`),
// source `src_shape`, all of `dtype` but the index; inputs drawn from `seed`.
ScatterCase plain(const std::string& name, DType dtype, DType index_dtype, const Shape& data_shape,
                  int64_t axis, const Shape& index_shape, const Shape& src_shape, bool duplicates,
                  uint64_t seed) {
  Builder b(name);
  Value x = b.input(tensor(dtype, data_shape), "x");
  Value i = b.input(tensor(index_dtype, index_shape), "index");
  Value s = b.input(tensor(dtype, src_shape), "src");
  Fusion fusion = b.finish({b.scatter(x, axis, i, s)});
  std::mt19937_64 rng(seed);
  const int64_t a = axis < 0 ? axis + static_cast<int64_t>(data_shape.size()) : axis;
  std::vector<HostTensor> inputs = {
      HostTensor::random(dtype, data_shape, rng),
      scatter_indices(index_dtype, index_shape, a, data_shape[static_cast<size_t>(a)], duplicates, rng),
      HostTensor::random(dtype, src_shape, rng)};
  return {name, std::move(fusion), std::move(inputs), duplicates};
}

// Random inputs for `fusion` but its index inputs, which `index_of` makes.
template <typename IndexOf>
std::vector<HostTensor> inputs_for(const Fusion& fusion, uint64_t seed, IndexOf index_of) {
  std::vector<HostTensor> inputs = random_inputs(fusion, seed);
  std::mt19937_64 rng(seed + 1);
  for (size_t k = 0; k < inputs.size(); ++k)
    if (is_integer(inputs[k].dtype())) inputs[k] = index_of(k, rng);
  return inputs;
}

// The scatter read and written by other work: data doubled (a kernel's output), the index a transposed
// view of an input (copied out before the scatter kernel), the source an exponential; the scatter is an
// output and read by a sigmoid, as nvFuser's test_scatter_output_intermediate does.
ScatterCase intermediates(int64_t n) {
  Builder b("intermediates");
  Value x = b.input(tensor(DType::Float32, {8 * n, 24}), "x");
  Value it = b.input(tensor(DType::Int64, {24, 5 * n}), "index_t");
  Value y = b.input(tensor(DType::Float32, {6 * n, 24}), "y");
  Value data = b.mul(x, b.constant(Number::of_float(2.0), DType::Float32));
  Value index = b.permute(it, {1, 0});
  Value scattered = b.scatter(data, 0, index, b.exp(y));
  Fusion fusion = b.finish({{b.unary(OpKind::Sigmoid, scattered), "sigmoid"}, {scattered, "scattered"}});
  std::vector<HostTensor> inputs = inputs_for(fusion, 11, [&](size_t, std::mt19937_64& rng) {
    // index_t[j][i] is index[i][j]: unique along index's axis 0, so along index_t's axis 1.
    return scatter_indices(DType::Int64, {24, 5 * n}, 1, 8 * n, false, rng);
  });
  return {"intermediates", std::move(fusion), std::move(inputs), false};
}

// Inputs laid out over other strides: data and source transposed in memory, the index a column of a wider
// buffer.
ScatterCase strided(int64_t n) {
  Builder b("strided");
  const int64_t rows = 16 * n, cols = 12;
  Value x = b.input(tensor(DType::Float16, {rows, cols}), "x", {1, rows});
  Value i = b.input(tensor(DType::Int32, {rows, 7}), "index", {10, 1});
  Value s = b.input(tensor(DType::Float16, {rows, 9}), "src", {1, rows});
  Fusion fusion = b.finish({b.scatter(x, 1, i, s)});
  std::vector<HostTensor> inputs = random_inputs(fusion, 12);
  std::mt19937_64 rng(13);
  const HostTensor index = scatter_indices(DType::Int32, {rows, 7}, 1, cols, false, rng);
  for (int64_t k = 0; k < index.numel(); ++k) inputs[1].set_int(k, index.get_int(k));
  return {"strided", std::move(fusion), std::move(inputs), false};
}

// A scalar source: an f64 input written into f32 data (nvFuser's test_scatter_scalar_src), then an i64
// literal into that result cast to bf16.
ScatterCase scalar_sources(int64_t n) {
  Builder b("scalar_sources");
  Value x = b.input(tensor(DType::Float32, {32 * n, 64}), "x");
  Value i = b.input(tensor(DType::Int64, {16 * n, 64}), "index");
  Value v = b.input(Type::scalar(DType::Float64), "value");
  Value j = b.input(tensor(DType::Int32, {16 * n, 3}), "columns");
  Value first = b.scatter(x, 0, i, v);
  Value second =
      b.scatter(b.cast(first, DType::BFloat16), -1, j, b.constant(Number::of_int(-3), DType::Int64));
  Fusion fusion = b.finish({{first, "first"}, {second, "second"}});
  std::mt19937_64 rng(14);
  std::vector<HostTensor> inputs = {HostTensor::random(DType::Float32, {32 * n, 64}, rng),
                                    scatter_indices(DType::Int64, {16 * n, 64}, 0, 32 * n, false, rng),
                                    HostTensor::from_doubles(DType::Float64, {}, {1.5}),
                                    scatter_indices(DType::Int32, {16 * n, 3}, 1, 64, false, rng)};
  return {"scalar_sources", std::move(fusion), std::move(inputs), false};
}

}  // namespace

std::vector<ScatterCase> scatter_cases(int64_t n) {
  std::vector<ScatterCase> cases;
  cases.push_back(
      plain("rows_f32", DType::Float32, DType::Int64, {64 * n, 33}, 0, {40 * n, 33}, {45 * n, 35}, false, 1));
  cases.push_back(plain("columns_bf16", DType::BFloat16, DType::Int32, {8 * n, 300}, -1, {8 * n, 200},
                        {8 * n, 200}, false, 2));
  cases.push_back(plain("middle_i64", DType::Int64, DType::Int64, {3, 10 * n, 4}, 1, {3, 7 * n, 4},
                        {3, 7 * n, 5}, false, 3));
  cases.push_back(plain("bool", DType::Bool, DType::Int32, {5 * n, 6}, 1, {4 * n, 6}, {5 * n, 6}, false, 4));
  cases.push_back(plain("f64_first_of_three", DType::Float64, DType::Int64, {6 * n, 5, 3}, -3, {6 * n, 2, 3},
                        {6 * n, 2, 3}, false, 5));
  cases.push_back(
      plain("float8", DType::Float8E4M3FN, DType::Int64, {9 * n, 4}, 0, {9 * n, 4}, {9 * n, 4}, false, 6));
  cases.push_back(plain("empty_index", DType::Float32, DType::Int64, {4, 5}, 1, {4, 0}, {4, 5}, false, 7));
  cases.push_back(plain("empty_data", DType::Float32, DType::Int64, {0, 5}, 0, {0, 5}, {0, 5}, false, 8));
  cases.push_back(
      plain("duplicates", DType::Float32, DType::Int64, {5, 7 * n}, 0, {12, 7 * n}, {12, 7 * n}, true, 9));
  cases.push_back(intermediates(n));
  cases.push_back(strided(n));
  cases.push_back(scalar_sources(n));
  return cases;
}

}  // namespace seam::testing_scatter
