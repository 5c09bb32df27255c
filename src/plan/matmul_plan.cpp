#include "plan/matmul_plan.h"

#include <algorithm>
#include <limits>

#include "lower/index_space.h"
#include "schedule/gemm_layout.h"
#include "schedule/view.h"
#include "support/error.h"

namespace seam {
namespace {

std::string operand_label(const Fusion& f, const Node& node, size_t i) {
  static const char* const matmul_names[] = {"left operand", "right operand"};
  static const char* const linear_names[] = {"input", "weight", "bias"};
  return std::string(op_name(node.op)) + " %" + std::to_string(node.operands[i].id) + "'s " +
         (node.op == OpKind::Matmul ? matmul_names[i] : linear_names[i]) + " " +
         f.type(node.operands[i]).to_string();
}

// The operand's layout as a strided view of one kernel input.
StridedLayout layout_of(const KernelFusion& kernel, const Node& node, size_t i, size_t& input) {
  const Fusion& f = kernel.fusion;
  const Value v = node.operands[i];
  std::optional<StridedLayout> layout = view_of_input(f, v);
  SEAM_CHECK(layout.has_value(), "matrix product: the ", operand_label(f, node, i),
             " is not a view of a kernel input (a copy would be needed first)");
  const Value base = viewed_input(f, v);
  const auto& ins = f.inputs();
  input = static_cast<size_t>(std::find(ins.begin(), ins.end(), base) - ins.begin());
  return *layout;
}

int lowest_alignment(int64_t value_bytes, int current) {
  if (value_bytes == 0) return current;
  const int64_t bit = value_bytes & -value_bytes;
  return static_cast<int>(std::min<int64_t>(current, bit));
}

// The step's one matmul or linear, its only output.
const Node& product_node(const Fusion& f) {
  const Node* product = nullptr;
  for (int32_t id = 0; id < f.num_nodes(); ++id) {
    const Node& n = f.node(Value{id});
    if (n.op != OpKind::Matmul && n.op != OpKind::Linear) continue;
    SEAM_CHECK(product == nullptr, "a matrix product step holds one matmul or linear, this one several");
    product = &n;
  }
  SEAM_CHECK(product != nullptr, "a matrix product step without a matmul or linear");
  SEAM_CHECK(f.outputs().size() == 1 && f.node(f.outputs()[0].value).op == product->op,
             "a matrix product step must output its product alone");
  return *product;
}

// The product's three operands as matrices over the output's batch axes.
struct ProductMatrices {
  GemmMatrices left, right, out;
  std::vector<int64_t> batch_extents;
};

// Batch axes: drop extent 1, fold into M those that broadcast the right operand and continue the rows of
// the left one and of the output, merge neighbours with uniform strides.
void simplify_batch(ProductMatrices& p) {
  std::vector<int64_t>& batch_extents = p.batch_extents;
  GemmMatrices &left = p.left, &right = p.right, &out = p.out;
  std::vector<GemmMatrices*> all = {&left, &right, &out};
  for (size_t d = batch_extents.size(); d-- > 0;) {
    if (batch_extents[d] != 1) continue;
    batch_extents.erase(batch_extents.begin() + static_cast<std::ptrdiff_t>(d));
    for (GemmMatrices* m : all) m->batch.erase(m->batch.begin() + static_cast<std::ptrdiff_t>(d));
  }
  while (!batch_extents.empty()) {
    GemmMatrices folded = left;
    const int64_t left_step = left.batch.back();
    if (folded.rows == 1) folded.row_stride = left_step;
    folded.rows *= batch_extents.back();
    bool transpose = false;
    int64_t ld = 0;
    if (right.batch.back() != 0 || left_step == 0 || left_step != left.rows * folded.row_stride ||
        out.batch.back() != out.rows * out.row_stride || !column_major_form(folded, transpose, ld))
      break;
    left.rows = folded.rows;
    left.row_stride = folded.row_stride;
    out.rows = left.rows;
    batch_extents.pop_back();
    for (GemmMatrices* m : all) m->batch.pop_back();
  }
  for (size_t d = batch_extents.size(); d-- > 1;) {
    const bool uniform = std::all_of(all.begin(), all.end(), [&](const GemmMatrices* m) {
      return m->batch[d - 1] == m->batch[d] * batch_extents[d];
    });
    if (!uniform) continue;
    // The merged axis steps like the inner one.
    batch_extents[d - 1] *= batch_extents[d];
    batch_extents.erase(batch_extents.begin() + static_cast<std::ptrdiff_t>(d));
    for (GemmMatrices* m : all) m->batch.erase(m->batch.begin() + static_cast<std::ptrdiff_t>(d - 1));
  }
}

// The library's batch (the innermost batch axis left), one call per index of the outer ones, and what the
// calls' offsets and strides let the library assume of each matrix's alignment.
void add_calls(MatmulPlan& plan, ProductMatrices p) {
  std::vector<int64_t>& batch_extents = p.batch_extents;
  const GemmMatrices &left = p.left, &right = p.right, &out = p.out;
  if (!batch_extents.empty()) {
    plan.batch = batch_extents.back();
    plan.stride_a = right.batch.back();
    plan.stride_b = left.batch.back();
    plan.stride_d = out.batch.back();
    batch_extents.pop_back();
  }
  SEAM_CHECK(plan.batch <= std::numeric_limits<int32_t>::max(), "matrix product: a batch of ", plan.batch,
             " matrices exceeds the library's limit");
  // Outer batch axes: one call per index.
  int64_t calls = 1;
  for (int64_t e : batch_extents) calls *= e;
  for (int64_t c = 0; c < calls; ++c) {
    GemmCall call{right.offset, left.offset, 0};
    const Shape at = delinearize(c, batch_extents);
    for (size_t d = 0; d < at.size(); ++d) {
      call.a += at[d] * right.batch[d];
      call.b += at[d] * left.batch[d];
      call.d += at[d] * out.batch[d];
    }
    plan.calls.push_back(call);
  }
  const int64_t size = dtype_size(plan.dtype);
  for (const GemmCall& call : plan.calls) {
    plan.offset_alignment_a = lowest_alignment(call.a * size, plan.offset_alignment_a);
    plan.offset_alignment_b = lowest_alignment(call.b * size, plan.offset_alignment_b);
    plan.offset_alignment_d = lowest_alignment(call.d * size, plan.offset_alignment_d);
  }
  plan.offset_alignment_a = lowest_alignment(plan.stride_a * size, plan.offset_alignment_a);
  plan.offset_alignment_b = lowest_alignment(plan.stride_b * size, plan.offset_alignment_b);
  plan.offset_alignment_d = lowest_alignment(plan.stride_d * size, plan.offset_alignment_d);
}

}  // namespace

std::vector<Value> views_without_gemm_form(const KernelFusion& kernel) {
  const Fusion& f = kernel.fusion;
  const Node& node = product_node(f);
  std::vector<Value> views;
  for (size_t i = 0; i < node.operands.size(); ++i) {
    const Value v = node.operands[i];
    std::optional<StridedLayout> layout = view_of_input(f, v);
    if (f.node(v).op == OpKind::Input || !layout) continue;  // inputs are read as they are (or refused)
    if (!has_gemm_form(node, i, *layout)) views.push_back(kernel.sources.at(static_cast<size_t>(v.id)));
  }
  return views;
}

MatmulPlan plan_matmul(const KernelFusion& kernel) {
  const Fusion& f = kernel.fusion;
  const Node& node = product_node(f);
  MatmulPlan plan;
  plan.op = node.op;
  plan.dtype = node.type.dtype;
  const Shape& out_shape = node.type.shape;
  plan.output_elements = 1;
  for (int64_t e : out_shape) plan.output_elements *= e;

  size_t left_input = 0, right_input = 0;
  const StridedLayout a = layout_of(kernel, node, 0, left_input);
  const StridedLayout b = layout_of(kernel, node, 1, right_input);
  ProductMatrices p;
  if (node.op == OpKind::Matmul || a.shape.size() >= 2)
    p.batch_extents.assign(out_shape.begin(), out_shape.end() - 2);
  p.left = gemm_matrices(node, 0, a, p.batch_extents.size());
  p.right = gemm_matrices(node, 1, b, p.batch_extents.size());
  GemmMatrices &left = p.left, &right = p.right, &out = p.out;
  if (node.operands.size() == 3) {
    size_t bias_input = 0;
    const StridedLayout bias = layout_of(kernel, node, 2, bias_input);
    SEAM_CHECK(bias_contiguous(bias), "matrix product: the ", operand_label(f, node, 2),
               " must be contiguous (stride ", bias.strides[0], ")");
    plan.input_bias = bias_input;
    plan.bias_offset = bias.offset;
  }
  const int64_t M = left.rows, K = left.cols, N = right.cols;
  out.rows = M, out.cols = N, out.row_stride = N, out.col_stride = 1;
  {
    int64_t stride = M * N;
    out.batch.assign(p.batch_extents.size(), 0);
    for (size_t d = p.batch_extents.size(); d-- > 0;) {
      out.batch[d] = stride;
      stride *= p.batch_extents[d];
    }
  }
  plan.k = K;
  if (plan.output_elements == 0) return plan;
  if (K == 0) {  // empty sums: zeros, or the bias in every row
    plan.m = N;
    (plan.input_bias ? plan.bias_fill : plan.zero_fill) = true;
    return plan;
  }

  simplify_batch(p);

  // The library's terms: D^T = R^T L^T, so its A is the right operand, its B the left one.
  plan.m = N, plan.n = left.rows;
  plan.input_a = right_input;
  plan.input_b = left_input;
  SEAM_CHECK(column_major_form(right, plan.transpose_a, plan.lda), "matrix product: the ",
             operand_label(f, node, 1), " has no GEMM layout (strides ", right.row_stride, ", ",
             right.col_stride, " on its matrix axes: one of them must be 1 and the other cover the first)");
  SEAM_CHECK(column_major_form(left, plan.transpose_b, plan.ldb), "matrix product: the ",
             operand_label(f, node, 0), " has no GEMM layout (strides ", left.row_stride, ", ",
             left.col_stride, " on its matrix axes: one of them must be 1 and the other cover the first)");
  plan.ldd = std::max<int64_t>(N, 1);
  add_calls(plan, p);
  return plan;
}

}  // namespace seam
