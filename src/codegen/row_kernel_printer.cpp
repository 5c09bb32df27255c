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

// Outer reductions (kir::OuterReduction): per reduction, the accumulator (registers when persistent, the
// block's workspace row when streamed) zeroed before the rows.
void print_cuda_outer_prologue(const kir::RowLaunch& rows, std::ostringstream& out) {
  const kir::OuterWorkspace w = kir::outer_workspace(rows);
  for (size_t j = 0; j < rows.outer.size(); ++j) {
    const std::string& acc = rows.outer[j].accumulator;
    if (rows.iterations > 0) {
      out << "  float " << acc << "[" << rows.iterations << "][" << rows.vector << "];\n";
      out << "  seam_outer_zero(" << acc << ");\n";
    } else {
      out << "  const seam_outer_row<" << rows.vector << "> " << acc
          << "{seam_outer_partials(seam_workspace, " << j << ", " << rows.reduced << "LL, " << w.header
          << ")};\n";
      out << "  seam_outer_zero(" << acc << ", seam_lane, seam_lanes, " << rows.vectors() << "LL);\n";
    }
  }
}

// The totals and `finish` per column, on the block that sums the group rows. A total is a value of one
// lane, which the body printer names NAME_0.
void print_outer_finish(const kir::Kernel& kernel, const std::string& column_loop, const std::string& blocks,
                        std::ostringstream& out) {
  const kir::RowLaunch& rows = *kernel.rows;
  const kir::OuterWorkspace w = kir::outer_workspace(rows);
  out << "    " << column_loop << " {\n";
  for (size_t j = 0; j < rows.outer.size(); ++j)
    out << "      const float " << rows.outer[j].total << "_0 = seam_outer_total(seam_workspace, " << j
        << ", " << rows.reduced << "LL, seam_col, " << rows.outer.size() << ", " << blocks << w.group_size
        << ", " << w.header << ");\n";
  print_kernel_block(kernel, rows.finish, out, 3);
  out << "    }\n";
}

// After the rows: persistent partials to the workspace, the groups' sums, then the totals.
void print_cuda_outer_epilogue(const kir::Kernel& kernel, std::ostringstream& out) {
  const kir::RowLaunch& rows = *kernel.rows;
  const kir::OuterWorkspace w = kir::outer_workspace(rows);
  if (rows.iterations > 0)
    for (size_t j = 0; j < rows.outer.size(); ++j)
      out << "  seam_outer_store(" << rows.outer[j].accumulator << ", seam_outer_partials(seam_workspace, "
          << j << ", " << rows.reduced << "LL, " << w.header << "), seam_row_ctx, " << rows.vectors()
          << "LL);\n";
  out << "  if (seam_outer_arrive(seam_workspace, " << rows.outer.size() << ", " << rows.reduced << "LL, "
      << w.group_size << ", " << w.header << ")) {\n";
  print_outer_finish(kernel,
                     "for (idx_t seam_col = (idx_t)threadIdx.x; seam_col < " + std::to_string(rows.reduced) +
                         "; seam_col += (idx_t)blockDim.x)",
                     "", out);
  out << "  }\n";
}

// The host runs the grid's blocks in order, each over its rows as the GPU's block loop visits them.
void print_host_outer_rows(const kir::Kernel& kernel, std::ostringstream& out) {
  const kir::RowLaunch& rows = *kernel.rows;
  const kir::OuterWorkspace w = kir::outer_workspace(rows);
  const int64_t blocks = rows.partial_blocks, per_block = rows.rows_per_block;
  out << "  for (idx_t seam_block = 0; seam_block < " << blocks << "; ++seam_block) {\n";
  for (size_t j = 0; j < rows.outer.size(); ++j) {
    const std::string& acc = rows.outer[j].accumulator;
    out << "    const seam_outer_row<" << rows.vector << "> " << acc
        << "{seam_outer_partials(seam_workspace, " << j << ", " << rows.reduced << "LL, " << blocks
        << "LL, seam_block, " << w.header << ")};\n";
    out << "    seam_outer_zero(" << acc << ", " << rows.vectors() << "LL);\n";
  }
  out << "    for (idx_t seam_first_row = seam_block * " << per_block << "; seam_first_row < " << rows.rows
      << "; seam_first_row += " << blocks * per_block << ") {\n";
  out << "      for (idx_t row = seam_first_row; row < seam_first_row + " << per_block << " && row < "
      << rows.rows << "; ++row) {\n";
  print_kernel_block(kernel, rows.body, out, 4);
  out << "      }\n    }\n";
  out << "    if (!seam_outer_arrive(seam_workspace, " << rows.outer.size() << ", " << rows.reduced << "LL, "
      << blocks << "LL, seam_block, " << w.group_size << ", " << w.header << ")) continue;\n";
  print_outer_finish(kernel,
                     "for (idx_t seam_col = 0; seam_col < " + std::to_string(rows.reduced) + "; ++seam_col)",
                     std::to_string(blocks) + "LL, ", out);
  out << "  }\n";
}

}  // namespace

std::string print_cuda_row_kernel(const kir::Kernel& kernel) {
  SEAM_ASSERT(kernel.rows.has_value());
  const kir::RowLaunch& rows = *kernel.rows;
  const int block = rows.block_size();
  std::ostringstream out;
  out << "#include \"seam_device.cuh\"\n\n";
  const int cluster = rows.cluster;
  print_cuda_signature(kernel, CudaLaunchShape{block, rows.min_blocks_per_sm, cluster}, out);
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
  print_cuda_outer_prologue(rows, out);
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
  if (!rows.outer.empty()) print_cuda_outer_epilogue(kernel, out);
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
  print_host_entry(kernel, out);
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
  if (!rows.outer.empty()) {
    print_host_outer_rows(kernel, out);
  } else {
    out << "  for (idx_t row = 0; row < " << rows.rows << "; ++row) {\n";
    if (rows.peel) {
      print_row_shift(rows, out);
      out << "    const idx_t seam_row_extent = " << peeled_row_vectors(rows) << ";\n";
    }
    print_kernel_block(kernel, rows.body, out, 2);
    out << "  }\n";
  }
  if (!kernel.outputs.empty()) {
    out << "  for (idx_t g = 0; g < " << chunks(kernel) << "; ++g) {\n";
    print_kernel_dispatch(kernel, out, 2);
    out << "  }\n";
  }
  out << "}\n";
  return out.str();
}

}  // namespace seam
