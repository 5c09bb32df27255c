// The graph the segmenter partitions: the fusion's "owned" nodes (every non-input node that is not a
// duplicated cheap op, plus cheap ops that are fusion outputs, which someone must write), what each one
// reads across a kernel boundary, and memoized scheduler predicates over sets of them.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ir/fusion.h"
#include "schedule/pointwise_scheduler.h"
#include "schedule/scheduler_kind.h"
#include "schedule/view.h"
#include "segment/node_set.h"

namespace seam {

// What the partition must respect beyond the schedulers.
struct SegmentRules {
  // Copy cheap ops (segment/mark_cheap_ops.h) into each consuming kernel instead of materializing them.
  bool duplicate_cheap_ops = true;
  // With duplicate_cheap_ops: also chains of widening ops of computed values (segment/mark_cheap_ops.cpp).
  bool recompute_widening_chains = true;
  // nvFuser's rule in the seed report: a slice or pad never shares a kernel with its operand's producer.
  bool cut_before_slice_pad = false;
  // Pairs of node ids that must land in different groups. Both must be owned nodes (not inputs, not
  // duplicated cheap ops); a pair naming anything else is a seam::Error.
  std::vector<std::pair<int32_t, int32_t>> must_cut;
  // What the scheduler predicates may accept (small reductions inlined into pointwise kernels, ...).
  ScheduleLimits limits;
};

class SegmentGraph {
 public:
  SegmentGraph(const Fusion& fusion, const SegmentRules& rules);

  const Fusion& fusion() const { return *fusion_; }
  // Owned nodes get dense indices 0..size()-1 in node-id (so topological) order.
  int size() const { return static_cast<int>(owned_.size()); }
  int32_t node_id(int local) const { return owned_[static_cast<size_t>(local)]; }
  int local_of(int32_t id) const { return local_of_[static_cast<size_t>(id)]; }
  // Per node id: copied into each kernel that reads it.
  const std::vector<bool>& duplicated() const { return duplicated_; }
  const ScheduleLimits& limits() const { return limits_; }
  const std::vector<std::pair<int, int>>& must_cut() const { return must_cut_; }  // local indices

  // Owned nodes this one depends on / that depend on it (through duplicated ops too).
  const std::vector<int>& preds(int local) const { return preds_[static_cast<size_t>(local)]; }
  const std::vector<int>& succs(int local) const { return succs_[static_cast<size_t>(local)]; }
  // Value ids read by the node or its duplicated operands: fusion inputs and owned nodes, ascending.
  const std::vector<int32_t>& reads(int local) const { return reads_[static_cast<size_t>(local)]; }
  // Duplicated cheap ops the node needs, ascending.
  const std::vector<int32_t>& duplicated_for(int local) const { return dups_[static_cast<size_t>(local)]; }
  bool is_fusion_output(int local) const { return is_output_[static_cast<size_t>(local)]; }
  int64_t value_bytes(int32_t id) const { return fusion_->type(Value{id}).bytes(); }

  // A fusion input the node reads (through its duplicated ops), the views of it the node reads (ids into
  // a table of this graph, ascending) and the bytes of their union (segment/read_footprint.h).
  struct InputRead {
    int32_t input;
    std::vector<int> views;
    int64_t bytes;
  };
  // One entry per fusion input in reads(local), ascending by input.
  const std::vector<InputRead>& input_reads(int local) const {
    return input_reads_[static_cast<size_t>(local)];
  }
  // The nodes that read `input` and are no view of an input (not accepted by NoOp alone), with the bytes
  // of the part each reads (InputRead::bytes), by bytes descending, then by node ascending: what the
  // exact search's lower bound takes the largest of.
  struct InputReader {
    int local;
    int64_t bytes;
  };
  const std::vector<InputReader>& input_readers(int32_t input) const {
    return input_readers_[static_cast<size_t>(input)];
  }
  // Nodes that launch alone and fuse with nothing (a matmul, a scan, a scatter): each is a launch of its own.
  bool launches_alone(int local) const {
    return accepts_alone(SchedulerKind::Matmul, local) || accepts_alone(SchedulerKind::Scan, local) ||
           accepts_alone(SchedulerKind::Scatter, local);
  }
  // Nodes accepted alone by neither NoOp nor launches_alone: each needs some launching kernel besides those.
  const NodeSet& needs_kernel() const { return needs_kernel_; }
  // Bytes of the union of the views (ids from input_reads, ascending, all of `input`). Memoized.
  int64_t input_bytes(int32_t input, const std::vector<int>& views) const;

  NodeSet empty_set() const { return NodeSet(size()); }
  NodeSet all() const;
  std::vector<int32_t> node_ids(const NodeSet& set) const;
  std::vector<int32_t> node_ids(std::span<const int> locals) const;

  // The scheduler's predicate on the set; false too when the set holds both nodes of a must-cut pair
  // (which keeps every predicate hereditary). Memoized.
  bool accepts(SchedulerKind kind, const NodeSet& set) const;
  // Precomputed accepts(kind, {local}).
  bool accepts_alone(SchedulerKind kind, int local) const;
  // The first kind of the registry order that accepts the set.
  std::optional<SchedulerKind> classify(const NodeSet& set) const;
  // The same on a sorted list of local indices, not memoized: for the greedy strategies, whose sets are
  // small and asked about about once, and which must not build a graph-sized bitset per question.
  bool accepts(SchedulerKind kind, std::span<const int> sorted_members) const;
  std::optional<SchedulerKind> classify(std::span<const int> sorted_members) const;
  int64_t predicate_calls() const { return predicate_calls_; }

 private:
  // For a row or reduction kernel (`kind`), adds to `ids` (sorted node ids) the duplicated ops of chains
  // from computed values (segment/mark_cheap_ops.cpp) whose root is in the group: the kernel computes
  // them between the root and its readers, so its predicate must judge them too.
  void add_own_chains(SchedulerKind kind, const std::function<bool(int)>& contains,
                      std::span<const int> members, std::vector<int32_t>& ids) const;

  const Fusion* fusion_;
  ScheduleLimits limits_;
  std::vector<int32_t> owned_;
  std::vector<int> local_of_;
  std::vector<bool> duplicated_;
  std::vector<std::vector<int>> preds_, succs_;
  std::vector<std::vector<int32_t>> reads_, dups_;
  // Per local node, (root, op) for each duplicated op it reads on a chain from a computed value (the root).
  std::vector<std::vector<std::pair<int, int32_t>>> chain_ops_;
  std::vector<bool> is_output_;
  std::vector<std::vector<InputRead>> input_reads_;
  std::vector<std::vector<InputReader>> input_readers_;  // per value id
  NodeSet needs_kernel_;
  std::vector<StridedLayout> views_;  // the distinct views of inputs that owned nodes read
  mutable std::map<std::pair<int32_t, std::vector<int>>, int64_t> input_bytes_memo_;
  std::vector<std::pair<int, int>> must_cut_;
  std::vector<std::vector<int>> cut_partners_;  // per local node, the nodes it must not share a group with
  std::vector<uint8_t> alone_;                  // bit k: accepted alone by kind k
  // Per set (its node ids: a key the size of the group, not of the graph): bit k known, bit 8+k accepted.
  struct IdsHash {
    size_t operator()(const std::vector<int32_t>& ids) const;
  };
  mutable std::unordered_map<std::vector<int32_t>, uint16_t, IdsHash> memo_;
  mutable int64_t predicate_calls_ = 0;
};

}  // namespace seam
