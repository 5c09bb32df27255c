#include "codegen/scan_kernel_printer.h"

#include <sstream>

#include "codegen/c_type.h"
#include "lower/reduction_math.h"
#include "support/error.h"

namespace seam {
namespace {

// Where a running value is one thread's serial walk over a whole line: the lines kernel (either backend)
// and the host's rows kernel. A serial f32 sum stops growing past 2^24 equal terms and its error grows
// with the line, so these combine f16/bf16/f32 in double, as PyTorch's CPU cumsum and cumprod do: each
// output is then rounded once. The GPU's rows kernel keeps f32, as PyTorch's CUDA kernels do: a thread
// combines a few elements, the warps' shares meet in a tree, and only the chunks' carry is serial (a line
// of 2^36 elements before a sum could stall). Minima and maxima are exact in either.
enum class Walk { Serial, Parallel };

bool extremum(const kir::ScanLaunch& s) {
  return s.combine == kir::ScanCombine::Min || s.combine == kir::ScanCombine::Max;
}

// The running value's C type: integer sums and products as unsigned 64-bit words, which wrap as torch's
// int64 ones do (signed overflow is undefined in C++); integer minima and maxima compare signed.
std::string accumulator_type(const kir::ScanLaunch& s, Walk walk) {
  const DType acc = reduction_accumulator(s.input_dtype);
  if (acc == DType::Int64) return extremum(s) ? "long long" : "unsigned long long";
  return walk == Walk::Serial ? "double" : c_type(acc);
}

// The value a line's scan starts from, which every step leaves unchanged: 0, 1, or the top (cummin) or
// bottom (cummax) of the accumulator's range (infinities: a NaN or an infinity still wins, as torch's
// kernels have it).
std::string identity(const kir::ScanLaunch& s) {
  const bool integer = reduction_accumulator(s.input_dtype) == DType::Int64;
  switch (s.combine) {
    case kir::ScanCombine::Sum: return "0";
    case kir::ScanCombine::Prod: return "1";
    case kir::ScanCombine::Min: return integer ? "9223372036854775807LL" : "seam_bits_to_float(0x7f800000u)";
    case kir::ScanCombine::Max:
      return integer ? "(-9223372036854775807LL - 1)" : "(-seam_bits_to_float(0x7f800000u))";
  }
  SEAM_UNREACHABLE("scan combine");
}

// `target` set to the running value `earlier` combined with the later elements' `later`; sums and
// products commute, so they print as `target += other` where target is one of the two.
std::string combine_into(const kir::ScanLaunch& s, const std::string& target, const std::string& earlier,
                         const std::string& later) {
  switch (s.combine) {
    case kir::ScanCombine::Sum:
    case kir::ScanCombine::Prod: {
      const std::string op = s.combine == kir::ScanCombine::Sum ? " + " : " * ";
      if (target == earlier || target == later)
        return target + op.substr(0, 2) + "= " + (target == earlier ? later : earlier);
      return target + " = " + earlier + op + later;
    }
    case kir::ScanCombine::Min: return target + " = seam_cummin_step(" + earlier + ", " + later + ")";
    case kir::ScanCombine::Max: return target + " = seam_cummax_step(" + earlier + ", " + later + ")";
  }
  SEAM_UNREACHABLE("scan combine");
}

// The same as an expression.
std::string combined(const kir::ScanLaunch& s, const std::string& earlier, const std::string& later) {
  switch (s.combine) {
    case kir::ScanCombine::Sum: return earlier + " + " + later;
    case kir::ScanCombine::Prod: return earlier + " * " + later;
    case kir::ScanCombine::Min: return "seam_cummin_step(" + earlier + ", " + later + ")";
    case kir::ScanCombine::Max: return "seam_cummax_step(" + earlier + ", " + later + ")";
  }
  SEAM_UNREACHABLE("scan combine");
}

// An input element read as the accumulator type, and a running value written as the output's dtype.
std::string load(const kir::ScanLaunch& s, const std::string& element, Walk walk) {
  const DType acc = reduction_accumulator(s.input_dtype);
  if (acc == DType::Int64)
    return "(" + accumulator_type(s, walk) + ")seam_convert<seam_i64>(" + element + ")";
  // f16/bf16 through f32, exactly, then (serial) widened to double
  const std::string f32 = "seam_convert<" + c_type(acc) + ">(" + element + ")";
  return walk == Walk::Serial ? "(double)" + f32 : f32;
}

std::string store(const kir::ScanLaunch& s, const std::string& total) {
  if (reduction_accumulator(s.input_dtype) == DType::Int64 && !extremum(s))
    return "(seam_i64)(" + total + ")";
  return "seam_convert<" + c_type(s.output_dtype) + ">(" + total + ")";
}

// A size as a long long: the line count and the scanned extent always arguments (one line and many share
// a text), other integers as ConstantSpelling::integer spells them (0 and 1 are structure).
std::string size_ll(ConstantSpelling& sp, int64_t value) { return "(long long)" + sp.extent(value); }
std::string integer_ll(ConstantSpelling& sp, int64_t value) { return "(long long)" + sp.integer(value); }

// `seam_in_base` and `seam_out_base`: where line `seam_line` starts in the input and the output.
void print_line_bases(const kir::ScanLaunch& s, std::ostringstream& out, const std::string& pad,
                      ConstantSpelling& sp) {
  out << pad << "const long long seam_out_base = (seam_line / " << integer_ll(sp, s.inner) << ") * "
      << integer_ll(sp, s.extent * s.inner) << " + seam_line % " << integer_ll(sp, s.inner) << ";\n";
  if (s.contiguous) {
    out << pad << "const long long seam_in_base = seam_out_base;\n";
    return;
  }
  out << pad << "long long seam_in_base = 0;\n";
  out << pad << "{\n" << pad << "  long long seam_rest = seam_line;\n";
  for (size_t d = s.line_extents.size(); d-- > 0;) {
    out << pad << "  seam_in_base += (seam_rest % " << integer_ll(sp, s.line_extents[d]) << ") * "
        << integer_ll(sp, s.line_strides[d]) << ";\n";
    out << pad << "  seam_rest /= " << integer_ll(sp, s.line_extents[d]) << ";\n";
  }
  out << pad << "}\n";
}

std::string element(const kir::ScanLaunch& s, const std::string& k, ConstantSpelling& sp) {
  return "in0[seam_in_base + " + k + " * " + integer_ll(sp, s.axis_stride) + "]";
}

// The lines kernel's body for line `seam_line`: the axis walked in order.
void print_line_walk(const kir::ScanLaunch& s, std::ostringstream& out, const std::string& pad,
                     ConstantSpelling& sp) {
  print_line_bases(s, out, pad, sp);
  out << pad << accumulator_type(s, Walk::Serial) << " seam_total = " << identity(s) << ";\n";
  out << pad << "for (long long k = 0; k < " << size_ll(sp, s.extent) << "; ++k) {\n";
  out << pad
      << "  if ((k & 0xffff) == 0xffff) SEAM_STOP_IF_INTERRUPTED();  // a long host run (seam_host.h)\n";
  out << pad << "  "
      << combine_into(s, "seam_total", "seam_total", load(s, element(s, "k", sp), Walk::Serial)) << ";\n";
  out << pad << "  out0[seam_out_base + k * " << integer_ll(sp, s.inner) << "] = " << store(s, "seam_total")
      << ";\n";
  out << pad << "}\n";
}

// A thread's share of a chunk of the rows kernel: elements seam_first .. seam_first + items - 1, scanned
// into seam_v (past the row's end: the running value unchanged), their total in seam_sum.
void print_thread_share(const kir::ScanLaunch& s, std::ostringstream& out, const std::string& pad,
                        const std::string& values, bool cuda, ConstantSpelling& sp) {
  const Walk walk = cuda ? Walk::Parallel : Walk::Serial;
  const std::string acc = accumulator_type(s, walk);
  out << pad << acc << " seam_sum = " << identity(s) << ";\n";
  if (cuda) out << "#pragma unroll\n";  // the values stay in registers
  out << pad << "for (int j = 0; j < " << s.items << "; ++j) {\n";
  out << pad << "  const long long k = seam_first + j;\n";
  out << pad << "  if (k < " << size_ll(sp, s.extent) << ") "
      << combine_into(s, "seam_sum", "seam_sum", load(s, element(s, "k", sp), walk)) << ";\n";
  out << pad << "  " << values << "[j] = seam_sum;\n";
  out << pad << "}\n";
}

void print_thread_stores(const kir::ScanLaunch& s, std::ostringstream& out, const std::string& pad,
                         const std::string& values, const std::string& prefix, bool cuda,
                         ConstantSpelling& sp) {
  if (cuda) out << "#pragma unroll\n";
  out << pad << "for (int j = 0; j < " << s.items << "; ++j) {\n";
  out << pad << "  const long long k = seam_first + j;\n";
  out << pad << "  if (k < " << size_ll(sp, s.extent)
      << ") out0[seam_out_base + k] = " << store(s, combined(s, prefix, values + "[j]")) << ";\n";
  out << pad << "}\n";
}

void print_cuda_rows(const kir::Kernel& kernel, std::ostringstream& out, ConstantSpelling& sp) {
  const kir::ScanLaunch& s = *kernel.scan;
  const std::string acc = accumulator_type(s, Walk::Parallel);
  const int warps = s.threads / 32;
  out << "  __shared__ " << acc << " seam_warp_totals[" << warps << "];\n";
  out << "  const int seam_lane = threadIdx.x & 31, seam_warp = threadIdx.x >> 5;\n";
  out << "  for (long long seam_line = blockIdx.x; seam_line < " << size_ll(sp, s.lines)
      << "; seam_line += gridDim.x) {\n";
  print_line_bases(s, out, "    ", sp);
  out << "    " << acc << " seam_carry = " << identity(s) << ";  // the total of the row's earlier chunks\n";
  out << "    for (long long seam_start = 0; seam_start < " << size_ll(sp, s.extent)
      << "; seam_start += " << s.chunk() << "LL) {\n";
  out << "      const long long seam_first = seam_start + (long long)threadIdx.x * " << s.items << ";\n";
  out << "      " << acc << " seam_v[" << s.items << "];\n";
  print_thread_share(s, out, "      ", "seam_v", true, sp);
  out << "      // Inclusive scan of the threads' sums across the warp, then of the warps' totals.\n";
  out << "      " << acc << " seam_incl = seam_sum;\n";
  out << "#pragma unroll\n";
  out << "      for (int d = 1; d < 32; d <<= 1) {\n";
  out << "        const " << acc << " y = __shfl_up_sync(0xffffffffu, seam_incl, d);\n";
  out << "        if (seam_lane >= d) " << combine_into(s, "seam_incl", "y", "seam_incl") << ";\n";
  out << "      }\n";
  out << "      " << acc << " seam_excl = __shfl_up_sync(0xffffffffu, seam_incl, 1);\n";
  out << "      if (seam_lane == 0) seam_excl = " << identity(s) << ";\n";
  out << "      if (seam_lane == 31) seam_warp_totals[seam_warp] = seam_incl;\n";
  out << "      __syncthreads();\n";
  if (warps > 1) {
    out << "      if (seam_warp == 0) {\n";
    out << "        " << acc << " w = seam_lane < " << warps << " ? seam_warp_totals[seam_lane] : (" << acc
        << ")" << identity(s) << ";\n";
    out << "#pragma unroll\n";
    out << "        for (int d = 1; d < " << warps << "; d <<= 1) {\n";
    out << "          const " << acc << " y = __shfl_up_sync(0xffffffffu, w, d);\n";
    out << "          if (seam_lane >= d) " << combine_into(s, "w", "y", "w") << ";\n";
    out << "        }\n";
    out << "        if (seam_lane < " << warps << ") seam_warp_totals[seam_lane] = w;\n";
    out << "      }\n";
    out << "      __syncthreads();\n";
  }
  const std::string warps_before =
      "(seam_warp > 0 ? seam_warp_totals[seam_warp - 1] : (" + acc + ")" + identity(s) + ")";
  out << "      const " << acc
      << " seam_prefix = " << combined(s, "seam_carry", "(" + combined(s, warps_before, "seam_excl") + ")")
      << ";\n";
  print_thread_stores(s, out, "      ", "seam_v", "seam_prefix", true, sp);
  out << "      "
      << combine_into(s, "seam_carry", "seam_carry", "seam_warp_totals[" + std::to_string(warps - 1) + "]")
      << ";\n";
  out << "      __syncthreads();  // the totals are read before the next chunk writes them\n";
  out << "    }\n";
  out << "  }\n";
}

void print_cuda_lines(const kir::Kernel& kernel, std::ostringstream& out, ConstantSpelling& sp) {
  const kir::ScanLaunch& s = *kernel.scan;
  out << "  for (long long seam_line = (long long)blockIdx.x * blockDim.x + threadIdx.x; seam_line < "
      << size_ll(sp, s.lines) << "; seam_line += (long long)gridDim.x * blockDim.x) {\n";
  print_line_walk(s, out, "    ", sp);
  out << "  }\n";
}

std::string params_text(const kir::Kernel& kernel) {
  const kir::ScanLaunch& s = *kernel.scan;
  return "const " + c_type(s.input_dtype) + "* __restrict__ in0, " + c_type(s.output_dtype) +
         "* __restrict__ out0";
}

}  // namespace

std::string print_cuda_scan_kernel(const kir::Kernel& kernel, ConstantSpelling& sp) {
  SEAM_ASSERT(kernel.scan && kernel.params.size() == 2, "not a scan kernel: ", kernel.name);
  const kir::ScanLaunch& s = *kernel.scan;
  std::ostringstream body;  // first: the signature takes the constants it prints
  if (s.rows())
    print_cuda_rows(kernel, body, sp);
  else
    print_cuda_lines(kernel, body, sp);
  body << "}\n";
  std::ostringstream out;
  out << "#include \"seam_device.cuh\"\n\n" << sp.struct_definition(kernel.name);
  out << "SEAM_KERNEL void __launch_bounds__(" << s.block << ") " << kernel.name << "(" << params_text(kernel)
      << (sp.constants().empty() ? "" : ", const " + ConstantSpelling::struct_name(kernel.name) + " seam_k")
      << ") {\n";
  out << "  typedef long long idx_t;\n";
  out << body.str();
  return out.str();
}

// The host entry of a scan kernel: its arguments (input, output, then the constants) unpacked.
static std::string host_scan_entry(const kir::Kernel& kernel, const ConstantSpelling& sp) {
  const kir::ScanLaunch& s = *kernel.scan;
  std::ostringstream out;
  out << sp.struct_definition(kernel.name);
  out << "SEAM_KERNEL void " << kernel.name << "(void** args) {\n";
  out << "  typedef long long idx_t;\n";
  out << "  const " << c_type(s.input_dtype) << "* in0 = static_cast<const " << c_type(s.input_dtype)
      << "*>(args[0]);\n";
  out << "  " << c_type(s.output_dtype) << "* out0 = static_cast<" << c_type(s.output_dtype)
      << "*>(args[1]);\n";
  if (!sp.constants().empty()) {
    const std::string type = ConstantSpelling::struct_name(kernel.name);
    out << "  const " << type << "& seam_k = *static_cast<const " << type << "*>(args[2]);\n";
  }
  return out.str();
}

std::string print_host_scan_kernel(const kir::Kernel& kernel, ConstantSpelling& sp) {
  SEAM_ASSERT(kernel.scan && kernel.params.size() == 2, "not a scan kernel: ", kernel.name);
  const kir::ScanLaunch& s = *kernel.scan;
  const std::string acc = accumulator_type(s, Walk::Serial);
  std::ostringstream out;  // the body: the entry takes the constants it prints
  out << "  for (long long seam_line = 0; seam_line < " << size_ll(sp, s.lines) << "; ++seam_line) {\n";
  out << "    if ((seam_line & 0xfff) == 0xfff) SEAM_STOP_IF_INTERRUPTED();\n";
  if (!s.rows()) {
    print_line_walk(s, out, "    ", sp);
    out << "  }\n}\n";
    return host_scan_entry(kernel, sp) + out.str();
  }
  // The GPU's chunks and thread shares, the threads' totals combined in thread order.
  print_line_bases(s, out, "    ", sp);
  out << "    " << acc << " seam_carry = " << identity(s) << ";\n";
  out << "    for (long long seam_start = 0; seam_start < " << size_ll(sp, s.extent)
      << "; seam_start += " << s.chunk() << "LL) {\n";
  out << "      SEAM_STOP_IF_INTERRUPTED();\n";
  out << "      " << acc << " seam_prefix = seam_carry;\n";
  out << "      for (int seam_thread = 0; seam_thread < " << s.threads << "; ++seam_thread) {\n";
  out << "        const long long seam_first = seam_start + (long long)seam_thread * " << s.items << ";\n";
  out << "        " << acc << " seam_v[" << s.items << "];\n";
  print_thread_share(s, out, "        ", "seam_v", false, sp);
  print_thread_stores(s, out, "        ", "seam_v", "seam_prefix", false, sp);
  out << "        " << combine_into(s, "seam_prefix", "seam_prefix", "seam_sum") << ";\n";
  out << "      }\n";
  out << "      seam_carry = seam_prefix;\n";
  out << "    }\n";
  out << "  }\n}\n";
  return host_scan_entry(kernel, sp) + out.str();
}

}  // namespace seam
