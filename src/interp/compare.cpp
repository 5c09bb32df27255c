#include "interp/compare.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <sstream>

#include "interp/interpreter.h"
#include "interp/perturbation.h"
#include "support/error.h"
#include "support/parallel.h"

namespace seam {

Tolerance default_tolerance(DType dtype) {
  switch (dtype) {
    case DType::BFloat16: return {1.6e-2, 1e-5};
    case DType::Float16: return {1e-3, 1e-5};
    case DType::Float32: return {1.3e-6, 1e-5};
    case DType::Float64: return {1e-7, 1e-7};
    case DType::Float8E4M3FN: return {0.125, 1.0 / 512};  // one ulp: 3 mantissa bits, subnormals 2^-9
    case DType::Float8E5M2: return {0.25, 1.0 / 65536};   // 2 mantissa bits, subnormals 2^-16
    default: return {0, 0};
  }
}

namespace {
// Whether a and e (at index i) are close: exact for integers and bools; NaN equals NaN. `diff` is |a - e|
// (infinite where exactly one is NaN).
bool close_at(const HostTensor& actual, const HostTensor& expected, int64_t i, Tolerance tolerance,
              double& diff) {
  diff = 0;
  if (!is_floating(actual.dtype())) {
    const int64_t a = actual.get_int(i), e = expected.get_int(i);
    diff = a == e ? 0 : std::fabs(static_cast<double>(a) - static_cast<double>(e));
    return a == e;
  }
  const double a = actual.get_double(i), e = expected.get_double(i);
  if (std::isnan(a) || std::isnan(e)) {
    const bool close = std::isnan(a) && std::isnan(e);
    diff = close ? 0 : INFINITY;
    return close;
  }
  if (a == e) return true;  // also equal infinities
  diff = std::fabs(a - e);
  return diff <= tolerance.atol + tolerance.rtol * std::fabs(e);
}

std::string index_to_string(int64_t linear, const Shape& shape) {
  Shape index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    index[d] = shape[d] ? linear % shape[d] : 0;
    linear = shape[d] ? linear / shape[d] : 0;
  }
  return shape_to_string(index);
}
}  // namespace

Comparison compare_tensors(const HostTensor& actual, const HostTensor& expected, Tolerance tolerance,
                           const std::vector<const HostTensor*>& nudged) {
  Comparison result;
  if (actual.dtype() != expected.dtype() || actual.shape() != expected.shape()) {
    result.ok = false;
    result.message = "expected " + Type::tensor(expected.dtype(), expected.shape()).to_string() + ", got " +
                     Type::tensor(actual.dtype(), actual.shape()).to_string();
    return result;
  }
  const bool exact = !is_floating(actual.dtype());
  for (const HostTensor* n : nudged)
    SEAM_CHECK(n->dtype() == expected.dtype() && n->shape() == expected.shape(),
               "compare_tensors: a nudged reference of another type than the expected tensor");
  // Each chunk of elements is compared on its own, then the chunks merge in order: the same counts,
  // first mismatch and worst element (the first of equal excesses) as one pass over every element.
  struct Part {
    int64_t mismatches = 0, excused = 0, first = -1, worst = -1;
    double max_abs_diff = 0, worst_excess = -1;
  };
  std::map<int64_t, Part> parts;  // by the chunk's first element
  std::mutex parts_lock;
  parallel_for(actual.numel(), [&](int64_t begin, int64_t end) {
    Part part;
    for (int64_t i = begin; i < end; ++i) {
      double diff = 0;
      const bool close = close_at(actual, expected, i, tolerance, diff);
      if (!close) {
        bool ill_conditioned = false;
        for (const HostTensor* n : nudged) {
          double moved = 0;
          ill_conditioned = ill_conditioned || !close_at(*n, expected, i, tolerance, moved);
        }
        if (ill_conditioned) {
          ++part.excused;
          continue;
        }
      }
      if (diff > part.max_abs_diff) part.max_abs_diff = diff;
      if (!close) {
        ++part.mismatches;
        if (part.first < 0) part.first = i;
        const double excess = std::isinf(diff) ? INFINITY : diff - tolerance.atol;
        if (excess > part.worst_excess) {
          part.worst_excess = excess;
          part.worst = i;
        }
      }
    }
    const std::lock_guard<std::mutex> hold(parts_lock);
    parts[begin] = part;
  });
  double worst_excess = -1;
  int64_t worst = -1;
  for (const auto& [begin, part] : parts) {
    result.mismatches += part.mismatches;
    result.excused += part.excused;
    if (result.first_mismatch < 0) result.first_mismatch = part.first;
    result.max_abs_diff = std::max(result.max_abs_diff, part.max_abs_diff);
    if (part.worst >= 0 && part.worst_excess > worst_excess) {
      worst_excess = part.worst_excess;
      worst = part.worst;
    }
  }
  if (result.mismatches > 0) {
    result.ok = false;
    std::ostringstream out;
    out.precision(9);
    out << result.mismatches << " of " << actual.numel() << " elements differ beyond rtol " << tolerance.rtol
        << ", atol " << tolerance.atol << "; worst at " << index_to_string(worst, actual.shape()) << ": got "
        << (exact ? static_cast<double>(actual.get_int(worst)) : actual.get_double(worst)) << ", expected "
        << (exact ? static_cast<double>(expected.get_int(worst)) : expected.get_double(worst))
        << "; max abs diff " << result.max_abs_diff;
    if (result.excused > 0) out << " (" << result.excused << " ill-conditioned elements excused)";
    result.message = out.str();
  }
  return result;
}

std::vector<Comparison> compare_outputs(const Fusion& fusion, const std::vector<HostTensor>& inputs,
                                        const std::vector<HostTensor>& actual,
                                        const std::vector<HostTensor>& expected,
                                        const std::function<Tolerance(DType)>& tolerance) {
  SEAM_CHECK(actual.size() == expected.size(), "compare_outputs: ", actual.size(), " outputs against ",
             expected.size(), " expected");
  std::vector<Comparison> results;
  bool any_differs = false;
  for (size_t o = 0; o < actual.size(); ++o) {
    results.push_back(compare_tensors(actual[o], expected[o], tolerance(expected[o].dtype())));
    any_differs = any_differs || !results.back().ok;
  }
  if (!any_differs) return results;
  std::vector<std::vector<HostTensor>> nudged_runs;
  for (int p = 0; p < kReferencePerturbations; ++p) {
    Perturbation nudge;
    nudge.direction = p == 0 ? Perturbation::Direction::Up
                             : (p == 1 ? Perturbation::Direction::Down : Perturbation::Direction::Mixed);
    nudge.salt = static_cast<uint64_t>(p);
    nudged_runs.push_back(interpret_perturbed(fusion, inputs, nudge));
  }
  for (size_t o = 0; o < actual.size(); ++o) {
    if (results[o].ok) continue;
    std::vector<const HostTensor*> nudged;
    for (const std::vector<HostTensor>& run : nudged_runs) nudged.push_back(&run[o]);
    results[o] = compare_tensors(actual[o], expected[o], tolerance(expected[o].dtype()), nudged);
  }
  return results;
}

}  // namespace seam
