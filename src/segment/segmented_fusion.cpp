#include "segment/segmented_fusion.h"

#include <algorithm>
#include <functional>
#include <map>

#include "schedule/registry.h"
#include "segment/read_footprint.h"
#include "support/error.h"

namespace seam {
namespace {

// Per node id, the index of the group that computes it, or -1.
std::vector<int> owners(const Fusion& fusion, const std::vector<SegmentGroup>& groups) {
  std::vector<int> owner(static_cast<size_t>(fusion.num_nodes()), -1);
  for (size_t g = 0; g < groups.size(); ++g)
    for (int32_t id : groups[g].nodes) {
      SEAM_CHECK(id >= 0 && id < fusion.num_nodes(), "group ", g, " names node %", id,
                 ", which the fusion does not have");
      SEAM_CHECK(owner[id] < 0, "node %", id, " is in group ", owner[id], " and in group ", g);
      owner[id] = static_cast<int>(g);
    }
  return owner;
}

struct Boundary {
  std::vector<Value> inputs;
  std::vector<int32_t> duplicated;
};

// What group g reads from outside and which cheap ops it recomputes; checks that it reads no later group.
// `seen` holds, per node id, the last group that visited it (one table for all groups: linear in the
// fusion, not groups x nodes).
Boundary boundary_of(const Fusion& fusion, const std::vector<bool>& duplicable, const std::vector<int>& owner,
                     int g, const std::vector<int32_t>& nodes, std::vector<int>& seen) {
  Boundary b;
  std::vector<Value> stack;
  for (int32_t id : nodes)
    for (Value operand : fusion.node(Value{id}).operands) stack.push_back(operand);
  while (!stack.empty()) {
    Value v = stack.back();
    stack.pop_back();
    if (seen[v.id] == g) continue;
    seen[v.id] = g;
    if (duplicable[v.id]) {
      b.duplicated.push_back(v.id);
      for (Value w : fusion.node(v).operands) stack.push_back(w);
      continue;
    }
    if (fusion.node(v).op == OpKind::Input) {
      b.inputs.push_back(v);
      continue;
    }
    SEAM_CHECK(owner[v.id] >= 0, "group ", g, " reads %", v.id, ", which no group computes");
    if (owner[v.id] == g) continue;
    SEAM_CHECK(owner[v.id] < g, "group ", g, " reads %", v.id, " of group ", owner[v.id],
               ", which runs later: the order is not a topological order of the quotient graph");
    b.inputs.push_back(v);
  }
  std::sort(b.inputs.begin(), b.inputs.end());
  std::sort(b.duplicated.begin(), b.duplicated.end());
  return b;
}

}  // namespace

int SegmentedFusion::num_kernels() const {
  int n = 0;
  for (const SegmentGroup& g : groups) n += launch_count(g.kind);
  return n;
}

int64_t SegmentedFusion::boundary_bytes() const {
  int64_t total = 0;
  for (const SegmentGroup& g : groups) total += g.boundary_bytes;
  return total;
}

void fill_group_boundaries(const Fusion& fusion, const std::vector<bool>& duplicable,
                           std::vector<SegmentGroup>& groups) {
  std::vector<int> owner = owners(fusion, groups);
  std::vector<bool> read_elsewhere(static_cast<size_t>(fusion.num_nodes()), false);
  std::vector<int> seen(static_cast<size_t>(fusion.num_nodes()), -1);
  for (size_t g = 0; g < groups.size(); ++g) {
    Boundary b = boundary_of(fusion, duplicable, owner, static_cast<int>(g), groups[g].nodes, seen);
    for (Value v : b.inputs) read_elsewhere[v.id] = true;
    groups[g].inputs = std::move(b.inputs);
    groups[g].duplicated = std::move(b.duplicated);
  }
  for (SegmentGroup& group : groups) {
    group.outputs.clear();
    for (int32_t id : group.nodes)
      if (read_elsewhere[id] || fusion.is_output(Value{id})) group.outputs.push_back(Value{id});
    group.boundary_bytes = 0;
    if (group.kind == SchedulerKind::NoOp) continue;
    // A fusion input costs the part of it the group's nodes read (segment/read_footprint.h).
    std::map<int32_t, std::vector<StridedLayout>> views;
    for (int32_t id : group.nodes)
      for (InputView& view : input_views_read(fusion, duplicable, id))
        views[view.input.id].push_back(std::move(view.layout));
    for (Value v : group.inputs)
      group.boundary_bytes +=
          fusion.node(v).op == OpKind::Input ? union_bytes(fusion, v, views[v.id]) : fusion.type(v).bytes();
    for (Value v : group.outputs) group.boundary_bytes += fusion.type(v).bytes();
  }
}

void check_segmentation(const SegmentedFusion& s) {
  const Fusion& fusion = s.fusion;
  SEAM_CHECK(s.duplicable.size() == static_cast<size_t>(fusion.num_nodes()),
             "duplicable flags: ", s.duplicable.size(), " for ", fusion.num_nodes(), " nodes");
  std::vector<int> owner = owners(fusion, s.groups);
  for (int32_t id = 0; id < fusion.num_nodes(); ++id) {
    const Node& n = fusion.node(Value{id});
    if (n.op == OpKind::Input) {
      SEAM_CHECK(owner[id] < 0, "fusion input %", id, " is in group ", owner[id]);
      continue;
    }
    if (owner[id] >= 0) continue;
    SEAM_CHECK(s.duplicable[id], "node %", id, " (", op_name(n.op), ") is in no group");
    SEAM_CHECK(!fusion.is_output(Value{id}), "fusion output %", id, " is in no group");
  }
  for (auto [a, b] : s.must_cut) {
    SEAM_CHECK(a >= 0 && b >= 0 && a < fusion.num_nodes() && b < fusion.num_nodes(), "must-cut pair %", a,
               ", %", b, " names a node the fusion does not have");
    SEAM_CHECK(owner[a] < 0 || owner[a] != owner[b], "must-cut nodes %", a, " and %", b, " share group ",
               owner[a]);
  }

  std::vector<SegmentGroup> expected = s.groups;
  fill_group_boundaries(fusion, s.duplicable, expected);  // also checks the order (reads of later groups)
  for (size_t g = 0; g < s.groups.size(); ++g) {
    const SegmentGroup& group = s.groups[g];
    SEAM_CHECK(!group.nodes.empty(), "group ", g, " is empty");
    SEAM_CHECK(std::is_sorted(group.nodes.begin(), group.nodes.end()), "group ", g,
               " lists its nodes out of order");
    SEAM_CHECK(can_schedule(group.kind, fusion, group.nodes, s.limits), "group ", g,
               " is not accepted by the ", scheduler_name(group.kind), " scheduler");
    SEAM_CHECK(group.inputs == expected[g].inputs, "group ", g, " lists the wrong inputs");
    SEAM_CHECK(group.outputs == expected[g].outputs, "group ", g, " lists the wrong outputs");
    SEAM_CHECK(group.duplicated == expected[g].duplicated, "group ", g, " lists the wrong duplicated ops");
    SEAM_CHECK(group.boundary_bytes == expected[g].boundary_bytes, "group ", g, " claims ",
               group.boundary_bytes, " boundary bytes, its boundary has ", expected[g].boundary_bytes);
  }
}

}  // namespace seam
