// A fusion: an immutable DAG of ops over values. Each node produces exactly one value, and a value is
// named by the index of the node that produces it, so nodes are stored in a topological order.
// Fusions are made by Builder (ir/builder.h) or the parser, which check every op as it is added.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ir/attr.h"
#include "ir/op.h"
#include "ir/type.h"

namespace seam {

// A handle to a value of a fusion (or of a builder): the index of its defining node.
struct Value {
  int32_t id = -1;
  bool valid() const { return id >= 0; }
  friend bool operator==(Value, Value) = default;
  friend auto operator<=>(Value, Value) = default;
};

struct Node {
  OpKind op;
  std::vector<Value> operands;
  Attrs attrs;
  Type type;  // of the value this node produces
  // The name the user gave the value (`%q_rot` in a file: "q_rot"), kept through rebuilding so that dumps
  // can point back at the source; empty when it had none or only a number. Not part of the meaning.
  std::string source_name;

  const OpInfo& info() const { return op_info(op); }
  OpCategory category() const { return info().category; }
};

struct FusionOutput {
  Value value;
  std::string name;  // may be empty
};

class Fusion {
 public:
  Fusion(std::string name, std::vector<Node> nodes, std::vector<FusionOutput> outputs);

  const std::string& name() const { return name_; }
  const std::vector<Node>& nodes() const { return nodes_; }
  const Node& node(Value v) const { return nodes_.at(static_cast<size_t>(v.id)); }
  const Type& type(Value v) const { return node(v).type; }
  int num_nodes() const { return static_cast<int>(nodes_.size()); }

  // Input nodes in the order they appear; that order is the calling convention.
  const std::vector<Value>& inputs() const { return inputs_; }
  const std::vector<FusionOutput>& outputs() const { return outputs_; }
  // Nodes that use v as an operand, ascending, each once.
  const std::vector<Value>& consumers(Value v) const { return consumers_.at(static_cast<size_t>(v.id)); }
  bool is_output(Value v) const;

  // Strides (elements) an input tensor is laid out with: its strides attribute or contiguous.
  Shape input_strides(Value input) const;

 private:
  std::string name_;
  std::vector<Node> nodes_;
  std::vector<FusionOutput> outputs_;
  std::vector<Value> inputs_;
  std::vector<std::vector<Value>> consumers_;
};

}  // namespace seam
