#include "codegen/scatter_kernel_printer.h"

#include <algorithm>
#include <sstream>

#include "codegen/c_type.h"
#include "codegen/literal_text.h"
#include "support/error.h"

namespace seam {
namespace {

std::string integer_ll(ConstantSpelling& sp, int64_t value) { return "(long long)" + sp.integer(value); }

// Parameters: the index, the source (none for a literal), the output.
const kir::ScatterLaunch& launch_of(const kir::Kernel& kernel) {
  SEAM_ASSERT(kernel.scatter && kernel.params.size() == (kernel.scatter->literal ? 2u : 3u),
              "not a scatter kernel: ", kernel.name);
  return *kernel.scatter;
}

// The value written: the source element at the work item's coordinates, or the scalar converted once.
std::string written_value(const kir::ScatterLaunch& s) {
  return s.scalar_src ? "seam_fill" : "in1[seam_src_at]";
}

// A scalar source converted to the output's dtype once: the parameter, or the literal converted to its
// own dtype first (as the interpreter's const holds it), a value that sizes may make an argument as in
// every kernel's math (ConstantSpelling).
void print_fill(const kir::ScatterLaunch& s, std::ostringstream& out, ConstantSpelling& sp) {
  if (!s.scalar_src) return;
  const std::string type = c_type(s.output_dtype);
  std::string value = "in1";
  if (s.literal) {
    const Number& n = *s.literal;
    const std::string text = n.kind() == Number::Kind::Int && n.as_int() != INT64_MIN
                                 ? sp.integer_constant(n.as_int(), literal_text(n))
                             : n.kind() == Number::Kind::Float
                                 ? sp.floating(n.as_double(), literal_text(n), s.src_dtype == DType::Float32)
                                 : literal_text(n);
    value = "seam_convert<" + c_type(s.src_dtype) + ">(" + text + ")";
  }
  out << "  const " << type << " seam_fill = "
      << (s.src_dtype == s.output_dtype ? value : "seam_convert<" + type + ">(" + value + ")") << ";\n";
}

// The body of work item `seam_item`: its coordinates over the index's extents (last axis fastest; the
// divisions by magic numbers where extents are arguments), the elements it reads, the position its index
// names and the write.
void print_item(const kir::ScatterLaunch& s, std::ostringstream& out, const std::string& pad,
                ConstantSpelling& sp) {
  out << pad << "long long seam_rest = seam_item, seam_index_at = 0, seam_src_at = 0, seam_out_at = 0;\n";
  for (size_t d = s.extents.size(); d-- > 0;) {
    out << pad << "{\n";
    if (d == 0) {  // the outermost coordinate is what is left
      out << pad << "  const long long c = seam_rest;\n";
    } else {  // an empty index has no work items: its extents print as 1
      const int64_t extent = std::max<int64_t>(s.extents[d], 1);
      out << pad << "  const long long q = " << sp.quotient("seam_rest", extent, false, true) << ";\n";
      out << pad << "  const long long c = seam_rest - q * " << integer_ll(sp, extent) << ";\n";
      out << pad << "  seam_rest = q;\n";
    }
    out << pad << "  seam_index_at += c * " << integer_ll(sp, s.index_strides[d]) << ";\n";
    if (!s.scalar_src) out << pad << "  seam_src_at += c * " << integer_ll(sp, s.src_strides[d]) << ";\n";
    if (static_cast<int64_t>(d) != s.axis)
      out << pad << "  seam_out_at += c * " << integer_ll(sp, s.output_strides[d]) << ";\n";
    out << pad << "}\n";
  }
  out << pad << "const long long seam_position = seam_scatter_position(in0[seam_index_at], "
      << integer_ll(sp, s.extent) << ", seam_index_error, " << static_cast<int>(OpKind::Scatter) << ", "
      << s.axis << ");\n";
  out << pad << "if (seam_position >= 0) out0[seam_out_at + seam_position * "
      << integer_ll(sp, s.output_strides[static_cast<size_t>(s.axis)]) << "] = " << written_value(s) << ";\n";
}

// The source's parameter and a comma after it; nothing for a literal.
std::string source_param(const kir::ScatterLaunch& s) {
  const std::string type = c_type(s.src_dtype);
  if (s.literal) return "";
  return "const " + type + "* __restrict__ " + (s.scalar_src ? "in1_ptr" : "in1") + ", ";
}

}  // namespace

std::string print_cuda_scatter_kernel(const kir::Kernel& kernel, ConstantSpelling& sp) {
  const kir::ScatterLaunch& s = launch_of(kernel);
  std::ostringstream body;         // first: the signature takes the constants it prints
  if (s.scalar_src && !s.literal)  // scalars arrive in device memory, as for every kernel (kernel_printer.h)
    body << "  const " << c_type(s.src_dtype) << " in1 = in1_ptr[0];\n";
  print_fill(s, body, sp);
  body << "  for (long long seam_item = (long long)blockIdx.x * blockDim.x + threadIdx.x; seam_item < "
       << "(long long)" << sp.extent(s.elements) << "; seam_item += (long long)gridDim.x * blockDim.x) {\n";
  print_item(s, body, "    ", sp);
  body << "  }\n}\n";
  std::ostringstream out;
  out << "#include \"seam_device.cuh\"\n\n" << sp.struct_definition(kernel.name);
  out << "SEAM_KERNEL void __launch_bounds__(" << s.block << ") " << kernel.name << "(const "
      << c_type(s.index_dtype) << "* __restrict__ in0, " << source_param(s) << c_type(s.output_dtype)
      << "* __restrict__ out0, seam_i64* __restrict__ seam_index_error"
      << (sp.constants().empty() ? "" : ", const " + ConstantSpelling::struct_name(kernel.name) + " seam_k")
      << ") {\n";
  out << "  typedef long long idx_t;\n";
  out << body.str();
  return out.str();
}

std::string print_host_scatter_kernel(const kir::Kernel& kernel, ConstantSpelling& sp) {
  const kir::ScatterLaunch& s = launch_of(kernel);
  std::ostringstream body;  // first: the entry takes the constants it prints
  print_fill(s, body, sp);
  body << "  for (long long seam_item = 0; seam_item < (long long)" << sp.extent(s.elements)
       << "; ++seam_item) {\n";
  body << "    if ((seam_item & 0xffff) == 0xffff) SEAM_STOP_IF_INTERRUPTED();  // a long run may be "
          "stopped\n";
  print_item(s, body, "    ", sp);
  body << "  }\n}\n";
  // The arguments in the GPU's order (kir::trailing_slots): index, source (a scalar: its address; none
  // for a literal), output, the index error record, then the constants.
  const std::string index_type = c_type(s.index_dtype), src_type = c_type(s.src_dtype),
                    out_type = c_type(s.output_dtype);
  std::ostringstream out;
  out << sp.struct_definition(kernel.name);
  out << "SEAM_KERNEL void " << kernel.name << "(void** args) {\n";
  out << "  typedef long long idx_t;\n";
  out << "  const " << index_type << "* in0 = static_cast<const " << index_type << "*>(args[0]);\n";
  if (!s.literal)
    out << "  const " << src_type << (s.scalar_src ? " in1 = *" : "* in1 = ") << "static_cast<const "
        << src_type << "*>(args[1]);\n";
  const size_t output = kernel.params.size() - 1;
  out << "  " << out_type << "* out0 = static_cast<" << out_type << "*>(args[" << output << "]);\n";
  out << "  seam_i64* seam_index_error = static_cast<seam_i64*>(args[" << output + 1 << "]);\n";
  if (!sp.constants().empty()) {
    const std::string type = ConstantSpelling::struct_name(kernel.name);
    out << "  const " << type << "& seam_k = *static_cast<const " << type << "*>(args[" << output + 2
        << "]);\n";
  }
  out << body.str();
  return out.str();
}

}  // namespace seam
