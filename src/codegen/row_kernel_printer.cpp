#include "codegen/row_kernel_printer.h"

#include "codegen/kernel_printer.h"
#include "support/error.h"

namespace seam {
namespace {

int64_t chunks(const kir::Kernel& kernel) {
  int64_t total = 0;
  for (const kir::OutputProgram& o : kernel.outputs) total += o.chunks;
  return total;
}

// A peeled row (kir::RowLaunch::peel): its shift, the elements by which its start in a contiguous tensor
// of the reduced shape lies past a multiple of the vector (64-bit: row * reduced may pass idx_t).
void print_row_shift(const kir::RowLaunch& rows, std::ostringstream& out) {
  out << "    const idx_t seam_row_shift = (idx_t)((long long)row * " << rows.reduced << "LL % "
      << rows.vector << ");\n";
}

// The vectors of a peeled row: its elements and its shift, rounded up to whole vectors.
std::string peeled_row_vectors(const kir::RowLaunch& rows) {
  return "(" + std::to_string(rows.reduced + rows.vector - 1) + " + seam_row_shift) / " +
         std::to_string(rows.vector);
}

}  // namespace

std::string print_cuda_row_kernel(const kir::Kernel& kernel) {
  SEAM_ASSERT(kernel.rows.has_value());
  const kir::RowLaunch& rows = *kernel.rows;
  const int block = rows.block_size();
  std::ostringstream out;
  out << "#include \"seam_device.cuh\"\n\n";
  const int cluster = rows.cluster;
  print_cuda_signature(kernel, CudaLaunchShape{block, 0, cluster}, out);
  out << "  __shared__ __align__(16) unsigned char seam_scratch[" << block * 8 << "];\n";
  out << "  const seam_rows<" << rows.rows_per_block << ", " << rows.threads_per_row << ", "
      << (rows.lanes_contiguous ? "true" : "false") << (cluster > 1 ? ", " + std::to_string(cluster) : "")
      << "> seam_row_ctx(seam_scratch);\n";
  out << "  const int seam_lane = seam_row_ctx.lane;\n";
  out << "  const int seam_lanes = " << rows.threads_per_row * cluster << ";\n";
  if (rows.iterations > 0) {
    out << "  constexpr int seam_row_iterations = " << rows.iterations << ";\n";
    for (const kir::RowCache& c : rows.caches)
      out << "  alignas(16) " << kir::c_type(c.dtype) << " " << c.name << "[" << rows.iterations << "]["
          << c.lanes << "];\n";
  }
  // Every thread of a block runs the same iterations (the row reductions synchronize the block).
  // Over a cluster, its blocks take the same rows (the grid is a multiple of the cluster).
  const std::string first_block =
      cluster > 1 ? "(blockIdx.x / " + std::to_string(cluster) + ")" : "blockIdx.x";
  const std::string blocks = cluster > 1 ? "(gridDim.x / " + std::to_string(cluster) + ")" : "gridDim.x";
  out << "  for (long long seam_first_row = (long long)" << first_block << " * " << rows.rows_per_block
      << "; seam_first_row < " << rows.rows << "LL; seam_first_row += (long long)" << blocks << " * "
      << rows.rows_per_block << ") {\n";
  out << "    const idx_t row = (idx_t)(seam_first_row + seam_row_ctx.slot);\n";
  if (rows.peel) {
    print_row_shift(rows, out);
    out << "    const idx_t seam_row_extent = row < " << rows.rows << " ? " << peeled_row_vectors(rows)
        << " : 0;\n";
  } else {
    out << "    const idx_t seam_row_extent = row < " << rows.rows << " ? " << rows.vectors() << " : 0;\n";
  }
  out << "    (void)seam_row_extent;\n";
  print_kernel_block(kernel, rows.body, out, 2);
  out << "  }\n";
  // No block of a cluster exits while another may still read its shared memory.
  if (cluster > 1) out << "  seam_cluster_sync();\n";
  if (!kernel.outputs.empty()) {
    out << "  for (idx_t g = (idx_t)blockIdx.x * blockDim.x + threadIdx.x; g < " << chunks(kernel)
        << "; g += (idx_t)gridDim.x * blockDim.x) {\n";
    print_kernel_dispatch(kernel, out, 2);
    out << "  }\n";
  }
  out << "}\n";
  return out.str();
}

std::string print_host_row_kernel(const kir::Kernel& kernel) {
  SEAM_ASSERT(kernel.rows.has_value());
  const kir::RowLaunch& rows = *kernel.rows;
  std::ostringstream out;
  out << "SEAM_KERNEL void " << kernel.name << "(void** args) {\n";
  out << "  typedef " << (kernel.index64 ? "long long" : "int") << " idx_t;\n";
  for (size_t p = 0; p < kernel.params.size(); ++p) {
    const kir::Param& param = kernel.params[p];
    const std::string type = kir::c_type(param.dtype), pointer = kernel_param_type(param);
    if (param.kind == kir::Param::Kind::Scalar)
      out << "  const " << type << " " << param.name << " = *static_cast<const " << type << "*>(args[" << p
          << "]);\n";
    else
      out << "  " << pointer << " " << param.name << " = static_cast<" << pointer << ">(args[" << p
          << "]);\n";
  }
  out << "  const seam_rows seam_row_ctx{};\n";
  out << "  const int seam_lane = 0, seam_lanes = 1;\n";
  if (!rows.peel) {
    out << "  const idx_t seam_row_extent = " << rows.vectors() << ";\n";
    out << "  (void)seam_row_ctx; (void)seam_lane; (void)seam_lanes; (void)seam_row_extent;\n";
  } else {
    out << "  (void)seam_row_ctx; (void)seam_lane; (void)seam_lanes;\n";
  }
  if (rows.iterations > 0) {  // one thread per row: its share is the whole row (at most, when peeled)
    out << "  const idx_t seam_row_iterations = "
        << (rows.peel ? std::to_string(rows.vectors()) : "seam_row_extent") << ";\n";
    for (const kir::RowCache& c : rows.caches)
      out << "  seam_row_cache<" << kir::c_type(c.dtype) << ", " << c.lanes << "> " << c.name
          << (rows.peel ? "(seam_row_iterations);\n" : "(seam_row_extent);\n");
  }
  out << "  for (idx_t row = 0; row < " << rows.rows << "; ++row) {\n";
  if (rows.peel) {
    print_row_shift(rows, out);
    out << "    const idx_t seam_row_extent = " << peeled_row_vectors(rows) << ";\n";
  }
  print_kernel_block(kernel, rows.body, out, 2);
  out << "  }\n";
  if (!kernel.outputs.empty()) {
    out << "  for (idx_t g = 0; g < " << chunks(kernel) << "; ++g) {\n";
    print_kernel_dispatch(kernel, out, 2);
    out << "  }\n";
  }
  out << "}\n";
  return out.str();
}

}  // namespace seam
