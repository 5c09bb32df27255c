#include "testing/float8_cases.h"

#include <cmath>
#include <limits>
#include <random>

#include "interp/interpreter.h"
#include "ir/builder.h"

namespace seam::testing_float8 {

std::vector<Fusion> float8_fusions() {
  std::vector<Fusion> fusions;
  for (DType f8 : kFloat8DTypes) {
    const std::string n(dtype_name(f8));
    for (DType from : kAllDTypes) {
      // from -> f8 -> every dtype, in one kernel.
      Builder b("to_" + n + "_from_" + std::string(dtype_name(from)));
      Value x = b.input(Type::tensor(from, {4, 96}), "x");
      Value y = b.cast(x, f8);
      std::vector<Value> outs = {y};
      for (DType to : kAllDTypes) outs.push_back(b.cast(y, to));
      fusions.push_back(b.finish(outs));
    }
    {
      // An f8 input through movement ops and the other f8 dtype.
      Builder b("move_" + n);
      Value x = b.input(Type::tensor(f8, {64, 48}), "x");
      Value t = b.permute(b.slice_axis(x, 1, 8, 40), {1, 0});
      Value other = b.cast(t, f8 == DType::Float8E4M3FN ? DType::Float8E5M2 : DType::Float8E4M3FN);
      fusions.push_back(b.finish({t, other, b.cast(x, DType::Float32)}));
    }
  }
  return fusions;
}

std::vector<HostTensor> float8_inputs(const Fusion& fusion, uint64_t seed) {
  std::vector<HostTensor> inputs = random_inputs(fusion, seed);
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> special = {0.0,   -0.0,  1.0,     1.0625, 1.1875, 448.0,  464.0, 465.0,
                                       480.0, 500.0, 57344.0, 61439., 61440., 1e5,    -1e30, inf,
                                       -inf,  NAN,   1e-3,    1e-4,   3e-5,   1.5e-5, -2e-3, 0.3};
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> wide(-70000.0, 70000.0);
  for (HostTensor& x : inputs) {
    if (!is_floating(x.dtype())) continue;
    for (int64_t i = 0; i < x.numel(); ++i) {
      const size_t k = static_cast<size_t>(i);
      double v = k < special.size() ? special[k] : (i % 3 == 0 ? wide(rng) : x.get_double(i) * 4.0);
      x.set_double(i, v);
    }
  }
  return inputs;
}

}  // namespace seam::testing_float8
