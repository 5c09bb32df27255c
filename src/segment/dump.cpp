#include "segment/dump.h"

#include <cstdio>
#include <sstream>

#include "segment/cost_model.h"

namespace seam {
namespace {

// "%12" or, when the user's file named the value, "%12 (q_rot)": numbers are those of the fusion as
// segmented (after the passes), names are the file's.
std::string value_label(const Fusion& fusion, int32_t id) {
  const std::string& name = fusion.node(Value{id}).source_name;
  return "%" + std::to_string(id) + (name.empty() ? "" : " (" + name + ")");
}

// The names under which the fusion returns v, if any: " -> q, k".
std::string returned_as(const Fusion& fusion, Value v) {
  std::string names;
  for (size_t i = 0; i < fusion.outputs().size(); ++i) {
    if (fusion.outputs()[i].value != v) continue;
    const std::string& name = fusion.outputs()[i].name;
    names += (names.empty() ? " -> " : ", ") + (name.empty() ? "output " + std::to_string(i) : name);
  }
  return names;
}

std::string value_list(const Fusion& fusion, const std::vector<Value>& values) {
  std::string out;
  for (Value v : values) {
    if (!out.empty()) out += ", ";
    out += value_label(fusion, v.id) + " " + fusion.type(v).to_string() + returned_as(fusion, v);
  }
  return out.empty() ? "-" : out;
}

std::string op_label(const Fusion& fusion, int32_t id) {
  return value_label(fusion, id) + " = " + std::string(op_name(fusion.node(Value{id}).op));
}

}  // namespace

std::string dump_segments(const SegmentedFusion& s, const DumpOptions& options) {
  std::ostringstream out;
  const Fusion& fusion = s.fusion;
  out << "segmentation of " << fusion.name() << " (" << s.strategy << ")\n";
  out << "values numbered as `seam passes` prints the fusion (with --no-passes: as `seam print`); names in "
         "parentheses are the file's\n";
  for (size_t g = 0; g < s.groups.size(); ++g) {
    const SegmentGroup& group = s.groups[g];
    out << "group " << g << ": " << scheduler_name(group.kind) << "\n";
    out << "  inputs: " << value_list(fusion, group.inputs) << "\n";
    out << "  outputs: " << value_list(fusion, group.outputs) << "\n";
    if (!group.duplicated.empty()) {
      out << "  duplicated:";
      for (size_t i = 0; i < group.duplicated.size(); ++i)
        out << (i ? ", " : " ") << op_label(fusion, group.duplicated[i]);
      out << "\n";
    }
    if (group.kind != SchedulerKind::NoOp) out << "  bytes: " << group.boundary_bytes << "\n";
    for (int32_t id : group.nodes) out << "  " << op_label(fusion, id) << "\n";
  }
  out << "kernels: " << s.num_kernels() << "\n";
  out << "boundary bytes: " << s.boundary_bytes() << "\n";
  out << "proven optimal: "
      << (!s.proven_optimal        ? "no"
          : s.bytes_proven_optimal ? "yes (kernels and bytes)"
                                   : "yes (among maximal groups; not over all groups within the budget)")
      << "\n";
  out << "floor estimate: " << s.floor_bytes << " bytes\n";
  const int64_t cost = s.boundary_bytes() + int64_t{s.num_kernels()} * kLaunchCostBytes;
  out << "cost: " << cost << " (bytes + " << kLaunchCostBytes << " per launch), proven lower bound "
      << s.lower_bound_cost << "\n";
  if (options.show_time) {
    char line[96];
    std::snprintf(line, sizeof line, "search: %.3f ms, %lld states\n", s.search_seconds * 1e3,
                  static_cast<long long>(s.states_explored));
    out << line;
  }
  return out.str();
}

std::string segments_to_dot(const SegmentedFusion& s) {
  static const char* kColours[] = {"#a6cee3", "#b2df8a", "#fb9a99", "#fdbf6f", "#cab2d6",
                                   "#ffff99", "#1f78b4", "#33a02c", "#e31a1c", "#ff7f00"};
  const Fusion& fusion = s.fusion;
  std::ostringstream out;
  out << "digraph \"" << fusion.name()
      << "\" {\n  rankdir=TB;\n  node [shape=box, fontname=\"monospace\"];\n";
  std::vector<bool> in_group(static_cast<size_t>(fusion.num_nodes()), false);
  for (size_t g = 0; g < s.groups.size(); ++g) {
    const SegmentGroup& group = s.groups[g];
    const char* colour = group.kind == SchedulerKind::NoOp ? "#dddddd" : kColours[g % 10];
    out << "  subgraph cluster_" << g << " {\n    label=\"group " << g << ": " << scheduler_name(group.kind)
        << "\";\n    style=filled; fillcolor=\"" << colour << "\";\n";
    for (int32_t id : group.nodes) {
      in_group[id] = true;
      out << "    n" << id << " [label=\"" << op_label(fusion, id) << "\\n"
          << fusion.type(Value{id}).to_string() << "\", style=filled, fillcolor=white];\n";
    }
    out << "  }\n";
  }
  for (int32_t id = 0; id < fusion.num_nodes(); ++id) {
    if (in_group[id]) continue;
    const Node& n = fusion.node(Value{id});
    bool input = n.op == OpKind::Input;
    out << "  n" << id << " [label=\"" << op_label(fusion, id) << "\\n"
        << n.type.to_string() << "\"" << (input ? "" : ", style=dashed") << "];\n";
  }
  for (int32_t id = 0; id < fusion.num_nodes(); ++id)
    for (Value operand : fusion.node(Value{id}).operands)
      out << "  n" << operand.id << " -> n" << id << ";\n";
  for (size_t i = 0; i < fusion.outputs().size(); ++i) {
    const FusionOutput& output = fusion.outputs()[i];
    out << "  out" << i << " [label=\"" << (output.name.empty() ? "output " + std::to_string(i) : output.name)
        << "\", shape=ellipse];\n  n" << output.value.id << " -> out" << i << ";\n";
  }
  out << "  legend [shape=note, label=\"" << fusion.name() << ": " << s.num_kernels()
      << " kernel(s)\\lcoloured box: one kernel (group N: its scheduler)\\lgrey box: no kernel (views of "
         "inputs)\\lsolid outside a box: a fusion input\\ldashed: recomputed in each kernel that uses "
         "it\\lellipse: a fusion output\\l%N: value numbers after the passes; (name): the file's\\l\"];\n";
  out << "}\n";
  return out.str();
}

}  // namespace seam
