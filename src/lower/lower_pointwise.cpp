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

// The tile of the second-innermost axis ("rows") whose index becomes the outermost of the chunk order,
// or 1: with [B, H, T, D] chunks then run over [T / tile, B, H, tile, D], so every head of a position
// runs close in time and a position's broadcast inputs (RoPE's cos/sin) and expanded sources (GQA's k/v)
// are read while still in L2. Only for slabs (rows x innermost, one [b, h]) of at least
// row_tile_min_bytes: below, row-major order keeps them in L2 anyway and measured a few points faster
// (bench/RESULTS.md: RoPE at T = 32768 went from 54-72% to 87-94% of the floor; at T = 4096, -2 points).
int64_t row_tile_for(const Type& type, const LoweringOptions& options) {
  const Shape& shape = type.shape;
  if (options.row_tile <= 1 || shape.size() < 3) return 1;
  int64_t outer = 1;
  for (size_t d = 0; d + 2 < shape.size(); ++d) outer *= shape[d];
  const int64_t rows = shape[shape.size() - 2];
  const int64_t slab_bytes = rows * shape.back() * dtype_size(type.dtype);
  if (outer <= 1 || slab_bytes < options.row_tile_min_bytes) return 1;
  for (int64_t t = options.row_tile; t > 1; t /= 2)
    if (rows % t == 0 && rows / t >= 2) return t;
  return 1;
}

class OutputLowering : public ExpressionEmitter {
 public:
  using ExpressionEmitter::ExpressionEmitter;

  // Emits the program computing output `o` into `body`, chunks in the order of row tile `tile`.
  void lower(int o, const std::string& chunk, kir::Block& body, bool branch_free, int64_t tile) {
    branch_free_ = branch_free;
    const FusionOutput& out = fusion_.outputs()[static_cast<size_t>(o)];
    const Type& type = fusion_.type(out.value);
    if (type.numel() == 0) return;  // no chunks: nothing to compute
    blocks_.push_back(&body);
    memo_.emplace_back();
    const Shape shape = type.shape;
    AxisIndex idx;
    idx.index.assign(shape.size(), kir::constant(0));
    // Chunk c enumerates `dims`, the last fastest; each adds coordinate * factor to its axis's index.
    std::vector<Dim> dims;  // none for a rank-0 output: its one chunk has no indices
    const size_t last = shape.empty() ? 0 : shape.size() - 1;
    if (!shape.empty()) {
      if (tile > 1) dims.push_back({last - 1, shape[last - 1] / tile, tile});
      for (size_t d = 0; d < last; ++d) dims.push_back({d, d + 1 == last && tile > 1 ? tile : shape[d], 1});
      SEAM_ASSERT(shape[last] % lanes_ == 0);
      dims.push_back({last, shape[last] / lanes_, lanes_});
    }
    int64_t inner = 1;
    for (size_t k = dims.size(); k-- > 0;) {
      const Dim& dim = dims[k];
      Index c = kir::div(kir::variable(chunk), inner);
      if (k > 0) c = kir::mod(c, dim.extent);
      // The lane index is a multiple of `lanes` by construction: kept as q * lanes for the proofs.
      const bool lane = dim.axis == last && lanes_ > 1;
      Index coordinate = let((lane ? "q" : "i") + std::to_string(counter_++), c);
      idx.index[dim.axis] = kir::add(idx.index[dim.axis], kir::mul(coordinate, dim.factor));
      if (lane) idx.lane_axis = static_cast<int>(last);
      inner *= dim.extent;
    }
    // Where the chunk's first element is stored: row-major, or in the tiled order its index sum.
    Index element = kir::mul(kir::variable(chunk), lanes_);
    if (tile > 1) {
      element = kir::constant(0);
      int64_t stride = 1;
      for (size_t d = shape.size(); d-- > 0;) {
        element = kir::add(element, kir::mul(idx.index[d], stride));
        stride *= shape[d];
      }
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
    tidy(body);
  }

 private:
  // Merges sibling-piece loads and hoists loads, in this block and in the branches inside it (cats and
  // pads on outer axes stay branches; their pieces may hold branch-free cats of their own).
  void tidy(kir::Block& block) {
    if (branch_free_) merge_guarded_loads(block);
    hoist_loads(block);
    for (kir::Stmt& s : block) {
      if (s.kind != kir::Stmt::Kind::If) continue;
      tidy(s.then_block);
      tidy(s.else_block);
    }
  }

  struct Dim {
    size_t axis;
    int64_t extent, factor;
  };

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
    program.row_tile = row_tile_for(t, options);
    for (int lanes = widest_lanes(t, options.max_vector_bytes);; lanes /= 2) {
      program.body.clear();
      program.lanes = lanes;
      int saved = counter;
      try {
        OutputLowering lowering(fusion, kernel, input_param, lanes, counter);
        lowering.lower(static_cast<int>(o), program.chunk, program.body, options.branch_free,
                       program.row_tile);
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
