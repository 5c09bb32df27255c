#include "passes/rewrite.h"

#include "support/error.h"

namespace seam {

FusionRewriter::FusionRewriter(const Fusion& source)
    : source_(source), builder_(source.name()), mapping_(static_cast<size_t>(source.num_nodes())) {}

Value FusionRewriter::lookup(Value old) const {
  SEAM_ASSERT(is_mapped(old), "value %", old.id, " used before it was rebuilt");
  return mapping_[static_cast<size_t>(old.id)];
}

bool FusionRewriter::is_mapped(Value old) const {
  SEAM_ASSERT(old.id >= 0 && old.id < source_.num_nodes(), "value %", old.id, " is not in the source");
  return mapping_[static_cast<size_t>(old.id)].valid();
}

void FusionRewriter::map(Value old, Value replacement) {
  SEAM_ASSERT(!is_mapped(old), "value %", old.id, " rebuilt twice");
  SEAM_ASSERT(builder_.type(replacement) == source_.type(old), "a rewrite changed the type of %", old.id,
              " from ", source_.type(old).to_string(), " to ", builder_.type(replacement).to_string());
  mapping_[static_cast<size_t>(old.id)] = replacement;
  // The value that stands for the old one carries its name in dumps, unless it has one of its own.
  const std::string& name = source_.node(old).source_name;
  if (!name.empty() && builder_.node(replacement).source_name.empty())
    builder_.set_source_name(replacement, name);
}

ProposedNode FusionRewriter::propose(Value old) const {
  const Node& node = source_.node(old);
  ProposedNode proposed{node.op, {}, node.attrs, node.type};
  proposed.operands.reserve(node.operands.size());
  for (Value operand : node.operands) proposed.operands.push_back(lookup(operand));
  return proposed;
}

Value FusionRewriter::copy(Value old) {
  Value added = add_proposed(builder_, propose(old));
  map(old, added);
  return added;
}

Fusion FusionRewriter::finish() {
  std::vector<FusionOutput> outputs;
  for (const FusionOutput& out : source_.outputs()) outputs.push_back({lookup(out.value), out.name});
  return builder_.finish(std::move(outputs));
}

Value add_proposed(Builder& builder, const ProposedNode& node) {
  return builder.add(node.op, node.operands, node.attrs, node.type);
}

Fusion rewrite_each_node(const Fusion& source, const NodeRewrite& rewrite) {
  FusionRewriter rewriter(source);
  for (int32_t id = 0; id < source.num_nodes(); ++id) {
    Value old{id};
    if (source.node(old).op == OpKind::Input) {
      rewriter.copy(old);
      continue;
    }
    ProposedNode proposed = rewriter.propose(old);
    std::optional<Value> replacement = rewrite(rewriter.builder(), proposed);
    rewriter.map(old, replacement ? *replacement : add_proposed(rewriter.builder(), proposed));
  }
  return rewriter.finish();
}

bool same_structure(const Fusion& a, const Fusion& b) {
  if (a.name() != b.name() || a.num_nodes() != b.num_nodes() || a.outputs().size() != b.outputs().size())
    return false;
  for (int32_t id = 0; id < a.num_nodes(); ++id) {
    const Node& x = a.node(Value{id});
    const Node& y = b.node(Value{id});
    if (x.op != y.op || x.operands != y.operands || !(x.attrs == y.attrs) || !(x.type == y.type))
      return false;
  }
  for (size_t i = 0; i < a.outputs().size(); ++i)
    if (a.outputs()[i].value != b.outputs()[i].value || a.outputs()[i].name != b.outputs()[i].name)
      return false;
  return true;
}

}  // namespace seam
