// How a matrix product step (one matmul or linear, a Matmul group) maps onto column-major GEMM calls of
// a vendor library. seam's tensors are row-major, so C = A @ B runs as C^T = B^T @ A^T: a column-major
// library reads row-major memory as the transposes, and strided operands (a transposed weight, a batch
// that broadcasts) become its transpose flags, leading dimensions and batch strides; no copies. Batch
// axes that broadcast one operand fold into the rows of one large product; the rest become one strided
// batch per call and, where strides are not uniform, several calls. Pure (no GPU): exec/cublas_matmul.*
// turns a plan into cuBLASLt descriptors.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "plan/kernel_fusion.h"

namespace seam {

// Element offsets of the first matrices of one library call, from the start of each operand's buffer.
struct GemmCall {
  int64_t a = 0, b = 0, d = 0;
};

struct MatmulPlan {
  OpKind op = OpKind::Matmul;
  DType dtype = DType::Float32;
  // The library's column-major terms, per matrix of a batch: D[m x n] = op(A)[m x k] op(B)[k x n]
  // (+ bias[m]). A is the product's right operand, B its left one, D the output.
  int64_t m = 0, n = 0, k = 0;
  bool transpose_a = false, transpose_b = false;
  int64_t lda = 1, ldb = 1, ldd = 1;
  int64_t batch = 1;                                 // matrices per call (a strided batch)
  int64_t stride_a = 0, stride_b = 0, stride_d = 0;  // elements between a call's matrices (0: reused)
  size_t input_a = 0, input_b = 0;                   // kernel inputs (KernelFusion::inputs) behind A and B
  std::optional<size_t> input_bias;                  // linear's bias: a kernel input, contiguous
  int64_t bias_offset = 0;                           // elements from the bias input's start
  std::vector<GemmCall> calls;                       // none when the output is empty or filled
  bool zero_fill = false;                            // k == 0 without a bias: the output is all zeros
  bool bias_fill = false;                            // k == 0 with a bias: every output row is the bias
  int64_t output_elements = 0;
  // Per operand, the largest power of two (bytes, at most 256) dividing every call's offset and the batch
  // stride: with the buffers' own alignment, what the library may assume of each matrix's address.
  int offset_alignment_a = 256, offset_alignment_b = 256, offset_alignment_d = 256;
};

// The plan for the kernel fusion of a Matmul group: its one matmul or linear node, whose operands are
// kernel inputs or views of them, and whose output is the kernel's only output (written contiguously).
// Throws seam::Error naming the operand when its layout has no GEMM form (a matrix axis broadcast, or
// neither of its two matrix axes contiguous) or the sizes exceed the library's limits.
MatmulPlan plan_matmul(const KernelFusion& kernel);

// The product's operands that are views (of the segmented fusion: KernelFusion::sources) with no GEMM
// layout, e.g. a broadcast along a matrix axis: the executable writes them out contiguously first
// (extract_view_copy). A fusion input with such strides is not among them (plan_matmul refuses it).
std::vector<Value> views_without_gemm_form(const KernelFusion& kernel);

}  // namespace seam
