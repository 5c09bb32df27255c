// The kernel IR as text (SEAM_DUMP=kir, tests): one statement a line, blocks indented, index expressions
// as kir::to_string prints them. Meant for reading what lowering and the kernel-IR passes made of a
// kernel before a printer turns it into CUDA or host C++.
#pragma once

#include <string>

#include "lower/kernel_ir.h"

namespace seam {

std::string print_kir(const kir::Kernel& kernel);
std::string print_kir_block(const kir::Block& block, int depth = 0);

}  // namespace seam
