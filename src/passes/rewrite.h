// Rebuilding a fusion: the shared machinery of all passes. A pass walks the source nodes in order and,
// for each, either copies it (with its operands remapped to the rebuilt values) or maps it to another
// value of the new fusion. Everything goes through a Builder, so every new op is type-checked again.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "ir/builder.h"
#include "ir/fusion.h"

namespace seam {

// An op about to be added to a builder: the form rewrite rules inspect and produce before committing.
struct ProposedNode {
  OpKind op;
  std::vector<Value> operands;  // values of the builder being filled
  Attrs attrs;
  // The declared result type: required for leaves; for other ops, when set, the builder checks it.
  std::optional<Type> type;
};

// Maps the values of a source fusion to values of the fusion being built.
class FusionRewriter {
 public:
  explicit FusionRewriter(const Fusion& source);

  const Fusion& source() const { return source_; }
  Builder& builder() { return builder_; }

  // The new value standing for a source value; it must have been copied or mapped already.
  Value lookup(Value old) const;
  bool is_mapped(Value old) const;
  // Makes `replacement` (a value of the new fusion, of exactly the same type) stand for `old`.
  void map(Value old, Value replacement);
  // The source node with its operands looked up, ready to be added or rewritten.
  ProposedNode propose(Value old) const;
  // Adds the source node unchanged (operands remapped) and maps it; returns the new value.
  Value copy(Value old);

  // Finishes the new fusion with the source's outputs, looked up, in order and with their names.
  Fusion finish();

 private:
  const Fusion& source_;
  Builder builder_;
  std::vector<Value> mapping_;  // by source node id; invalid until copied or mapped
};

// Adds a proposed node to a builder as it is.
Value add_proposed(Builder& builder, const ProposedNode& node);

// A local rewrite: given a proposed node (operands already rebuilt), returns the value that replaces
// it, built into `builder`, or nullopt to keep the node as it is.
using NodeRewrite = std::function<std::optional<Value>(Builder& builder, const ProposedNode& node)>;

// Rebuilds `source` node by node, applying `rewrite` to every node except inputs (which are always
// copied: they are the calling convention). Nodes made dead by a rewrite stay; dead_code removes them.
Fusion rewrite_each_node(const Fusion& source, const NodeRewrite& rewrite);

// True when both fusions have the same nodes (op, operands, attributes, types), outputs and name.
bool same_structure(const Fusion& a, const Fusion& b);

}  // namespace seam
