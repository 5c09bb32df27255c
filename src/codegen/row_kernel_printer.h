// Entry points of row kernels (kir::Kernel::rows; docs/CODEGEN.md, "Reductions"). The body is the shared
// kernel body; the entries define what it reads: `row`, this thread's `seam_lane` of `seam_lanes`
// threads of the row, `seam_row_extent` (the row's reduced elements, 0 for a row past the end) and
// `seam_row_ctx` for the row reductions. On the GPU a block holds rows_per_block rows of threads_per_row
// threads and loops over the rows grid-stride; on the host one thread walks every row.
#pragma once

#include <sstream>
#include <string>

#include "codegen/kernel_constants.h"
#include "lower/kernel_ir.h"

namespace seam {

// `spelling` prints the extents (rows, row length, index arithmetic) as literals or arguments.
std::string print_cuda_row_kernel(const kir::Kernel& kernel, ConstantSpelling& spelling);
std::string print_host_row_kernel(const kir::Kernel& kernel, ConstantSpelling& spelling);

// How a persistent row kernel's cache fills print: as loads into the registers (Load), or loaded ahead
// (kir::RowLaunch::load_ahead): loads into the NAME_next registers (LoadAhead) and copies from them
// (TakeAhead).
enum class RowFill { Load, LoadAhead, TakeAhead };

// Shared with the chunk-kernel printer (codegen/kernel_printer.cpp), which defines them.
void print_kernel_block(const kir::Kernel& kernel, const kir::Block& block, std::ostringstream& out,
                        int depth, ConstantSpelling& spelling, RowFill fill = RowFill::Load);
std::string kernel_param_type(const kir::Param& param);
// `SEAM_KERNEL void NAME(void** args) {`, the idx_t typedef and the parameters read from their slots,
// the index error record and the workspace included (kir::trailing_slots).
// With `constants` holding arguments, the extents' struct `seam_k` from its slot too.
void print_host_entry(const kir::Kernel& kernel, std::ostringstream& out,
                      const ConstantSpelling* constants = nullptr);
// The per-chunk dispatch over kernel.outputs, reading the chunk index `g`.
void print_kernel_dispatch(const kir::Kernel& kernel, std::ostringstream& out, int depth,
                           ConstantSpelling& spelling);

}  // namespace seam
