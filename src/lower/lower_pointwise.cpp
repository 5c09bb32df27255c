#include "lower/lower_pointwise.h"

#include <algorithm>
#include <map>
#include <numeric>

#include "ir/infer.h"
#include "lower/cse_values.h"
#include "lower/expression_emitter.h"
#include "lower/invariant_coordinate.h"
#include "lower/kernel_params.h"
#include "lower/loop_invariants.h"
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
// (bench/RESULTS_SESSIONS_1_2.md: RoPE at T = 32768 went from 54-72% to 87-94% of the floor; at T = 4096, -2
// points). Tiles of 2 rows measured as fast as or faster than 8 or 32 on every tiled row (bench/RESULTS.md,
// session 7: gemma's 4 MiB slabs -0.6 to -3.9% of the time, T = 32768 -0.3 to -0.4%): the rows of every
// head of two positions read in turn are two whole rows of qkv. Outputs taken in runs (RoPE backward's
// dqkv, which reads [B, H, T, D] gradients) keep tiles of 32 (run_row_tile): there a tile is a run of 32
// rows read from each gradient head, and tiles of 2 measured 1-6% slower (46% on phi-2, whose runs of 10
// chunks then split warps; bench/RESULTS.md, session 6).
// The product of the extents outside the two innermost axes (the slabs of rows x innermost).
int64_t slab_count(const Shape& shape) {
  int64_t outer = 1;
  for (size_t d = 0; d + 2 < shape.size(); ++d) outer *= shape[d];
  return outer;
}

// `tile`: the largest tile tried (options.row_tile, or run_row_tile for an output taken in runs).
int64_t row_tile_for(const Type& type, const LoweringOptions& options, int tile) {
  const Shape& shape = type.shape;
  if (options.row_tile <= 1 || tile <= 1 || shape.size() < 3) return 1;
  const int64_t outer = slab_count(shape);
  const int64_t rows = shape[shape.size() - 2];
  const int64_t slab_bytes = rows * shape.back() * dtype_size(type.dtype);
  if (outer <= 1 || slab_bytes < options.row_tile_min_bytes) return 1;
  for (int64_t t = tile; t > 1; t /= 2)
    if (rows % t == 0 && rows / t >= 2) return t;
  return 1;
}

// 2 for outputs whose rows end inside a 128-byte line (Phi-3.5's head size 96: 192-byte rows), else 1.
// Such a row shares lines with its neighbour in the input the output reads (the next head of qkv), and
// row-major order reads that neighbour only a whole slab later; pairs of rows, every head of the pair of
// positions in turn, read both halves of a line close in time. Measured on W8 forward: +3.5-5% (bench/
// RESULTS.md, sessions 5 and 6); phi-2 (160-byte rows) unchanged. Only for an otherwise row-major order:
// not with runs (branches per row, RoPE backward's q/k/v slots, whose runs pairs of rows split: phi-2
// backward -50%), copies or groups (chosen on the row-major lowering, along any axis, rows included).
int64_t line_sharing_tile(const Type& type, const LoweringOptions& options) {
  const Shape& shape = type.shape;
  if (options.row_tile < 2 || shape.size() < 3) return 1;
  const bool line_sharing = shape.back() * dtype_size(type.dtype) % 128 != 0;
  return line_sharing && slab_count(shape) > 1 && shape[shape.size() - 2] % 2 == 0 ? 2 : 1;
}

// A chunk coordinate: the let variable holding it, its axis and its extent.
struct Coordinate {
  std::string variable;
  size_t axis;
  int64_t extent;
};

class OutputLowering : public ExpressionEmitter {
 public:
  using ExpressionEmitter::ExpressionEmitter;

  // Emits the program computing output `o` into `body`, chunks in `order`.
  void lower(int o, const std::string& chunk, kir::Block& body, bool branch_free,
             const kir::ChunkOrder& order) {
    branch_free_ = branch_free;
    const FusionOutput& out = fusion_.outputs()[static_cast<size_t>(o)];
    const Type& type = fusion_.type(out.value);
    if (type.numel() == 0) return;  // no chunks: nothing to compute
    blocks_.push_back(&body);
    memo_.emplace_back();
    const Shape shape = type.shape;
    AxisIndex idx;
    idx.index.assign(shape.size(), kir::constant(0));
    const std::vector<Dim> dims = chunk_dims(shape, order);
    const size_t last = shape.empty() ? 0 : shape.size() - 1;
    std::vector<int> dims_of_axis(shape.size(), 0);
    for (const Dim& dim : dims) ++dims_of_axis[dim.axis];
    // The chunk index runs over [0, chunks): the bound the coordinates' and offsets' bounds come from.
    const Index chunk_index = kir::variable(chunk, type.numel() / (lanes_ * order.copies * order.group));
    int64_t inner = 1;
    for (size_t k = dims.size(); k-- > 0;) {
      const Dim& dim = dims[k];
      Index c = kir::div(chunk_index, inner);
      if (k > 0) c = kir::mod(c, dim.extent);
      // The lane index is a multiple of `lanes` by construction: kept as q * lanes for the proofs.
      const bool lane = k + 1 == dims.size() && dim.axis == last && lanes_ > 1;
      Index coordinate = let((lane ? "q" : "i") + std::to_string(counter_++), c);
      idx.index[dim.axis] = kir::add(idx.index[dim.axis], kir::mul(coordinate, dim.factor));
      inner *= dim.extent;
      if (lane) idx.lane_axis = static_cast<int>(last);
      if (coordinate->op != kir::IndexNode::Op::Var) continue;
      if (lane) {
        lane_coordinate_ = Coordinate{coordinate->var, last, dim.extent};
      } else if (dim.axis != last && dim.factor == 1 && dims_of_axis[dim.axis] == 1) {
        coordinates_.push_back({coordinate->var, dim.axis, dim.extent});  // alone on its axis
      }
    }
    const bool row_major = order.tile <= 1 && order.copies <= 1 && order.run <= 0 && order.group <= 1;
    // A group's values of its axis, each emitted at its own index; what does not depend on the axis
    // (broadcast loads) is emitted once, by the memo of emit() and then cse_values.
    for (int64_t u = 0; u < order.group; ++u) {
      AxisIndex at = idx;
      if (u > 0) at.index[order.group_axis] = kir::add(idx.index[order.group_axis], kir::constant(u));
      // Where the chunk's first element is stored: row-major, or (any other order) its index sum.
      Index element = kir::mul(chunk_index, lanes_);
      if (!row_major) {
        element = kir::constant(0);
        int64_t stride = 1;
        for (size_t d = shape.size(); d-- > 0;) {
          element = kir::add(element, kir::mul(at.index[d], stride));
          stride *= shape[d];
        }
      }
      store_chunk(o, emit(out.value, at), element, order, body);
    }
    hoist_loop_invariants(body);
    tidy(body);
    cse_values(body);
  }

  // Stores `value` (converted to the output dtype, widened when uniform) at `element`, and at each copy.
  void store_chunk(int o, kir::Var value, Index element, const kir::ChunkOrder& order, kir::Block& body) {
    const Type& type = fusion_.type(fusion_.outputs()[static_cast<size_t>(o)].value);
    value = convert(value, type.dtype);
    kir::Stmt store{kir::Stmt::Kind::Store};
    store.param = kernel_output_param(o);
    store.index = std::move(element);
    store.source = value;
    if (value.lanes != lanes_) {  // a uniform value stored to every lane
      kir::Var wide = declare(type.dtype, lanes_, Number::of_int(0));
      assign(wide, value);
      store.source = wide;
    }
    if (order.copies > 1) store.index = let("e" + std::to_string(counter_++), store.index);
    int64_t copy_stride = 1;
    for (size_t d = order.copied_axis + 1; d < type.shape.size(); ++d) copy_stride *= type.shape[d];
    for (int64_t c = 0; c < order.copies; ++c) {
      body.push_back(store);
      body.back().index = kir::add(store.index, c * copy_stride);
    }
  }

  // The chunk coordinates alone on their axes (index = the variable) and the vector-axis coordinate
  // (index = variable * lanes), as found by the last lower().
  const std::vector<Coordinate>& coordinates() const { return coordinates_; }
  const std::optional<Coordinate>& lane_coordinate() const { return lane_coordinate_; }

 private:
  // Merges sibling-piece loads and hoists loads, in this block and in the branches inside it (cats and
  // pads on outer axes stay branches; their pieces may hold branch-free cats of their own).
  void tidy(kir::Block& block) {
    if (branch_free_) merge_guarded_loads(block);
    hoist_loads(block);
    for (kir::Stmt& s : block) {
      if (s.kind != kir::Stmt::Kind::If && s.kind != kir::Stmt::Kind::Loop) continue;
      tidy(s.then_block);
      tidy(s.else_block);
    }
  }

  struct Dim {
    size_t axis;
    int64_t extent, factor;
  };

  // Chunk c enumerates the dims, the last fastest; each adds coordinate * factor to its axis's index.
  // Row-major: [outer..., rows, innermost / lanes]; the order's tile, copies and run rearrange it into
  // [rows / tile, outer..., innermost / (run * lanes), tile, run] with the copied axis divided by copies
  // (and the grouped axis by the group).
  std::vector<Dim> chunk_dims(const Shape& shape, const kir::ChunkOrder& order) const {
    std::vector<Dim> dims;  // none for a rank-0 output: its one chunk has no indices
    if (shape.empty()) return dims;
    const size_t last = shape.size() - 1;
    auto plain = [&](size_t d) {
      if (d == order.copied_axis && order.copies > 1) return Dim{d, shape[d] / order.copies, order.copies};
      if (d == order.group_axis && order.group > 1) return Dim{d, shape[d] / order.group, order.group};
      return Dim{d, shape[d], 1};
    };
    const bool tiled = order.tile > 1 && last >= 1;
    if (tiled) dims.push_back({last - 1, shape[last - 1] / order.tile, order.tile});
    for (size_t d = 0; d + 1 < last; ++d) dims.push_back(plain(d));
    SEAM_ASSERT(shape[last] % lanes_ == 0);
    const int64_t row_chunks = shape[last] / lanes_;
    const bool run = order.run > 0 && last >= 1;
    if (run) {
      SEAM_ASSERT(row_chunks % order.run == 0);
      dims.push_back({last, row_chunks / order.run, order.run * lanes_});
    }
    if (last >= 1) dims.push_back(tiled ? Dim{last - 1, order.tile, 1} : plain(last - 1));
    dims.push_back({last, run ? order.run : row_chunks, lanes_});
    return dims;
  }

  std::vector<Coordinate> coordinates_;
  std::optional<Coordinate> lane_coordinate_;

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

// The largest divisor of n that is at most limit (n, limit >= 1).
int64_t largest_divisor_at_most(int64_t n, int64_t limit) {
  int64_t d = std::min(n, limit);
  while (n % d != 0) --d;
  return d;
}

// The copies for an output lowered in row-major order: the coordinate whose aligned blocks the value
// ignores most, within options.max_copies (the largest divisor of its block within the limit).
void choose_copies(const kir::Block& body, const std::vector<Coordinate>& coordinates, int max_copies,
                   kir::ChunkOrder& order) {
  if (max_copies <= 1) return;
  for (const Coordinate& c : coordinates) {
    const int64_t copies = largest_divisor_at_most(invariant_block(body, c.variable, c.extent), max_copies);
    if (copies > order.copies) {
      order.copied_axis = c.axis;
      order.copies = copies;
    }
  }
}

// The group for an output lowered in row-major order: the coordinate (alone on its axis) that the most
// loads do not read, when some do read it (an output the whole body ignores along an axis takes copies
// instead), with the largest divisor of its extent within options.max_group. RoPE's q and k: the head
// axis, cos/sin loaded once per group of heads instead of once per head.
void choose_group(const kir::Block& body, const std::vector<Coordinate>& coordinates, int max_group,
                  kir::ChunkOrder& order) {
  if (max_group <= 1 || order.copies > 1) return;
  int best_invariant = 0;
  for (const Coordinate& c : coordinates) {
    const LoadCount loads = loads_invariant_in(body, c.variable);
    if (loads.invariant == 0 || loads.invariant == loads.total) continue;
    const int64_t group = largest_divisor_at_most(c.extent, max_group);
    if (group <= 1) continue;
    if (loads.invariant > best_invariant || (loads.invariant == best_invariant && group > order.group)) {
      best_invariant = loads.invariant;
      order.group_axis = c.axis;
      order.group = group;
    }
  }
}

// The run for an output whose branches (cats and pads on outer axes) change every few chunks of a row:
// RoPE backward's dqkv takes the q, k or v branch per head slot of hs elements, so a warp over a row
// straddles two to four slots and runs each branch in turn. With runs of a slot's chunks, a warp takes
// one slot from several rows. Only for runs of at least a cache line per row, so that each row's part
// of a warp's access stays a whole line.
int64_t choose_run(const kir::Block& body, const std::optional<Coordinate>& lane, const Type& type,
                   int lanes) {
  constexpr int64_t kWarp = 32, kLineBytes = 128;
  if (!lane || type.rank() < 2 || type.shape[type.rank() - 2] < 2) return 0;
  const int64_t run = branch_invariant_block(body, lane->variable, lane->extent);
  if (run >= lane->extent || run >= kWarp || run * lanes * dtype_size(type.dtype) < kLineBytes) return 0;
  return run;
}

}  // namespace

kir::Kernel lower_pointwise(const Fusion& fusion, const LoweringOptions& options) {
  kir::Kernel kernel;
  kernel.name = options.kernel_name;
  kernel.keep_reused_loads = options.keep_reused_loads;
  kernel.streaming_stores = options.streaming_stores;
  const std::vector<int> input_param = declare_kernel_params(fusion, kernel);

  int counter = 0;
  for (size_t o = 0; o < fusion.outputs().size(); ++o) {
    const Type& t = fusion.type(fusion.outputs()[o].value);
    kir::OutputProgram program;
    program.numel = t.numel();
    program.chunk = "chunk" + std::to_string(o);
    kir::ChunkOrder& order = program.order;
    order.tile = row_tile_for(t, options, options.row_tile);
    std::vector<Coordinate> coordinates;
    std::optional<Coordinate> lane;
    // Lowers at `program.lanes` in `order`; false when a movement op or load breaks the vector proof.
    auto lower = [&]() {
      const int saved = counter;
      program.body.clear();
      try {
        OutputLowering lowering(fusion, kernel, input_param, program.lanes, counter);
        lowering.set_reduction_loop_unroll(options.reduction_loop_unroll);
        lowering.lower(static_cast<int>(o), program.chunk, program.body, options.branch_free, order);
        coordinates = lowering.coordinates();
        lane = lowering.lane_coordinate();
        return true;
      } catch (const NotVectorizable&) {
        counter = saved;
        return false;
      }
    };
    const int saved = counter;
    for (program.lanes = widest_lanes(t, options.max_vector_bytes); !lower(); program.lanes /= 2)
      SEAM_ASSERT(program.lanes > 1, "scalar lowering cannot fail to vectorize");
    // What the row-major lowering shows: values invariant along part of an axis, branches per run.
    choose_copies(program.body, coordinates, options.max_copies, order);
    const bool light = options.max_group_loaded_bytes <= 0 ||
                       kir::loaded_bytes_on_heaviest_path(program.body) <= options.max_group_loaded_bytes;
    if (light) choose_group(program.body, coordinates, options.max_group, order);
    const int64_t first_tile = order.tile;
    if (options.uniform_branches) order.run = choose_run(program.body, lane, t, program.lanes);
    if (order.run > 0) order.tile = row_tile_for(t, options, options.run_row_tile);
    if (order.tile == 1 && order.run == 0 && order.copies == 1 && order.group == 1)
      order.tile = line_sharing_tile(t, options);
    if (order.tile != first_tile || order.copies > 1 || order.run > 0 || order.group > 1) {
      counter = saved;
      bool lowered = lower();
      if (!lowered && order.group > 1) {  // a group's offsets may defeat a vector proof: drop the group
        order.group = 1;
        counter = saved;
        lowered = lower();
      }
      if (!lowered) {  // copies or runs can defeat it too (a pad of an empty view): the order that lowered
        order = kir::ChunkOrder{};
        order.tile = first_tile;
        counter = saved;
        lowered = lower();
      }
      SEAM_ASSERT(lowered, "the first chunk order lowered, so it lowers again");
    }
    for (const Coordinate& c : coordinates)
      if (c.extent > 1) mark_loads_invariant_in(program.body, c.variable);
    program.chunks = program.numel / program.lanes / order.copies / order.group;
    program.param = static_cast<int>(fusion.inputs().size() + o);
    kernel.outputs.push_back(std::move(program));
  }
  return kernel;
}

}  // namespace seam
