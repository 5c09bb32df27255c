#include "exec/segmentation_cache.h"

#include <iostream>
#include <string_view>

#include "schedule/pointwise_scheduler.h"
#include "segment/dump.h"
#include "support/error.h"

namespace seam {
namespace {

// An extent's class: empty, a unit axis (broadcasts, squeezes and the passes decide from it) or more.
char extent_class(int64_t extent) {
  if (extent <= 1) return extent == 1 ? '1' : '0';
  return 'n';
}

void append_extents(std::string& key, const std::vector<int64_t>& extents) {
  key += '[';
  for (int64_t e : extents) key += extent_class(e);
  key += ']';
}

// Attributes that hold sizes: reduced to classes like extents. Every other attribute (axes, dtypes,
// permutations, constants) is structure and enters the key as it is.
bool size_valued(std::string_view name) {
  return name == "shape" || name == "starts" || name == "stops" || name == "low" || name == "high";
}

// A constant's class: its kind and whether it is 0, 1 or -1 (identities the passes fold); the value
// itself (a mean's 1 / N, a row length) does not steer the search.
std::string number_class(const Number& n) {
  const double v = n.as_double();
  const char* kind = n.kind() == Number::Kind::Float ? "f" : n.kind() == Number::Kind::Int ? "i" : "b";
  return std::string(kind) + (v == 0 ? "0" : v == 1 ? "1" : v == -1 ? "-1" : "n");
}

}  // namespace

std::string segmentation_key(const Fusion& fusion, const SegmentOptions& options) {
  std::string key;
  key.reserve(static_cast<size_t>(fusion.num_nodes()) * 24);
  for (int32_t id = 0; id < fusion.num_nodes(); ++id) {
    const Node& n = fusion.node(Value{id});
    key += op_name(n.op);
    key += '(';
    for (Value v : n.operands) key += std::to_string(v.id) + ',';
    key += ')';
    for (const auto& [name, value] : n.attrs.items()) {
      key += name;
      key += '=';
      if (size_valued(name) && std::holds_alternative<std::vector<int64_t>>(value))
        append_extents(key, std::get<std::vector<int64_t>>(value));
      else if (const Number* number = std::get_if<Number>(&value))  // a constant: sizes make some (1 / N)
        key += number_class(*number);
      else if (name != "name")  // an input's name is not structure
        key += attr_value_to_string(value);
      key += ';';
    }
    // The one size limit of the scheduler predicates: a reduction small enough to inline.
    if (n.category() == OpCategory::Reduction &&
        is_inlinable_reduction(n, fusion, options.rules.limits.max_inlined_reduction))
      key += "inlined;";
    key += dtype_name(n.type.dtype);
    key += n.type.is_scalar ? "s" : "";
    append_extents(key, n.type.shape);
    if (n.op == OpKind::Input && !n.type.is_scalar) append_extents(key, fusion.input_strides(Value{id}));
    key += '\n';
  }
  for (const FusionOutput& out : fusion.outputs()) key += "out " + std::to_string(out.value.id) + '\n';
  // The options that steer the search and what it may accept.
  const SegmentRules& rules = options.rules;
  key += std::string(strategy_name(options.strategy)) + ' ' + std::to_string(options.time_budget_seconds) +
         ' ' + std::to_string(options.state_budget) + ' ' + std::to_string(options.maximal_groups_only) +
         std::to_string(options.prove_bytes) + ' ' + std::to_string(options.bytes_time_budget_seconds) + ' ' +
         std::to_string(options.bytes_state_budget) + ' ' + std::to_string(rules.duplicate_cheap_ops) +
         std::to_string(rules.cut_before_slice_pad) + ' ' +
         std::to_string(rules.limits.max_inlined_reduction) + ' ' +
         std::to_string(options.greedy.improve_windows) + ' ' + std::to_string(options.greedy.window_groups) +
         ' ' + std::to_string(options.greedy.window_max_nodes) + ' ' +
         std::to_string(options.greedy.time_budget_seconds);
  for (auto [a, b] : rules.must_cut) key += " cut " + std::to_string(a) + ',' + std::to_string(b);
  return key;
}

SegmentationCache& SegmentationCache::shared() {
  static SegmentationCache* cache = new SegmentationCache();  // lives until exit
  return *cache;
}

std::optional<SegmentedFusion> SegmentationCache::reuse(const std::string& key, const Fusion& fusion) {
  std::optional<SegmentedFusion> found;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = entries_.find(key);
    if (it == entries_.end()) return std::nullopt;
    order_.splice(order_.begin(), order_, it->second.second);
    const SegmentedFusion& cached = it->second.first;
    found.emplace(SegmentedFusion{.fusion = fusion,
                                  .groups = cached.groups,
                                  .duplicable = cached.duplicable,
                                  .must_cut = cached.must_cut,
                                  .limits = cached.limits,
                                  .strategy = cached.strategy,
                                  .proven_optimal = cached.proven_optimal,
                                  .bytes_proven_optimal = cached.bytes_proven_optimal});
  }
  SegmentedFusion& reused = *found;
  if (reused.duplicable.size() != static_cast<size_t>(fusion.num_nodes())) return std::nullopt;
  try {
    // The groups' boundaries for these sizes, then the whole segmentation checked as the segmenter's
    // own result is: every group accepted by its scheduler at these extents.
    fill_group_boundaries(reused.fusion, reused.duplicable, reused.groups);
    check_segmentation(reused);
  } catch (const Error&) {
    return std::nullopt;  // a group these sizes do not admit: search afresh
  }
  return found;
}

SegmentedFusion SegmentationCache::segment(const Fusion& fusion, const SegmentOptions& options,
                                           bool* reused) {
  const std::string key = segmentation_key(fusion, options);
  if (std::optional<SegmentedFusion> hit = reuse(key, fusion)) {
    if (reused) *reused = true;
    if (segments_dump_requested())
      std::cerr << "(reused: the segmentation of an earlier size of this structure and size class)\n"
                << dump_segments(*hit);
    return std::move(*hit);
  }
  if (reused) *reused = false;
  SegmentedFusion segmented = segment_fusion(fusion, options);
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = entries_.find(key);
  if (it != entries_.end()) {  // another thread's, or one these sizes rejected: the newest wins
    it->second.first = segmented;
    order_.splice(order_.begin(), order_, it->second.second);
    return segmented;
  }
  order_.push_front(key);
  entries_.emplace(key, std::make_pair(segmented, order_.begin()));
  if (entries_.size() > kCapacity) {
    entries_.erase(order_.back());
    order_.pop_back();
  }
  return segmented;
}

void SegmentationCache::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  entries_.clear();
  order_.clear();
}

size_t SegmentationCache::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return entries_.size();
}

}  // namespace seam
