#include "lower/kir_printer.h"

#include <sstream>

#include "support/error.h"

namespace seam {
namespace {

std::string var(const kir::Var& v) {
  return v.name + ":" + std::string(dtype_name(v.dtype)) + (v.lanes > 1 ? "x" + std::to_string(v.lanes) : "");
}

std::string bounds(const std::vector<kir::Bound>& list) {
  if (list.empty()) return "true";
  std::string out;
  for (const kir::Bound& b : list) {
    if (!out.empty()) out += " && ";
    std::string term = kir::to_string(b.index);
    if (b.lo) term = std::to_string(*b.lo) + " <= " + term;
    if (b.hi) term += " < " + std::to_string(*b.hi);
    out += term;
  }
  return out;
}

std::string expr(const kir::Expr& e) {
  std::string args;
  for (const kir::Var& a : e.args) args += (args.empty() ? "" : ", ") + a.name;
  switch (e.kind) {
    case kir::Expr::Kind::Load: {
      std::string out = std::string(e.reused ? "load.reused" : "load") + " p" + std::to_string(e.param) +
                        "[" + kir::to_string(e.offset) + "]";
      if (!e.cache.empty()) out += (e.cache_fill ? " into " : " from ") + e.cache;
      if (e.row_edge && !e.args.empty())
        out += " masked by " + e.args[0].name + (e.unaligned ? ", unaligned" : "");
      else if (e.row_edge)
        out += e.unaligned ? " in row, unaligned" : " in row";
      else if (e.unaligned)
        out += " unaligned";
      for (const kir::LoadChoice& c : e.choices)
        out += " | p" + std::to_string(c.param) + "[" + kir::to_string(c.offset) + "] if " +
               kir::to_string(c.index) + " < " + std::to_string(c.below);
      for (const kir::Guard& g : e.guards)
        out += " guard(" + std::to_string(g.region) + ":" + std::to_string(g.piece) + "/" +
               std::to_string(g.pieces) + ": " + bounds(g.bounds) + ")";
      return out;
    }
    case kir::Expr::Kind::Literal: return e.literal.to_string();
    case kir::Expr::Kind::Scalar: return "scalar p" + std::to_string(e.param);
    case kir::Expr::Kind::Convert: return "convert " + args;
    case kir::Expr::Kind::Call:
      return std::string(op_name(e.op)) + (e.approximate ? ".approx(" : "(") + args + ")";
    case kir::Expr::Kind::Select: return "select(" + args + ")";
    case kir::Expr::Kind::RowEdge: return "in_row(" + args + ", " + e.literal.to_string() + ")";
    case kir::Expr::Kind::Iota:
      return "iota " + e.literal.to_string() + " + (" + kir::to_string(e.offset) + " + lane) * " +
             e.step.to_string();
    case kir::Expr::Kind::Random:
      return std::string(op_name(e.op)) + "(" + args + ") at " + kir::to_string(e.offset) + " + lane * " +
             e.step.to_string();
    case kir::Expr::Kind::InBounds: return "in_bounds(" + bounds(e.bounds) + ")";
    case kir::Expr::Kind::LaneMask:
      return "lane_mask<" + std::to_string(e.extent) + ">(" + bounds(e.bounds) + ")";
    case kir::Expr::Kind::CheckedIndex: {
      std::string out = "checked_index(" + args + ", " + std::to_string(e.extent) + ")";
      for (const kir::Guard& g : e.guards) out += " guard(" + bounds(g.bounds) + ")";
      return out;
    }
  }
  SEAM_ASSERT(false);
}

void print_block(const kir::Block& block, int depth, std::ostringstream& out) {
  const std::string pad(static_cast<size_t>(depth) * 2, ' ');
  for (const kir::Stmt& s : block) {
    switch (s.kind) {
      case kir::Stmt::Kind::Let:
        out << pad << "let " << s.name << " = " << kir::to_string(s.index) << "\n";
        break;
      case kir::Stmt::Kind::Define: out << pad << var(s.var) << " = " << expr(s.expr) << "\n"; break;
      case kir::Stmt::Kind::Declare:
        out << pad << "declare " << var(s.var) << " = " << s.literal.to_string() << "\n";
        break;
      case kir::Stmt::Kind::Assign: out << pad << s.var.name << " := " << s.source.name << "\n"; break;
      case kir::Stmt::Kind::Store:
        out << pad << "store p" << s.param << "[" << kir::to_string(s.index) << "] = " << s.source.name
            << (s.row_edge ? (s.var.name.empty() ? " in row" : " masked by " + s.var.name) : "")
            << (s.row_edge && s.unaligned ? ", unaligned" : "") << "\n";
        break;
      case kir::Stmt::Kind::Comment: out << pad << "// " << s.name << "\n"; break;
      case kir::Stmt::Kind::If:
        out << pad << "if " << bounds(s.bounds) << " {\n";
        print_block(s.then_block, depth + 1, out);
        if (!s.else_block.empty()) {
          out << pad << "} else {\n";
          print_block(s.else_block, depth + 1, out);
        }
        out << pad << "}\n";
        break;
      case kir::Stmt::Kind::Loop:
        out << pad << "loop " << s.name << " in [" << s.begin << ", " << s.extent << ") unroll " << s.unroll
            << " {\n";
        print_block(s.then_block, depth + 1, out);
        out << pad << "}\n";
        break;
      case kir::Stmt::Kind::RowLoop:
        out << pad << "row_loop " << s.name << (s.chunk > 0 ? " chunks of " + std::to_string(s.chunk) : "")
            << " {\n";
        print_block(s.then_block, depth + 1, out);
        if (s.chunk > 0) {
          out << pad << "} after each chunk {\n";
          print_block(s.else_block, depth + 1, out);
        }
        out << pad << "}\n";
        break;
      case kir::Stmt::Kind::RowReduce:
        out << pad << var(s.var) << " = row_" << op_name(s.expr.op) << "(" << s.source.name << ")\n";
        break;
      case kir::Stmt::Kind::RowReduceOnline:
        out << pad << var(s.var) << ", " << var(s.expr.args.at(1)) << " = row_online"
            << (s.expr.approximate ? "_approx" : "") << "(" << s.source.name << ", " << s.expr.args.at(0).name
            << ")\n";
        break;
      case kir::Stmt::Kind::OuterAccumulate:
        out << pad << "outer_" << op_name(s.expr.op) << " " << var(s.var) << " += " << s.source.name << "\n";
        break;
    }
  }
}

}  // namespace

std::string print_kir_block(const kir::Block& block, int depth) {
  std::ostringstream out;
  print_block(block, depth, out);
  return out.str();
}

std::string print_kir(const kir::Kernel& kernel) {
  std::ostringstream out;
  out << "kernel " << kernel.name << (kernel.index64 ? " (64-bit indices)" : "")
      << (kernel.keep_reused_loads ? " (reused loads kept)" : "")
      << (kernel.streaming_stores ? " (streaming stores)" : "") << "\n";
  for (size_t p = 0; p < kernel.params.size(); ++p) {
    const kir::Param& param = kernel.params[p];
    const char* kind = param.kind == kir::Param::Kind::Output  ? "output"
                       : param.kind == kir::Param::Kind::Input ? "input"
                                                               : "scalar";
    out << "  p" << p << ": " << kind << " " << param.name << " " << dtype_name(param.dtype) << "\n";
  }
  if (kernel.rows) {
    const kir::RowLaunch& r = *kernel.rows;
    out << "  rows " << r.rows << " x " << r.reduced << " reduced, " << r.rows_per_block << " rows x "
        << r.threads_per_row << " threads per block" << (r.lanes_contiguous ? "" : ", lanes strided")
        << ", vectors of " << r.vector << (r.peel ? " (peeled)" : "");
    if (r.iterations > 0) out << ", persistent: " << r.iterations << " iterations";
    for (const kir::RowCache& c : r.caches)
      out << ", cache " << c.name << ":" << dtype_name(c.dtype) << "x" << c.lanes
          << (c.per_row ? " per row" : "");
    if (r.load_ahead) out << ", loaded ahead";
    out << " {\n";
    print_block(r.body, 2, out);
    out << "  }\n";
    if (!r.outer.empty()) {
      out << "  outer reductions over " << r.partial_blocks << " blocks:";
      for (const kir::OuterReduction& o : r.outer) out << " " << o.accumulator << " -> " << o.total;
      out << ", per column seam_col {\n";
      print_block(r.finish, 2, out);
      out << "  }\n";
    }
  }
  for (const kir::OutputProgram& o : kernel.outputs) {
    const kir::ChunkOrder& order = o.order;
    out << "  output p" << o.param << ": " << o.chunks << " chunks of " << o.lanes << " lanes (" << o.chunk
        << ")";
    if (order.tile > 1) out << ", tiles of " << order.tile << " rows";
    if (order.copies > 1) out << ", " << order.copies << " copies on axis " << order.copied_axis;
    if (order.run > 0) out << ", runs of " << order.run;
    if (order.group > 1) out << ", groups of " << order.group << " on axis " << order.group_axis;
    out << " {\n";
    print_block(o.body, 2, out);
    out << "  }\n";
  }
  return out.str();
}

}  // namespace seam
