#include "interp/perturbation.h"

namespace seam {
namespace {

// splitmix64's finalizer: a well-mixed bit from the three numbers.
uint64_t mix(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

double Perturbation::apply(int32_t node, int64_t element, double value) const {
  bool up = direction == Direction::Up;
  if (direction == Direction::Mixed)
    up = (mix(salt ^ mix(static_cast<uint64_t>(node) ^ mix(static_cast<uint64_t>(element)))) & 1) != 0;
  return value * (up ? 1.0 + relative : 1.0 - relative);
}

bool has_inexact_floating_result(OpKind op) {
  switch (op) {
    case OpKind::Neg:
    case OpKind::Abs:
    case OpKind::Ceil:
    case OpKind::Floor:
    case OpKind::Trunc:
    case OpKind::Round:
    case OpKind::Frac:
    case OpKind::Signbit:
    case OpKind::Maximum:
    case OpKind::Minimum:
    case OpKind::Fmod:
    case OpKind::Nextafter:
    case OpKind::Max:
    case OpKind::Min:
    case OpKind::Cummin:
    case OpKind::Cummax:
    case OpKind::Where:
    case OpKind::Cast: return false;
    default: break;
  }
  const OpCategory category = op_info(op).category;
  return category == OpCategory::Unary || category == OpCategory::Binary ||
         category == OpCategory::Reduction || category == OpCategory::Opaque || category == OpCategory::Scan;
}

}  // namespace seam
