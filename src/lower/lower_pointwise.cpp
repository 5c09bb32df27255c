#include "lower/lower_pointwise.h"

#include <algorithm>
#include <map>
#include <numeric>

#include "ir/infer.h"
#include "lower/expression_emitter.h"
#include "lower/kernel_params.h"
#include "lower/merge_guarded_loads.h"
#include "support/error.h"

namespace seam {
namespace {

using kir::Index;

class OutputLowering : public ExpressionEmitter {
 public:
  using ExpressionEmitter::ExpressionEmitter;

  // Emits the program computing output `o` into `body`.
  void lower(int o, const std::string& chunk, kir::Block& body, bool branch_free) {
    branch_free_ = branch_free;
    const FusionOutput& out = fusion_.outputs()[static_cast<size_t>(o)];
    const Type& type = fusion_.type(out.value);
    if (type.numel() == 0) return;  // no chunks: nothing to compute
    blocks_.push_back(&body);
    memo_.emplace_back();
    AxisIndex idx;
    Index element = kir::mul(kir::variable(chunk), lanes_);
    const Shape& shape = type.shape;
    int64_t inner = 1;
    idx.index.resize(shape.size());
    for (size_t d = shape.size(); d-- > 0;) {
      Index i = d == 0 ? kir::div(element, inner) : kir::mod(kir::div(element, inner), shape[d]);
      idx.index[d] = let("i" + std::to_string(counter_++), i);
      // The lane variable is a multiple of `lanes` by construction; record that for the proofs.
      if (d + 1 == shape.size() && lanes_ > 1) {
        SEAM_ASSERT(shape[d] % lanes_ == 0);
        idx.index[d] =
            kir::mul(let("q" + std::to_string(counter_++), kir::div(idx.index[d], lanes_)), lanes_);
        idx.lane_axis = static_cast<int>(d);
      }
      inner *= shape[d];
    }
    kir::Var value = emit(out.value, idx);
    value = convert(value, type.dtype);
    kir::Stmt store{kir::Stmt::Kind::Store};
    store.param = kernel_output_param(o);
    store.index = element;
    store.source = value;
    if (value.lanes != lanes_) {  // a uniform value stored to every lane
      kir::Var wide = declare(type.dtype, lanes_, Number::of_int(0));
      assign(wide, value);
      store.source = wide;
    }
    body.push_back(std::move(store));
    if (branch_free_) merge_guarded_loads(body);
    hoist_loads(body);
  }

 private:
  // Moves the index arithmetic and the loads of a chunk (guarded ones included) to its start, keeping
  // their order, so that every load is in flight before the first use of any of them; loads inside pad/cat
  // branches (branch_free off) stay where they are. Legal because lets and loads depend only on lets.
  static void hoist_loads(kir::Block& body) {
    auto hoistable = [](const kir::Stmt& s) {
      return s.kind == kir::Stmt::Kind::Let ||
             (s.kind == kir::Stmt::Kind::Define &&
              (s.expr.kind == kir::Expr::Kind::Load || s.expr.kind == kir::Expr::Kind::Literal ||
               s.expr.kind == kir::Expr::Kind::Scalar));
    };
    std::stable_partition(body.begin(), body.end(), hoistable);
  }

  int kernel_output_param(int o) const {
    for (size_t p = 0; p < kernel_.params.size(); ++p)
      if (kernel_.params[p].kind == kir::Param::Kind::Output && kernel_.params[p].fusion_index == o)
        return static_cast<int>(p);
    SEAM_ASSERT(false, "no parameter for output ", o);
  }
};

int widest_lanes(const Type& type, int max_vector_bytes) {
  if (type.is_scalar || type.rank() == 0 || type.numel() == 0) return 1;
  int lanes = std::max(1, max_vector_bytes / dtype_size(type.dtype));
  while (lanes > 1 && type.shape.back() % lanes != 0) lanes /= 2;
  return lanes;
}

}  // namespace

kir::Kernel lower_pointwise(const Fusion& fusion, const LoweringOptions& options) {
  kir::Kernel kernel;
  kernel.name = options.kernel_name;
  const std::vector<int> input_param = declare_kernel_params(fusion, kernel);

  int counter = 0;
  for (size_t o = 0; o < fusion.outputs().size(); ++o) {
    const Type& t = fusion.type(fusion.outputs()[o].value);
    kir::OutputProgram program;
    program.numel = t.numel();
    program.chunk = "chunk" + std::to_string(o);
    for (int lanes = widest_lanes(t, options.max_vector_bytes);; lanes /= 2) {
      program.body.clear();
      program.lanes = lanes;
      int saved = counter;
      try {
        OutputLowering lowering(fusion, kernel, input_param, lanes, counter);
        lowering.lower(static_cast<int>(o), program.chunk, program.body, options.branch_free);
        break;
      } catch (const NotVectorizable&) {
        SEAM_ASSERT(lanes > 1, "scalar lowering cannot fail to vectorize");
        counter = saved;
      }
    }
    program.chunks = program.numel / program.lanes;
    program.param = static_cast<int>(fusion.inputs().size() + o);
    kernel.outputs.push_back(std::move(program));
  }
  return kernel;
}

}  // namespace seam
