#include "codegen/kernel_printer.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <optional>
#include <set>
#include <sstream>

#include "codegen/c_type.h"
#include "codegen/literal_text.h"
#include "codegen/row_kernel_printer.h"
#include "codegen/scan_kernel_printer.h"
#include "codegen/scatter_kernel_printer.h"
#include "lower/reduction_math.h"
#include "support/error.h"

namespace seam {
namespace {

using kir::Stmt;

// "i >= lo && i < hi && ..." for a conjunction of bounds ("true" when empty), at lane `lane` (per-lane
// bounds test index + lane).
std::string condition_text(const std::vector<kir::Bound>& bounds, ConstantSpelling& spelling, int lane = 0) {
  std::string text;
  for (const kir::Bound& b : bounds) {
    std::string i = kir::to_string(b.index, spelling);
    if (b.per_lane && lane > 0) i = "(" + i + " + " + std::to_string(lane) + ")";
    if (b.lo) text += (text.empty() ? "" : " && ") + i + " >= " + spelling.integer(*b.lo);
    if (b.hi) text += (text.empty() ? "" : " && ") + i + " < " + spelling.integer(*b.hi);
  }
  return text.empty() ? "true" : text;
}

std::string guard_text(const std::vector<kir::Guard>& guards, ConstantSpelling& spelling) {
  std::vector<kir::Bound> all;
  for (const kir::Guard& g : guards) all.insert(all.end(), g.bounds.begin(), g.bounds.end());
  return condition_text(all, spelling);
}

// The values that live in memory as arrays: those a wide or guarded load fills (seam_load, seam_zero)
// and those a wide store reads. Every other value is printed as one scalar per lane (`v7_0`, `v7_1`):
// NVRTC's front end and optimizer spend about a fifth less time on such a body than on one made of
// small arrays to promote (GQA backward, docs/CODEGEN.md), and the machine code is the same.
void collect_array_values(const kir::Block& block, std::set<std::string>& arrays) {
  for (const Stmt& s : block) {
    if (s.kind == Stmt::Kind::Define && s.expr.kind == kir::Expr::Kind::Load &&
        (s.var.lanes > 1 || !s.expr.guards.empty()))
      arrays.insert(s.var.name);
    if (s.kind == Stmt::Kind::Store && s.source.lanes > 1) arrays.insert(s.source.name);
    collect_array_values(s.then_block, arrays);
    collect_array_values(s.else_block, arrays);
  }
}

std::set<std::string> array_values(const kir::Kernel& kernel) {
  std::set<std::string> arrays;
  if (kernel.rows) collect_array_values(kernel.rows->body, arrays);
  for (const kir::OutputProgram& o : kernel.outputs) collect_array_values(o.body, arrays);
  return arrays;
}

// Float arithmetic printed as C++ operators rather than through the seam_<op> helpers: the same
// operations, less for the front end to instantiate and inline. Integer ops keep their helpers (wrapping).
std::optional<std::string> float_operator(const kir::Expr& e, DType dtype) {
  if (dtype != DType::Float32 && dtype != DType::Float64) return std::nullopt;
  switch (e.op) {
    case OpKind::Add: return " + ";
    case OpKind::Sub: return " - ";
    case OpKind::Mul: return " * ";
    case OpKind::Div: return " / ";
    case OpKind::Neg: return "-";
    default: return std::nullopt;
  }
}

class BodyPrinter {
 public:
  // `arrays`: array_values(kernel), computed once per kernel by the caller.
  BodyPrinter(const kir::Kernel& kernel, const std::set<std::string>& arrays, std::ostringstream& out,
              ConstantSpelling& spelling, RowFill fill = RowFill::Load)
      : kernel_(kernel), out_(out), arrays_(arrays), spelling_(spelling), fill_(fill) {}

  void block(const kir::Block& b, int depth) {
    for (const Stmt& s : b) stmt(s, depth);
  }

 private:
  bool is_array(const kir::Var& v) const { return arrays_.count(v.name) > 0; }
  std::string ix(const kir::Index& index) const { return kir::to_string(index, spelling_); }
  // A constant of the kernel's math: floating and integer ones through the kernel's constants (an
  // argument where sizes may have made it: a mean's 1 / N, a row length as an integer), booleans as
  // literals.
  std::string literal_value(const Number& n, DType dtype) const {
    if (n.kind() == Number::Kind::Int && n.as_int() != INT64_MIN)
      return spelling_.integer_constant(n.as_int(), literal_text(n));
    if (n.kind() != Number::Kind::Float) return literal_text(n);
    return spelling_.floating(n.as_double(), literal_text(n), dtype == DType::Float32);
  }
  // Element `l` of a value: values of one lane are read as element 0 by every lane.
  std::string lane(const kir::Var& v, int l) const {
    const std::string element = std::to_string(v.lanes == 1 ? 0 : l);
    return is_array(v) ? v.name + "[" + element + "]" : v.name + "_" + element;
  }
  std::string pad(int depth) const { return std::string(2 * depth, ' '); }
  void declare(const kir::Var& v, int depth) {
    out_ << pad(depth);
    if (is_array(v)) {
      out_ << "alignas(16) " << c_type(v.dtype) << " " << v.name << "[" << v.lanes << "];\n";
      return;
    }
    out_ << c_type(v.dtype);
    for (int l = 0; l < v.lanes; ++l) out_ << (l ? ", " : " ") << lane(v, l);
    out_ << ";\n";
  }
  // `var = value` where var is defined: a declaration with initializer for a scalar lane.
  std::string define_lane(const kir::Var& v, int l, const std::string& value) const {
    return (is_array(v) ? "" : c_type(v.dtype) + " ") + lane(v, l) + " = " + value;
  }
  // One statement per lane of `v`, written out rather than as a loop for the compiler to unroll: NVRTC
  // spends less time on it (GQA backward -17-25%) and the registers are the same or fewer.
  template <typename F>
  void per_lane(const kir::Var& v, int depth, F text_of_lane) {
    for (int l = 0; l < v.lanes; ++l) out_ << pad(depth) << text_of_lane(l) << ";\n";
  }
  const kir::Param& param(int p) const { return kernel_.params[static_cast<size_t>(p)]; }

  // A row loop (kir::RowLoop): over a persistent row's iterations, over chunks of a long row (64-bit
  // bounds), or over the row's vectors. The entry point defines seam_lane, seam_lanes, seam_row_extent
  // (the row's vectors, 0 past the last row) and, for persistent kernels, seam_row_iterations
  // (kir::RowLaunch).
  void row_loop(const Stmt& s, int depth) {
    if (kernel_.rows && kernel_.rows->iterations > 0) {
      out_ << pad(depth) << "SEAM_UNROLL(" << kernel_.rows->iterations << ")\n"
           << pad(depth) << "for (idx_t seam_it = 0; seam_it < seam_row_iterations; ++seam_it) {\n"
           << pad(depth + 1) << "const idx_t " << s.name << " = seam_lane + seam_it * seam_lanes;\n"
           << pad(depth + 1) << "if (" << s.name << " < seam_row_extent) {\n";
      row_lanes(s.name, depth + 2);
      block(s.then_block, depth + 2);
      out_ << pad(depth + 1) << "}\n" << pad(depth) << "}\n";
      return;
    }
    if (s.chunk > 0) {  // the chunks' bounds in 64 bits: a chunk past the row's end may pass idx_t
      const std::string step = "(long long)seam_lanes * " + std::to_string(s.chunk);
      out_ << pad(depth) << "for (long long " << s.name << "_chunk = seam_lane; " << s.name
           << "_chunk < seam_row_extent; " << s.name << "_chunk += " << step << ") {\n"
           << pad(depth + 1) << "const idx_t " << s.name << "_end = (idx_t)(" << s.name << "_chunk + " << step
           << " < seam_row_extent ? " << s.name << "_chunk + " << step << " : seam_row_extent);\n"
           << pad(depth + 1) << "for (idx_t " << s.name << " = (idx_t)" << s.name << "_chunk; " << s.name
           << " < " << s.name << "_end; " << s.name << " += seam_lanes) {\n";
      row_lanes(s.name, depth + 2);
      block(s.then_block, depth + 2);
      out_ << pad(depth + 1) << "}\n";
      block(s.else_block, depth + 1);
      // Between chunks a long host run may be stopped (seam_host.h; nothing on the GPU).
      out_ << pad(depth + 1) << "SEAM_STOP_IF_INTERRUPTED();\n" << pad(depth) << "}\n";
      return;
    }
    out_ << pad(depth) << "for (idx_t " << s.name << " = seam_lane; " << s.name << " < seam_row_extent; "
         << s.name << " += seam_lanes) {\n";
    row_lanes(s.name, depth + 1);
    block(s.then_block, depth + 1);
    out_ << pad(depth) << "}\n";
  }

  // The lanes of a vector first, then the row's threads (seam_device.cuh / seam_host.h).
  void row_reduce(const Stmt& s, int depth) {
    std::string folded = lane(s.source, 0);
    const std::string combine = "seam_" + std::string(op_name(reduction_combine(s.expr.op)));
    for (int l = 1; l < s.source.lanes; ++l) folded = combine + "(" + folded + ", " + lane(s.source, l) + ")";
    if (is_array(s.var)) declare(s.var, depth);
    out_ << pad(depth)
         << define_lane(
                s.var, 0,
                "seam_row_reduce_" + std::string(op_name(s.expr.op)) + "(" + folded + ", seam_row_ctx)")
         << ";\n";
  }

  // The lanes' (max, sum) pairs in lane order, then the row's threads' (seam_common.h).
  void row_reduce_online(const Stmt& s, int depth) {
    const kir::Var &max = s.var, &sum = s.expr.args.at(1);
    const std::string approx = s.expr.approximate ? "<true>" : "<false>";
    for (const kir::Var* v : {&max, &sum})
      if (is_array(*v)) declare(*v, depth);
    out_ << pad(depth) << define_lane(max, 0, lane(s.source, 0)) << ";\n";
    out_ << pad(depth) << define_lane(sum, 0, lane(s.expr.args.at(0), 0)) << ";\n";
    for (int l = 1; l < s.source.lanes; ++l)
      out_ << pad(depth) << "seam_online_combine" << approx << "(" << lane(max, 0) << ", " << lane(sum, 0)
           << ", " << lane(s.source, l) << ", " << lane(s.expr.args.at(0), l) << ");\n";
    out_ << pad(depth) << "seam_row_reduce_online" << approx << "(" << lane(max, 0) << ", " << lane(sum, 0)
         << ", seam_row_ctx);\n";
  }

  void store(const Stmt& s, int depth) {
    const kir::Param& p = param(s.param);
    if (s.row_edge) {
      out_ << pad(depth) << "seam_store_edge<" << s.source.lanes << ", "
           << (kernel_.streaming_stores ? "true" : "false") << (s.unaligned ? ", false" : "") << ">("
           << p.name << " + " << ix(s.index) << ", " << s.source.name << ", "
           << (s.var.name.empty() ? std::string("seam_in_row") : lane(s.var, 0)) << ");\n";
      return;
    }
    if (s.source.lanes > 1) {
      out_ << pad(depth) << (kernel_.streaming_stores ? "seam_store_stream<" : "seam_store<")
           << s.source.lanes << ">(" << p.name << " + " << ix(s.index) << ", " << s.source.name << ");\n";
    } else {
      out_ << pad(depth) << p.name << "[" << ix(s.index) << "] = " << lane(s.source, 0) << ";\n";
    }
  }

  void stmt(const Stmt& s, int depth) {
    switch (s.kind) {
      case Stmt::Kind::Let:
        out_ << pad(depth) << "const idx_t " << s.name << " = " << ix(s.index) << ";\n";
        return;
      case Stmt::Kind::Comment: out_ << pad(depth) << "// " << s.name << "\n"; return;
      case Stmt::Kind::Loop:  // SEAM_UNROLL: #pragma unroll on the GPU, nothing on the host
        out_ << pad(depth) << "SEAM_UNROLL(" << s.unroll << ")\n"
             << pad(depth) << "for (idx_t " << s.name << " = " << s.begin << "; " << s.name << " < "
             << s.extent << "; ++" << s.name << ") {\n";
        block(s.then_block, depth + 1);
        out_ << pad(depth) << "}\n";
        return;
      case Stmt::Kind::RowLoop: row_loop(s, depth); return;
      case Stmt::Kind::RowReduce: row_reduce(s, depth); return;  // seam_device.cuh / seam_host.h
      case Stmt::Kind::RowReduceOnline: row_reduce_online(s, depth); return;
      case Stmt::Kind::OuterAccumulate: {
        // The accumulator at this thread's vector: registers by iteration (persistent), or the block's
        // workspace row by vector index (streamed; on the host iteration and vector index are one).
        const bool persistent = kernel_.rows && kernel_.rows->iterations > 0;
        const std::string at = s.var.name + "[" + (persistent ? std::string("seam_it") : s.name) + "][";
        per_lane(s.var, depth, [&](int l) { return at + std::to_string(l) + "] += " + lane(s.source, l); });
        return;
      }
      case Stmt::Kind::Define: define(s, depth); return;
      case Stmt::Kind::Declare: {
        if (is_array(s.var)) declare(s.var, depth);
        const std::string value =
            "seam_convert<" + c_type(s.var.dtype) + ">(" + literal_text(s.literal) + ")";
        per_lane(s.var, depth, [&](int l) { return define_lane(s.var, l, value); });
        return;
      }
      case Stmt::Kind::Assign:
        per_lane(s.var, depth, [&](int l) { return lane(s.var, l) + " = " + lane(s.source, l); });
        return;
      case Stmt::Kind::If: {
        out_ << pad(depth) << "if (" << condition_text(s.bounds, spelling_) << ") {\n";
        block(s.then_block, depth + 1);
        if (!s.else_block.empty()) {
          out_ << pad(depth) << "} else {\n";
          block(s.else_block, depth + 1);
        }
        out_ << pad(depth) << "}\n";
        return;
      }
      case Stmt::Kind::Store: store(s, depth); return;
    }
  }

  // The helper loading `lanes` elements for `e`: a peeled row loop's masked vector, a vector at an
  // unaligned offset, kept in L2, or plain.
  static std::string load_call(const kir::Expr& e, int lanes, bool keep) {
    if (e.row_edge)
      return "seam_load_edge<" + std::to_string(lanes) + ", " + (e.unaligned ? "false" : "true") + ">";
    if (e.unaligned) return "seam_load_unaligned<" + std::to_string(lanes) + ">";
    return std::string(keep ? "seam_load_keep<" : "seam_load<") + std::to_string(lanes) + ">";
  }

  const kir::RowCache& row_cache(const std::string& name) const {
    for (const kir::RowCache& c : kernel_.rows->caches)
      if (c.name == name) return c;
    SEAM_UNREACHABLE("a row cache the kernel does not declare");
  }

  // The fill of a cache `slot` (kir::Expr::cache_fill) as `fill_` asks. A per-row cache is filled outside
  // the row loops: only for a row inside the tensor.
  void fill(const kir::Expr& e, const kir::RowCache& cache, const std::string& slot, int depth) {
    const std::string address = param(e.param).name + " + " + ix(e.offset);
    const std::string in_tensor = cache.per_row ? "if (seam_row_extent > 0) " : "";
    switch (fill_) {
      case RowFill::Load:
        out_ << pad(depth) << in_tensor << load_call(e, cache.lanes, false) << "(" << address << ", " << slot
             << (e.row_edge ? ", seam_in_row" : "") << ");\n";
        return;
      case RowFill::LoadAhead:
        out_ << pad(depth) << in_tensor << load_call(e, cache.lanes, false) << "(" << address << ", "
             << ahead_slot(cache) << ");\n";
        return;
      case RowFill::TakeAhead:
        out_ << pad(depth) << "seam_copy_lanes<" << cache.lanes << ">(" << ahead_slot(cache) << ", " << slot
             << ");\n";
        return;
    }
  }

  // The register array that holds `cache`'s fill of the next row group (kir::RowLaunch::load_ahead).
  static std::string ahead_slot(const kir::RowCache& cache) {
    return cache.name + "_next" + (cache.per_row ? "" : "[seam_it]");
  }

  // A peeled row loop's vector `vector_index`: the bits of its lanes inside the row (seam_row_lanes),
  // which its edge loads, stores and reductions read.
  void row_lanes(const std::string& vector_index, int depth) {
    if (!kernel_.rows || !kernel_.rows->peel) return;
    const int vector = kernel_.rows->vector;
    out_ << pad(depth) << "const unsigned seam_in_row = seam_row_lanes<" << vector << ">(" << vector_index
         << " * " << vector << " - seam_row_shift, (long long)" << spelling_.integer(kernel_.rows->reduced)
         << ");\n";
    out_ << pad(depth) << "(void)seam_in_row;\n";
  }

  void define(const Stmt& s, int depth) {
    const kir::Var& v = s.var;
    const kir::Expr& e = s.expr;
    const std::string type = c_type(v.dtype);
    if (e.kind == kir::Expr::Kind::Load && !e.cache.empty()) {  // a persistent row's register array
      const kir::RowCache& cache = row_cache(e.cache);
      const std::string slot = cache.per_row ? e.cache : e.cache + "[seam_it]";
      if (e.cache_fill) {
        fill(e, cache, slot, depth);
        return;
      }
      if (is_array(v)) declare(v, depth);
      per_lane(v, depth, [&](int l) { return define_lane(v, l, slot + "[" + std::to_string(l) + "]"); });
      return;
    }
    if (e.kind == kir::Expr::Kind::CheckedIndex) {
      // An index variable: its bare name, as index expressions read it (never an array, whatever a value
      // of the same name in another program of the kernel is).
      out_ << pad(depth) << "const idx_t " << v.name << " = (idx_t)seam_checked_index(" << lane(e.args[0], 0)
           << ", (seam_i64)" << spelling_.integer(e.extent) << ", " << guard_text(e.guards, spelling_) << ", "
           << "seam_index_error, " << static_cast<int>(e.op) << ", " << e.axis << ");\n";
      return;
    }
    if (is_array(v)) declare(v, depth);
    switch (e.kind) {
      case kir::Expr::Kind::Load: {
        // The address: the first choice whose piece holds, else param + offset.
        std::string address = param(e.param).name + " + " + ix(e.offset);
        for (size_t c = e.choices.size(); c-- > 0;) {
          const kir::LoadChoice& choice = e.choices[c];
          address = "(" + ix(choice.index) + " < " + spelling_.integer(choice.below) + " ? " +
                    param(choice.param).name + " + " + ix(choice.offset) + " : " + address + ")";
        }
        // a row edge's lanes: the row loop's, or a masked pad piece's (kir::Expr::Kind::LaneMask)
        const std::string edge = e.args.empty() ? "seam_in_row" : lane(e.args[0], 0);
        const std::string load = v.lanes > 1
                                     ? load_call(e, v.lanes, kernel_.keep_reused_loads && e.reused) + "(" +
                                           address + ", " + v.name + (e.row_edge ? ", " + edge : "") + ");"
                                     : define_lane(v, 0, "*(" + address + ")") + ";";
        if (e.guards.empty()) {
          out_ << pad(depth) << load << "\n";
        } else {  // loaded only where the guards hold, zero elsewhere (never selected)
          out_ << pad(depth) << "if (" << guard_text(e.guards, spelling_) << ") " << load << "\n"
               << pad(depth) << "else seam_zero<" << v.lanes << ">(" << v.name << ");\n";
        }
        return;
      }
      case kir::Expr::Kind::Scalar:
        out_ << pad(depth) << define_lane(v, 0, param(e.param).name) << ";\n";
        return;
      case kir::Expr::Kind::Literal:
        out_ << pad(depth)
             << define_lane(v, 0, "seam_convert<" + type + ">(" + literal_value(e.literal, v.dtype) + ")")
             << ";\n";
        return;
      case kir::Expr::Kind::InBounds:
        per_lane(v, depth, [&](int l) { return define_lane(v, l, condition_text(e.bounds, spelling_, l)); });
        return;
      case kir::Expr::Kind::LaneMask: {
        const kir::Bound& b = e.bounds.at(0);
        const std::string unbounded = "(1LL << 62)";
        out_ << pad(depth)
             << define_lane(v, 0,
                            "seam_lane_mask<" + std::to_string(e.extent) + ">(" +
                                kir::to_string(b.index, spelling_) + ", " +
                                (b.lo ? spelling_.integer(*b.lo) : "-" + unbounded) + ", " +
                                (b.hi ? spelling_.integer(*b.hi) : unbounded) + ")")
             << ";\n";
        return;
      }
      default: break;
    }
    const std::optional<std::string> op = float_operator(e, v.dtype);
    per_lane(v, depth, [&](int l) { return define_lane(v, l, lane_value(e, v, l, op)); });
  }

  // The value of lane `l` of `v` = `e` (a lane-wise expression).
  std::string lane_value(const kir::Expr& e, const kir::Var& v, int l,
                         const std::optional<std::string>& op) const {
    const std::string type = c_type(v.dtype);
    switch (e.kind) {
      case kir::Expr::Kind::Convert: return "seam_convert<" + type + ">(" + lane(e.args[0], l) + ")";
      case kir::Expr::Kind::Call: {
        if (op && !e.approximate && e.args.size() == 1) return "(" + *op + lane(e.args[0], l) + ")";
        if (op && !e.approximate && e.args.size() == 2)
          return "(" + lane(e.args[0], l) + *op + lane(e.args[1], l) + ")";
        std::string text = "seam_" + std::string(op_name(e.op)) + (e.approximate ? "_approx(" : "(");
        for (size_t i = 0; i < e.args.size(); ++i) text += (i ? ", " : "") + lane(e.args[i], l);
        return text + ")";
      }
      case kir::Expr::Kind::Select:
        return "(" + lane(e.args[0], l) + " ? " + lane(e.args[1], l) + " : " + lane(e.args[2], l) + ")";
      case kir::Expr::Kind::RowEdge:  // seam_in_row: the row loop's lanes inside the row (row_lanes)
        return "((seam_in_row >> " + std::to_string(l) + ") & 1u ? " + lane(e.args[0], l) +
               " : seam_convert<" + type + ">(" + literal_text(e.literal) + "))";
      case kir::Expr::Kind::Iota: {
        const std::string compute = is_floating(v.dtype) ? "double" : "seam_i64";
        return "seam_convert<" + type + ">((" + compute + ")" + literal_text(e.literal) + " + (" + compute +
               ")(" + ix(e.offset) + (v.lanes > 1 ? " + " + std::to_string(l) : "") + ") * (" + compute +
               ")" + literal_text(e.step) + ")";
      }
      case kir::Expr::Kind::Random: {
        // The element index in 64 bits: a random op may be larger than what the kernel's idx_t indexes.
        std::string element = "(seam_i64)(" + ix(e.offset) + ")";
        if (v.lanes > 1 && l > 0) element += " + " + std::to_string(l * e.step.as_int());
        return "seam_" + std::string(op_name(e.op)) + "<" + type + ">(" + lane(e.args[0], l) + ", " +
               lane(e.args[1], l) + ", " + element + ", " + lane(e.args[2], l) + ", " + lane(e.args[3], l) +
               ")";
      }
      default: SEAM_UNREACHABLE("lane-wise expression kind");
    }
  }

  const kir::Kernel& kernel_;
  std::ostringstream& out_;
  const std::set<std::string>& arrays_;
  ConstantSpelling& spelling_;  // how the kernel's constants print: literals or arguments
  const RowFill fill_;
};

// The per-chunk dispatch shared by both entry points: chunk g belongs to the first output whose range
// contains it.
void print_dispatch(const kir::Kernel& kernel, std::ostringstream& out, int depth,
                    ConstantSpelling& spelling) {
  std::string pad(2 * depth, ' ');
  int64_t begin = 0;
  const std::set<std::string> arrays = array_values(kernel);
  for (size_t o = 0; o < kernel.outputs.size(); ++o) {
    const kir::OutputProgram& program = kernel.outputs[o];
    int64_t end = begin + program.chunks;
    out << pad << (o == 0 ? "" : "} else ") << "if (g < " << spelling.integer(end) << ") {\n";
    out << pad << "  const idx_t " << program.chunk << " = g - " << spelling.integer(begin) << ";\n";
    BodyPrinter(kernel, arrays, out, spelling).block(program.body, depth + 1);
    begin = end;
  }
  if (!kernel.outputs.empty()) out << pad << "}\n";
}

std::string param_type(const kir::Param& p) {
  std::string type = c_type(p.dtype);
  switch (p.kind) {
    case kir::Param::Kind::Input: return "const " + type + "* __restrict__";
    case kir::Param::Kind::Output: return type + "* __restrict__";
    case kir::Param::Kind::Scalar: return type;
  }
  SEAM_UNREACHABLE("parameter kind");
}

}  // namespace

int constants_argument_slot(const kir::Kernel& kernel) {
  const kir::TrailingSlots slots = kir::trailing_slots(kernel);
  return static_cast<int>(kernel.params.size()) + (slots.index_error >= 0 ? 1 : 0) +
         (slots.workspace >= 0 ? 1 : 0);
}

void print_kernel_block(const kir::Kernel& kernel, const kir::Block& block, std::ostringstream& out,
                        int depth, ConstantSpelling& spelling, RowFill fill) {
  BodyPrinter(kernel, array_values(kernel), out, spelling, fill).block(block, depth);
}

std::string kernel_param_type(const kir::Param& param) { return param_type(param); }

void print_kernel_dispatch(const kir::Kernel& kernel, std::ostringstream& out, int depth,
                           ConstantSpelling& spelling) {
  print_dispatch(kernel, out, depth, spelling);
}

void print_cuda_signature(const kir::Kernel& kernel, const CudaLaunchShape& shape, std::ostringstream& out,
                          const ConstantSpelling* constants) {
  out << "SEAM_KERNEL void __launch_bounds__(" << shape.block_size
      << (shape.min_blocks_per_sm > 0 ? ", " + std::to_string(shape.min_blocks_per_sm) : "") << ") "
      << (shape.cluster > 1 ? "__cluster_dims__(" + std::to_string(shape.cluster) + ", 1, 1) " : "")
      << kernel.name << "(";
  for (size_t p = 0; p < kernel.params.size(); ++p) {
    const kir::Param& param = kernel.params[p];
    // Scalars arrive in device memory (a fusion input uploaded, or a value an earlier kernel wrote), so
    // the kernel reads them through a pointer once.
    if (param.kind == kir::Param::Kind::Scalar)
      out << (p ? ", " : "") << "const " << c_type(param.dtype) << "* __restrict__ " << param.name << "_ptr";
    else
      out << (p ? ", " : "") << param_type(param) << " " << param.name;
  }
  if (kir::checks_indices(kernel))  // the record out-of-range indices are written to (kernel_ir.h)
    out << (kernel.params.empty() ? "" : ", ") << "seam_i64* __restrict__ seam_index_error";
  if (kir::workspace_bytes(kernel) > 0)  // after it: the workspace (kernel_ir.h, OuterWorkspace)
    out << ", float* __restrict__ seam_workspace";
  if (constants && !constants->constants().empty())  // last: the extents (constants_argument_slot)
    out << (constants_argument_slot(kernel) > 0 ? ", " : "") << "const "
        << ConstantSpelling::struct_name(kernel.name) << " seam_k";
  out << ") {\n";
  out << "  typedef " << (kernel.index64 ? "long long" : "int") << " idx_t;\n";
  for (const kir::Param& param : kernel.params)
    if (param.kind == kir::Param::Kind::Scalar)
      out << "  const " << c_type(param.dtype) << " " << param.name << " = " << param.name << "_ptr[0];\n";
}

PrintedKernel print_cuda_kernel(const kir::Kernel& kernel, const CudaLaunchShape& shape,
                                ExtentSpelling mode) {
  ConstantSpelling spelling(mode, kernel.index64);
  if (kernel.scan) {
    std::string text = print_cuda_scan_kernel(kernel, spelling);
    return PrintedKernel{std::move(text), spelling.constants()};
  }
  if (kernel.scatter) {
    std::string text = print_cuda_scatter_kernel(kernel, spelling);
    return PrintedKernel{std::move(text), spelling.constants()};
  }
  if (kernel.rows) {
    std::string text = print_cuda_row_kernel(kernel, spelling);
    return PrintedKernel{std::move(text), spelling.constants()};
  }
  std::ostringstream body;
  body << "  for (idx_t g = (idx_t)blockIdx.x * blockDim.x + threadIdx.x; g < "
       << spelling.integer(kernel.total_chunks()) << "; g += (idx_t)gridDim.x * blockDim.x) {\n";
  print_dispatch(kernel, body, 2, spelling);
  body << "  }\n}\n";
  std::ostringstream out;
  out << "#include \"seam_device.cuh\"\n\n" << spelling.struct_definition(kernel.name);
  print_cuda_signature(kernel, shape, out, &spelling);
  out << body.str();
  return PrintedKernel{out.str(), spelling.constants()};
}

std::string print_cuda_kernel(const kir::Kernel& kernel, const CudaLaunchShape& shape) {
  return print_cuda_kernel(kernel, shape, ExtentSpelling::Literals).text;
}

void print_host_entry(const kir::Kernel& kernel, std::ostringstream& out, const ConstantSpelling* constants) {
  out << "SEAM_KERNEL void " << kernel.name << "(void** args) {\n";
  out << "  typedef " << (kernel.index64 ? "long long" : "int") << " idx_t;\n";
  for (size_t p = 0; p < kernel.params.size(); ++p) {
    const kir::Param& param = kernel.params[p];
    std::string type = c_type(param.dtype);
    if (param.kind == kir::Param::Kind::Scalar)
      out << "  const " << type << " " << param.name << " = *static_cast<const " << type << "*>(args[" << p
          << "]);\n";
    else
      out << "  " << param_type(param) << " " << param.name << " = static_cast<" << param_type(param)
          << ">(args[" << p << "]);\n";
  }
  // The same trailing arguments as on the GPU, in the same order (kir::trailing_slots).
  const kir::TrailingSlots slots = kir::trailing_slots(kernel);
  if (slots.index_error >= 0)
    out << "  seam_i64* seam_index_error = static_cast<seam_i64*>(args[" << slots.index_error << "]);\n";
  if (slots.workspace >= 0)
    out << "  float* seam_workspace = static_cast<float*>(args[" << slots.workspace << "]);\n";
  if (constants && !constants->constants().empty()) {
    const std::string type = ConstantSpelling::struct_name(kernel.name);
    out << "  const " << type << "& seam_k = *static_cast<const " << type << "*>(args["
        << constants_argument_slot(kernel) << "]);\n";
  }
}

PrintedKernel print_host_kernel(const kir::Kernel& kernel, ExtentSpelling mode) {
  ConstantSpelling spelling(mode, kernel.index64);
  if (kernel.scan) {
    std::string text = print_host_scan_kernel(kernel, spelling);
    return PrintedKernel{std::move(text), spelling.constants()};
  }
  if (kernel.scatter) {
    std::string text = print_host_scatter_kernel(kernel, spelling);
    return PrintedKernel{std::move(text), spelling.constants()};
  }
  if (kernel.rows) {
    std::string text = print_host_row_kernel(kernel, spelling);
    return PrintedKernel{std::move(text), spelling.constants()};
  }
  std::ostringstream body;
  body << "  for (idx_t g = 0; g < " << spelling.integer(kernel.total_chunks()) << "; ++g) {\n";
  body << "    if ((g & 0xffff) == 0xffff) SEAM_STOP_IF_INTERRUPTED();  // a long run may be stopped\n";
  print_dispatch(kernel, body, 2, spelling);
  body << "  }\n}\n";
  std::ostringstream out;
  out << spelling.struct_definition(kernel.name);
  print_host_entry(kernel, out, &spelling);
  out << body.str();
  return PrintedKernel{out.str(), spelling.constants()};
}

std::string print_host_kernel(const kir::Kernel& kernel) {
  return print_host_kernel(kernel, ExtentSpelling::Literals).text;
}

}  // namespace seam
