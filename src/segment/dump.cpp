#include "segment/dump.h"

#include <cstdio>
#include <sstream>

namespace seam {
namespace {

std::string value_list(const Fusion& fusion, const std::vector<Value>& values) {
  std::string out;
  for (Value v : values) {
    if (!out.empty()) out += ", ";
    out += "%" + std::to_string(v.id) + " " + fusion.type(v).to_string();
  }
  return out.empty() ? "-" : out;
}

std::string op_label(const Fusion& fusion, int32_t id) {
  return "%" + std::to_string(id) + " = " + std::string(op_name(fusion.node(Value{id}).op));
}

}  // namespace

std::string dump_segments(const SegmentedFusion& s, const DumpOptions& options) {
  std::ostringstream out;
  const Fusion& fusion = s.fusion;
  out << "segmentation of " << fusion.name() << " (" << s.strategy << ")\n";
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
    for (int32_t id : group.nodes) out << "  " << op_label(fusion, id) << "\n";
  }
  out << "kernels: " << s.num_kernels() << "\n";
  out << "boundary bytes: " << s.boundary_bytes() << "\n";
  out << "proven optimal: "
      << (!s.proven_optimal        ? "no"
          : s.bytes_proven_optimal ? "yes (kernels and bytes)"
                                   : "yes (kernels; bytes not proven within the budget)")
      << "\n";
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
  out << "}\n";
  return out.str();
}

}  // namespace seam
