#include "segment/read_footprint.h"

#include <algorithm>
#include <optional>
#include <utility>

namespace seam {
namespace {

struct Dim {
  int64_t stride, extent;
};

// The axes that enumerate distinct elements (broadcast axes repeat them, extent-1 axes add nothing).
std::vector<Dim> distinct_dims(const StridedLayout& l) {
  std::vector<Dim> dims;
  for (size_t i = 0; i < l.shape.size(); ++i)
    if (l.shape[i] != 1 && l.strides[i] != 0) dims.push_back({l.strides[i], l.shape[i]});
  return dims;
}

int64_t volume(const std::vector<Dim>& dims) {
  int64_t v = 1;
  for (const Dim& d : dims) v *= d.extent;
  return v;
}

// A box in digit coordinates: per digit, the half-open range [lo, hi).
struct Box {
  std::vector<int64_t> lo, hi;
  friend bool operator==(const Box&, const Box&) = default;
};

int64_t box_volume(const Box& b) {
  int64_t v = 1;
  for (size_t j = 0; j < b.lo.size(); ++j) v *= std::max<int64_t>(0, b.hi[j] - b.lo[j]);
  return v;
}

bool contains(const Box& outer, const Box& inner) {
  for (size_t j = 0; j < outer.lo.size(); ++j)
    if (inner.lo[j] < outer.lo[j] || inner.hi[j] > outer.hi[j]) return false;
  return true;
}

// Digit positions: place values 1 = p0 < p1 < ... where each divides the next; digit j counts in units
// of p_j with radix p_{j+1} / p_j (the top digit is unbounded).
std::optional<Box> to_box(const StridedLayout& l, const std::vector<int64_t>& place) {
  const size_t m = place.size();
  auto radix = [&](size_t j) { return j + 1 < m ? place[j + 1] / place[j] : INT64_MAX; };
  Box b{std::vector<int64_t>(m), std::vector<int64_t>(m)};
  std::vector<bool> covered(m, false);
  for (size_t j = 0; j < m; ++j) {
    int64_t digit = l.offset / place[j];
    if (j + 1 < m) digit %= radix(j);
    b.lo[j] = digit;
    b.hi[j] = digit + 1;
  }
  for (const Dim& d : distinct_dims(l)) {
    size_t j = static_cast<size_t>(std::lower_bound(place.begin(), place.end(), d.stride) - place.begin());
    if (j == m || place[j] != d.stride || covered[j]) return std::nullopt;
    if (b.lo[j] + d.extent <= radix(j)) {  // a range within one digit
      b.hi[j] = b.lo[j] + d.extent;
      covered[j] = true;
      continue;
    }
    // Otherwise the axis must run over whole digits j..k-1, starting at 0.
    auto end = std::find(place.begin(), place.end(), d.stride * d.extent);
    if (end == place.end()) return std::nullopt;
    for (size_t k = j; k < static_cast<size_t>(end - place.begin()); ++k) {
      if (covered[k] || b.lo[k] != 0) return std::nullopt;
      b.hi[k] = radix(k);
      covered[k] = true;
    }
  }
  return b;
}

// |union of boxes| by inclusion-exclusion over the intersections.
int64_t union_volume(const std::vector<Box>& boxes, size_t first, const Box& current) {
  int64_t total = 0;
  for (size_t i = first; i < boxes.size(); ++i) {
    Box meet = current;
    for (size_t j = 0; j < meet.lo.size(); ++j) {
      meet.lo[j] = std::max(meet.lo[j], boxes[i].lo[j]);
      meet.hi[j] = std::min(meet.hi[j], boxes[i].hi[j]);
    }
    int64_t v = box_volume(meet);
    if (v == 0) continue;
    total += v - union_volume(boxes, i + 1, meet);
  }
  return total;
}

}  // namespace

std::vector<InputView> input_views_read(const Fusion& fusion, const std::vector<bool>& duplicated,
                                        int32_t node) {
  std::vector<InputView> out;
  // A view reads the input itself only through duplicated views: one that a group computes (a fusion
  // output, say) is that group's value, and a reader beyond it pays for that value instead.
  auto views_only_duplicates = [&](Value v) {
    for (Value w = v; fusion.node(w).op != OpKind::Input;) {
      if (!is_view_op(fusion.node(w).op)) return false;
      w = fusion.node(w).operands[0];
      if (fusion.node(w).op != OpKind::Input && !duplicated[w.id]) return false;
    }
    return true;
  };
  auto add_view = [&](Value v) -> bool {
    if (!views_only_duplicates(v)) return false;
    std::optional<StridedLayout> layout = view_of_input(fusion, v);
    if (!layout) {
      if (fusion.node(v).op != OpKind::Input) return false;
      layout = StridedLayout{};  // a scalar input
    }
    out.push_back({viewed_input(fusion, v), std::move(*layout)});
    return true;
  };
  const Node& n = fusion.node(Value{node});
  if (is_view_op(n.op)) {
    Value operand = n.operands[0];
    bool through_duplicates = fusion.node(operand).op == OpKind::Input || duplicated[operand.id];
    if (through_duplicates && add_view(Value{node})) return out;
  }
  std::vector<int32_t> stack{node};
  std::vector<bool> seen(static_cast<size_t>(fusion.num_nodes()), false);
  while (!stack.empty()) {
    const Node& w = fusion.node(Value{stack.back()});
    stack.pop_back();
    for (Value o : w.operands) {
      if (fusion.node(o).op == OpKind::Input) {
        add_view(o);
        continue;
      }
      if (!duplicated[o.id] || add_view(o) || seen[o.id]) continue;
      seen[o.id] = true;
      stack.push_back(o.id);
    }
  }
  return out;
}

namespace {

// The views that read elements, each once: an empty view reads nothing, and views of the same elements
// (equal offsets and distinct axes, in any order) count once. Without this the bound below would depend
// on how often a caller lists a view: the cost model lists each distinct view once, a group's boundary
// once per node that reads it.
std::vector<StridedLayout> distinct_nonempty(std::span<const StridedLayout> views) {
  using Key =
      std::pair<int64_t, std::vector<std::pair<int64_t, int64_t>>>;  // offset, sorted (stride, extent)
  std::vector<StridedLayout> kept;
  std::vector<Key> keys;
  for (const StridedLayout& l : views) {
    if (std::find(l.shape.begin(), l.shape.end(), 0) != l.shape.end()) continue;
    Key key{l.offset, {}};
    for (const Dim& d : distinct_dims(l)) key.second.emplace_back(d.stride, d.extent);
    std::sort(key.second.begin(), key.second.end());
    if (std::find(keys.begin(), keys.end(), key) != keys.end()) continue;
    keys.push_back(std::move(key));
    kept.push_back(l);
  }
  return kept;
}

}  // namespace

int64_t union_bytes(const Fusion& fusion, Value input, std::span<const StridedLayout> all_views) {
  const Type& type = fusion.type(input);
  const int64_t whole = type.bytes();
  if (type.is_scalar) return all_views.empty() ? 0 : whole;
  const std::vector<StridedLayout> views = distinct_nonempty(all_views);
  if (views.empty()) return 0;
  const int64_t element = dtype_size(type.dtype);
  int64_t sum = 0;
  std::vector<int64_t> place{1};
  for (const StridedLayout& l : views)
    for (const Dim& d : distinct_dims(l)) {
      place.push_back(d.stride);
      if (d.stride < 0) return whole;
    }
  for (const StridedLayout& l : views) sum += volume(distinct_dims(l)) * element;
  const int64_t fallback = std::min(whole, sum);
  std::sort(place.begin(), place.end());
  place.erase(std::unique(place.begin(), place.end()), place.end());
  for (size_t j = 0; j + 1 < place.size(); ++j)
    if (place[j] <= 0 || place[j + 1] % place[j] != 0) return fallback;

  std::vector<Box> boxes;
  for (const StridedLayout& l : views) {
    std::optional<Box> b = to_box(l, place);
    if (!b || box_volume(*b) != volume(distinct_dims(l))) return fallback;
    boxes.push_back(std::move(*b));
  }
  // Drop boxes inside others (duplicates included), then count the union exactly.
  std::vector<Box> kept;
  for (size_t i = 0; i < boxes.size(); ++i) {
    bool inside = false;
    for (size_t k = 0; k < boxes.size() && !inside; ++k)
      inside = k != i && contains(boxes[k], boxes[i]) && (!(boxes[k] == boxes[i]) || k < i);
    if (!inside) kept.push_back(boxes[i]);
  }
  if (kept.size() > 12) return fallback;  // inclusion-exclusion is exponential in the count
  Box everything{std::vector<int64_t>(place.size(), 0), std::vector<int64_t>(place.size(), INT64_MAX)};
  return std::min(whole, union_volume(kept, 0, everything) * element);
}

}  // namespace seam
