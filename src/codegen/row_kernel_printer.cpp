#include "codegen/row_kernel_printer.h"

#include <algorithm>
#include <utility>

#include "codegen/c_type.h"
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
void print_row_shift(const kir::RowLaunch& rows, std::ostringstream& out, ConstantSpelling& sp) {
  if (rows.peel_columns) {  // by columns: every row's vectors start at its first element
    out << "    const idx_t seam_row_shift = 0;\n";
    return;
  }
  out << "    const idx_t seam_row_shift = (idx_t)((long long)row * (long long)" << sp.integer(rows.reduced)
      << " % " << rows.vector << ");\n";
}

// The vectors of a peeled row: its elements and its shift, rounded up to whole vectors.
std::string peeled_row_vectors(const kir::RowLaunch& rows, ConstantSpelling& sp) {
  return "(" + sp.integer(rows.reduced + rows.vector - 1) + " + seam_row_shift) / " +
         std::to_string(rows.vector);
}

// What loading a later row ahead repeats (kir::RowLaunch::load_ahead): the body's index Lets and
// per-row fills before its first row loop, and that loop when it is the caches' fill loop
// (lower/row_cache.h, row_fills_loadable_ahead: nothing else there reads a value).
kir::Block load_ahead_block(const kir::RowLaunch& rows) {
  kir::Block block;
  for (const kir::Stmt& s : rows.body) {
    if (s.kind == kir::Stmt::Kind::Let) block.push_back(s);
    if (s.kind == kir::Stmt::Kind::Define && s.expr.cache_fill) block.push_back(s);
    if (s.kind != kir::Stmt::Kind::RowLoop) continue;
    const bool fills = std::any_of(s.then_block.begin(), s.then_block.end(),
                                   [](const kir::Stmt& t) { return t.expr.cache_fill; });
    if (fills) block.push_back(s);
    break;
  }
  return block;
}

// The caches' register arrays: per iteration, or one entry for a per-row cache; loaded ahead
// (kir::RowLaunch::load_ahead), a second set for the next row group, NAME_next.
void print_row_caches(const kir::RowLaunch& rows, bool host, std::ostringstream& out) {
  for (const kir::RowCache& c : rows.caches)
    for (const std::string& name : {c.name, c.name + "_next"}) {
      if (name != c.name && !rows.load_ahead) continue;
      if (c.per_row)
        out << "  alignas(16) " << c_type(c.dtype) << " " << name << "[" << c.lanes << "];\n";
      else if (host)
        out << "  seam_row_cache<" << c_type(c.dtype) << ", " << c.lanes << "> " << name
            << (rows.peel ? "(seam_row_iterations);\n" : "(seam_row_extent);\n");
      else
        out << "  alignas(16) " << c_type(c.dtype) << " " << name << "[" << rows.iterations << "][" << c.lanes
            << "];\n";
    }
}

// The body's statements up to its fill loop (load_ahead_block's source: index Lets, constants, per-row
// fills, the fill loop), and those after it.
std::pair<kir::Block, kir::Block> split_at_fills(const kir::RowLaunch& rows) {
  kir::Block fills, rest;
  bool filled = false;
  for (const kir::Stmt& s : rows.body) {
    (filled ? rest : fills).push_back(s);
    if (s.kind == kir::Stmt::Kind::RowLoop) filled = true;
  }
  return {std::move(fills), std::move(rest)};
}

// Outer reductions (kir::OuterReduction): per reduction, the accumulator (registers when persistent, the
// block's workspace row when streamed) zeroed before the rows.
void print_cuda_outer_prologue(const kir::RowLaunch& rows, std::ostringstream& out, ConstantSpelling& sp) {
  const kir::OuterWorkspace w = kir::outer_workspace(rows);
  for (size_t j = 0; j < rows.outer.size(); ++j) {
    const std::string& acc = rows.outer[j].accumulator;
    if (rows.iterations > 0) {
      out << "  float " << acc << "[" << rows.iterations << "][" << rows.vector << "];\n";
      out << "  seam_outer_zero(" << acc << ");\n";
    } else {
      out << "  const seam_outer_row<" << rows.vector << "> " << acc
          << "{seam_outer_partials(seam_workspace, " << j << ", " << sp.extent(rows.outer_columns()) << ", "
          << sp.extent(w.header) << ")};\n";
      out << "  seam_outer_zero(" << acc << ", seam_lane, seam_lanes, " << sp.extent(rows.vectors())
          << ");\n";
    }
  }
}

// The totals and `finish` per column, on the block that sums the group rows. A total is a value of one
// lane, which the body printer names NAME_0.
void print_outer_finish(const kir::Kernel& kernel, const std::string& column_loop, const std::string& blocks,
                        std::ostringstream& out, ConstantSpelling& sp) {
  const kir::RowLaunch& rows = *kernel.rows;
  const kir::OuterWorkspace w = kir::outer_workspace(rows);
  out << "    " << column_loop << " {\n";
  for (size_t j = 0; j < rows.outer.size(); ++j)
    out << "      const float " << rows.outer[j].total << "_0 = seam_outer_total(seam_workspace, " << j
        << ", " << sp.extent(rows.outer_columns()) << ", seam_col, " << rows.outer.size() << ", " << blocks
        << sp.extent(w.group_size) << ", " << sp.extent(w.header) << ");\n";
  print_kernel_block(kernel, rows.finish, out, 3, sp);
  out << "    }\n";
}

// After the rows: persistent partials to the workspace, the groups' sums, then the totals.
void print_cuda_outer_epilogue(const kir::Kernel& kernel, std::ostringstream& out, ConstantSpelling& sp) {
  const kir::RowLaunch& rows = *kernel.rows;
  const kir::OuterWorkspace w = kir::outer_workspace(rows);
  if (rows.iterations > 0)
    for (size_t j = 0; j < rows.outer.size(); ++j)
      out << "  seam_outer_store(" << rows.outer[j].accumulator << ", seam_outer_partials(seam_workspace, "
          << j << ", " << sp.extent(rows.outer_columns()) << ", " << sp.extent(w.header)
          << "), seam_row_ctx, " << sp.extent(rows.vectors()) << ");\n";
  out << "  if (seam_outer_arrive(seam_workspace, " << rows.outer.size() << ", "
      << sp.extent(rows.outer_columns()) << ", " << sp.extent(w.group_size) << ", " << sp.extent(w.header)
      << ")) {\n";
  print_outer_finish(kernel,
                     "for (idx_t seam_col = (idx_t)threadIdx.x; seam_col < " + sp.extent(rows.reduced) +
                         "; seam_col += (idx_t)blockDim.x)",
                     "", out, sp);
  out << "  }\n";
}

// One row's body on the host. Loaded ahead (kir::RowLaunch::load_ahead): the fills loaded into the next
// registers, then taken from them (the same slots as on the GPU, one row at a time).
void print_host_row_body(const kir::Kernel& kernel, std::ostringstream& out, int depth,
                         ConstantSpelling& sp) {
  const kir::RowLaunch& rows = *kernel.rows;
  if (rows.load_ahead) {
    const std::string pad(2 * static_cast<size_t>(depth), ' ');
    out << pad << "{\n";
    print_kernel_block(kernel, load_ahead_block(rows), out, depth + 1, sp, RowFill::LoadAhead);
    out << pad << "}\n";
    print_kernel_block(kernel, rows.body, out, depth, sp, RowFill::TakeAhead);
    return;
  }
  print_kernel_block(kernel, rows.body, out, depth, sp);
}

// The host runs the grid's blocks in order, each over its rows as the GPU's block loop visits them.
void print_host_outer_rows(const kir::Kernel& kernel, std::ostringstream& out, ConstantSpelling& sp) {
  const kir::RowLaunch& rows = *kernel.rows;
  const kir::OuterWorkspace w = kir::outer_workspace(rows);
  const int64_t blocks = rows.partial_blocks, per_block = rows.rows_per_block;
  const std::string block_count = sp.extent(blocks);
  out << "  for (idx_t seam_block = 0; seam_block < " << block_count << "; ++seam_block) {\n";
  for (size_t j = 0; j < rows.outer.size(); ++j) {
    const std::string& acc = rows.outer[j].accumulator;
    out << "    const seam_outer_row<" << rows.vector << "> " << acc
        << "{seam_outer_partials(seam_workspace, " << j << ", " << sp.extent(rows.outer_columns()) << ", "
        << block_count << ", seam_block, " << sp.extent(w.header) << ")};\n";
    out << "    seam_outer_zero(" << acc << ", " << sp.extent(rows.vectors()) << ");\n";
  }
  out << "    for (idx_t seam_first_row = seam_block * " << per_block << "; seam_first_row < "
      << sp.extent(rows.rows) << "; seam_first_row += " << sp.extent(blocks * per_block) << ") {\n";
  out << "      for (idx_t row = seam_first_row; row < seam_first_row + " << per_block << " && row < "
      << sp.extent(rows.rows) << "; ++row) {\n";
  out << "        if ((row & 0xff) == 0xff) SEAM_STOP_IF_INTERRUPTED();\n";
  if (rows.peel) {
    print_row_shift(rows, out, sp);
    out << "        const idx_t seam_row_extent = " << peeled_row_vectors(rows, sp) << ";\n";
  }
  print_host_row_body(kernel, out, 4, sp);
  out << "      }\n    }\n";
  out << "    if (!seam_outer_arrive(seam_workspace, " << rows.outer.size() << ", "
      << sp.extent(rows.outer_columns()) << ", " << block_count << ", seam_block, " << sp.extent(w.group_size)
      << ", " << sp.extent(w.header) << ")) continue;\n";
  print_outer_finish(kernel,
                     "for (idx_t seam_col = 0; seam_col < " + sp.extent(rows.reduced) + "; ++seam_col)",
                     block_count + ", ", out, sp);
  out << "  }\n";
}

// A block's loop over its row groups, grid-stride, each row's fills loading into the registers.
void print_cuda_rows(const kir::Kernel& kernel, const std::string& first_block, const std::string& blocks,
                     std::ostringstream& out, ConstantSpelling& sp) {
  const kir::RowLaunch& rows = *kernel.rows;
  out << "  for (long long seam_first_row = (long long)" << first_block << " * " << rows.rows_per_block
      << "; seam_first_row < (long long)" << sp.extent(rows.rows) << "; seam_first_row += (long long)"
      << blocks << " * " << rows.rows_per_block << ") {\n";
  out << "    const idx_t row = (idx_t)(seam_first_row + seam_row_ctx.slot);\n";
  if (rows.peel) {
    print_row_shift(rows, out, sp);
    out << "    const idx_t seam_row_extent = row < " << sp.extent(rows.rows) << " ? "
        << peeled_row_vectors(rows, sp) << " : 0;\n";
  } else {
    out << "    const idx_t seam_row_extent = row < " << sp.extent(rows.rows) << " ? "
        << sp.integer(rows.vectors()) << " : 0;\n";
  }
  out << "    (void)seam_row_extent;\n";
  print_kernel_block(kernel, rows.body, out, 2, sp);
  out << "  }\n";
}

// A block's loop over its row groups with the next group loaded ahead into registers
// (kir::RowLaunch::load_ahead): each group takes its fills from the NAME_next arrays, then issues the
// next group's loads into them, then computes, so those loads are in flight during its reductions.
void print_cuda_rows_loaded_ahead(const kir::Kernel& kernel, const std::string& first_block,
                                  const std::string& blocks, std::ostringstream& out, ConstantSpelling& sp) {
  const kir::RowLaunch& rows = *kernel.rows;
  const std::string last = "(long long)" + sp.extent(rows.rows);
  const std::string stride = "(long long)" + blocks + " * " + std::to_string(rows.rows_per_block);
  const kir::Block ahead = load_ahead_block(rows);
  const auto [fills, rest] = split_at_fills(rows);
  // A row past the last has no vectors: its loads are skipped.
  auto print_load_ahead = [&](const std::string& first, int depth) {
    const std::string pad(2 * static_cast<size_t>(depth), ' ');
    out << pad << "{\n";
    out << pad << "  const long long seam_next_row = " << first << " + seam_row_ctx.slot;\n";
    out << pad << "  const idx_t row = (idx_t)(seam_next_row < " << last << " ? seam_next_row : " << last
        << ");\n";
    out << pad << "  const idx_t seam_row_extent = row < " << sp.extent(rows.rows) << " ? "
        << sp.integer(rows.vectors()) << " : 0;\n";
    print_kernel_block(kernel, ahead, out, depth + 1, sp, RowFill::LoadAhead);
    out << pad << "}\n";
  };
  out << "  long long seam_first_row = (long long)" << first_block << " * " << rows.rows_per_block << ";\n";
  print_load_ahead("seam_first_row", 1);
  out << "  for (; seam_first_row < " << last << "; seam_first_row += " << stride << ") {\n";
  out << "    const idx_t row = (idx_t)(seam_first_row + seam_row_ctx.slot);\n";
  out << "    const idx_t seam_row_extent = row < " << sp.extent(rows.rows) << " ? "
      << sp.integer(rows.vectors()) << " : 0;\n";
  out << "    (void)seam_row_extent;\n";
  print_kernel_block(kernel, fills, out, 2, sp, RowFill::TakeAhead);
  print_load_ahead("seam_first_row + " + stride, 2);
  print_kernel_block(kernel, rest, out, 2, sp);
  out << "  }\n";
}

}  // namespace

std::string print_cuda_row_kernel(const kir::Kernel& kernel, ConstantSpelling& sp) {
  SEAM_ASSERT(kernel.rows.has_value());
  const kir::RowLaunch& rows = *kernel.rows;
  const int block = rows.block_size();
  std::ostringstream out;  // the body: the signature takes the constants it prints
  const int cluster = rows.cluster;
  out << "  __shared__ __align__(16) unsigned char seam_scratch[" << kir::row_scratch_bytes(block) << "];\n";
  out << "  const seam_rows<" << rows.rows_per_block << ", " << rows.threads_per_row << ", "
      << (rows.lanes_contiguous ? "true" : "false") << (cluster > 1 ? ", " + std::to_string(cluster) : "")
      << "> seam_row_ctx(seam_scratch);\n";
  out << "  const int seam_lane = seam_row_ctx.lane;\n";
  out << "  const int seam_lanes = " << rows.threads_per_row * cluster << ";\n";
  if (rows.iterations > 0) {
    out << "  constexpr int seam_row_iterations = " << rows.iterations << ";\n";
    print_row_caches(rows, false, out);
  }
  print_cuda_outer_prologue(rows, out, sp);
  // Every thread of a block runs the same iterations (the row reductions synchronize the block).
  // Over a cluster, its blocks take the same rows (the grid is a multiple of the cluster).
  const std::string first_block =
      cluster > 1 ? "(blockIdx.x / " + std::to_string(cluster) + ")" : "blockIdx.x";
  const std::string blocks = cluster > 1 ? "(gridDim.x / " + std::to_string(cluster) + ")" : "gridDim.x";
  if (rows.load_ahead) {
    print_cuda_rows_loaded_ahead(kernel, first_block, blocks, out, sp);
  } else {
    print_cuda_rows(kernel, first_block, blocks, out, sp);
  }
  if (!rows.outer.empty()) print_cuda_outer_epilogue(kernel, out, sp);
  // No block of a cluster exits while another may still read its shared memory.
  if (cluster > 1) out << "  seam_cluster_sync();\n";
  if (!kernel.outputs.empty()) {
    out << "  for (idx_t g = (idx_t)blockIdx.x * blockDim.x + threadIdx.x; g < " << sp.integer(chunks(kernel))
        << "; g += (idx_t)gridDim.x * blockDim.x) {\n";
    print_kernel_dispatch(kernel, out, 2, sp);
    out << "  }\n";
  }
  out << "}\n";
  std::ostringstream text;
  text << "#include \"seam_device.cuh\"\n\n" << sp.struct_definition(kernel.name);
  print_cuda_signature(kernel, CudaLaunchShape{block, rows.min_blocks_per_sm, cluster}, text, &sp);
  text << out.str();
  return text.str();
}

std::string print_host_row_kernel(const kir::Kernel& kernel, ConstantSpelling& sp) {
  SEAM_ASSERT(kernel.rows.has_value());
  const kir::RowLaunch& rows = *kernel.rows;
  std::ostringstream out;  // the body: the entry takes the constants it prints
  out << "  const seam_rows seam_row_ctx{};\n";
  out << "  const int seam_lane = 0, seam_lanes = 1;\n";
  if (!rows.peel) {
    out << "  const idx_t seam_row_extent = " << sp.integer(rows.vectors()) << ";\n";
    out << "  (void)seam_row_ctx; (void)seam_lane; (void)seam_lanes; (void)seam_row_extent;\n";
  } else {
    out << "  (void)seam_row_ctx; (void)seam_lane; (void)seam_lanes;\n";
  }
  if (rows.iterations > 0) {  // one thread per row: its share is the whole row (at most, when peeled)
    out << "  const idx_t seam_row_iterations = "
        << (rows.peel ? sp.integer(rows.vectors()) : "seam_row_extent") << ";\n";
    print_row_caches(rows, true, out);
  }
  if (!rows.outer.empty()) {
    print_host_outer_rows(kernel, out, sp);
  } else {
    out << "  for (idx_t row = 0; row < " << sp.extent(rows.rows) << "; ++row) {\n";
    out << "    if ((row & 0xff) == 0xff) SEAM_STOP_IF_INTERRUPTED();  // a long run may be stopped\n";
    if (rows.peel) {
      print_row_shift(rows, out, sp);
      out << "    const idx_t seam_row_extent = " << peeled_row_vectors(rows, sp) << ";\n";
    }
    print_host_row_body(kernel, out, 2, sp);
    out << "  }\n";
  }
  if (!kernel.outputs.empty()) {
    out << "  for (idx_t g = 0; g < " << sp.integer(chunks(kernel)) << "; ++g) {\n";
    out << "    if ((g & 0xffff) == 0xffff) SEAM_STOP_IF_INTERRUPTED();\n";
    print_kernel_dispatch(kernel, out, 2, sp);
    out << "  }\n";
  }
  out << "}\n";
  std::ostringstream text;
  text << sp.struct_definition(kernel.name);
  print_host_entry(kernel, text, &sp);
  text << out.str();
  return text.str();
}

}  // namespace seam
