#include "lower/lower_pointwise.h"

#include <algorithm>
#include <map>
#include <numeric>

#include "ir/infer.h"
#include "lower/expression_emitter.h"
#include "lower/index_space.h"
#include "lower/invariant_coordinate.h"
#include "lower/kernel_params.h"
#include "lower/kir_pipeline.h"
#include "support/error.h"

namespace seam {
namespace {

using kir::Index;

class OutputLowering : public ExpressionEmitter {
 public:
  using ExpressionEmitter::ExpressionEmitter;
  void set_ragged(bool ragged) { ragged_ = ragged; }

  // Emits the program computing output `o` into `body`, chunks in `order`.
  void lower(int o, const std::string& chunk, kir::Block& body, bool branch_free,
             const kir::ChunkOrder& order, std::string_view last_pass = {}) {
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
    const Index chunk_index = kir::variable(chunk, chunk_count(shape, order));
    Shape dim_extents;
    for (const Dim& dim : dims) dim_extents.push_back(dim.extent);
    const std::vector<Index> chunk_coordinates = delinearize(chunk_index, dim_extents, UnitAxes::FromIndex);
    for (size_t k = dims.size(); k-- > 0;) {
      const Dim& dim = dims[k];
      const Index& c = chunk_coordinates[k];
      // The lane index is a multiple of `lanes` by construction: kept as q * lanes for the proofs.
      const bool lane = k + 1 == dims.size() && dim.axis == last && lanes_ > 1;
      Index coordinate = let((lane ? "q" : "i") + std::to_string(counter_++), c);
      idx.index[dim.axis] = kir::add(idx.index[dim.axis], kir::mul(coordinate, dim.factor));
      if (lane) idx.lane_axis = static_cast<int>(last);
      if (coordinate->op != kir::IndexNode::Op::Var) continue;
      if (lane) {
        lane_coordinate_ = ChunkCoordinate{coordinate->var, last, dim.extent};
      } else if (dim.axis != last && dim.factor == 1 && dims_of_axis[dim.axis] == 1) {
        coordinates_.push_back({coordinate->var, dim.axis, dim.extent});  // alone on its axis
      }
    }
    const bool row_major = order.tile <= 1 && order.copies <= 1 && order.run <= 0 && order.group <= 1;
    SEAM_ASSERT(!ragged_ || (row_major && !shape.empty()), "ragged rows are lowered in row-major order");
    if (ragged_) {  // the lanes of this chunk inside its row: every vector load and the store
      kir::Expr mask{kir::Expr::Kind::LaneMask};
      mask.bounds = {kir::Bound{idx.index[last], std::nullopt, shape[last], true}};
      mask.extent = lanes_;
      lane_window_ = define(DType::Int32, 1, std::move(mask));
    }
    // A group's values of its axis, each emitted at its own index; what does not depend on the axis
    // (broadcast loads) is emitted once, by the memo of emit() and then cse_values.
    for (int64_t u = 0; u < order.group; ++u) {
      AxisIndex at = idx;
      if (u > 0) at.index[order.group_axis] = kir::add(idx.index[order.group_axis], kir::constant(u));
      // Where the chunk's first element is stored: row-major, or (any other order) its index sum.
      const Index element =
          row_major && !ragged_ ? kir::mul(chunk_index, lanes_) : linearize(at.index, shape);
      store_chunk(o, emit(out.value, at), element, order, body);
    }
    lane_window_.reset();
    run_kir_pipeline(body, KirPassOptions{branch_free_, last_pass});
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
    if (ragged_) {
      store.row_edge = true;
      store.unaligned = !kir::multiple_of(store.index, lanes_);
      store.var = *lane_window_;
    }
    if (order.copies > 1) store.index = let("e" + std::to_string(counter_++), store.index);
    const int64_t copy_stride = row_major_stride(type.shape, order.copied_axis);
    for (int64_t c = 0; c < order.copies; ++c) {
      body.push_back(store);
      body.back().index = kir::add(store.index, c * copy_stride);
    }
  }

  // The chunk coordinates alone on their axes (index = the variable) and the vector-axis coordinate
  // (index = variable * lanes), as found by the last lower().
  const std::vector<ChunkCoordinate>& coordinates() const { return coordinates_; }
  const std::optional<ChunkCoordinate>& lane_coordinate() const { return lane_coordinate_; }

 private:
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
    SEAM_ASSERT(ragged_ || shape[last] % lanes_ == 0);
    const int64_t row_chunks = (shape[last] + lanes_ - 1) / lanes_;
    const bool run = order.run > 0 && last >= 1;
    if (run) {
      SEAM_ASSERT(row_chunks % order.run == 0);
      dims.push_back({last, row_chunks / order.run, order.run * lanes_});
    }
    if (last >= 1) dims.push_back(tiled ? Dim{last - 1, order.tile, 1} : plain(last - 1));
    dims.push_back({last, run ? order.run : row_chunks, lanes_});
    return dims;
  }

  int64_t chunk_count(const Shape& shape, const kir::ChunkOrder& order) const {
    OutputSchedule schedule{lanes_, order, ragged_};
    int64_t numel = 1;
    for (int64_t e : shape) numel *= e;
    return output_chunks(numel, shape.empty() ? 1 : shape.back(), schedule);
  }

  bool ragged_ = false;
  std::vector<ChunkCoordinate> coordinates_;
  std::optional<ChunkCoordinate> lane_coordinate_;

  int kernel_output_param(int o) const {
    for (size_t p = 0; p < kernel_.params.size(); ++p)
      if (kernel_.params[p].kind == kir::Param::Kind::Output && kernel_.params[p].fusion_index == o)
        return static_cast<int>(p);
    SEAM_ASSERT(false, "no parameter for output ", o);
  }
};

}  // namespace

int64_t output_chunks(int64_t numel, int64_t row, const OutputSchedule& schedule) {
  const kir::ChunkOrder& order = schedule.order;
  if (!schedule.ragged || numel == 0) return numel / schedule.lanes / order.copies / order.group;
  return numel / row * ((row + schedule.lanes - 1) / schedule.lanes);
}

std::optional<TrialOutput> lower_output_trial(const Fusion& fusion, int o, const OutputSchedule& schedule,
                                              const LoweringOptions& options) {
  kir::Kernel kernel;
  const std::vector<int> input_param = declare_kernel_params(fusion, kernel);
  int counter = 0;
  TrialOutput trial;
  try {
    OutputLowering lowering(fusion, kernel, input_param, schedule.lanes, counter);
    lowering.set_reduction_loop_unroll(options.reduction_loop_unroll);
    lowering.set_max_inlined_reduction(options.max_inlined_reduction);
    lowering.set_unaligned_loads(options.unaligned_loads);
    lowering.set_ragged(schedule.ragged);
    lowering.lower(o, "chunk" + std::to_string(o), trial.body, options.branch_free, schedule.order);
    trial.coordinates = lowering.coordinates();
    trial.lane = lowering.lane_coordinate();
  } catch (const NotVectorizable&) {
    return std::nullopt;
  }
  return trial;
}

kir::OutputProgram lower_output_program(const Fusion& fusion, int o, const OutputSchedule& schedule,
                                        const LoweringOptions& options, kir::Kernel& kernel,
                                        const std::vector<int>& input_param, int& counter) {
  const size_t out = static_cast<size_t>(o);
  kir::OutputProgram program;
  program.numel = fusion.type(fusion.outputs()[out].value).numel();
  program.chunk = "chunk" + std::to_string(o);
  program.lanes = schedule.lanes;
  program.order = schedule.order;
  program.ragged = schedule.ragged;
  OutputLowering lowering(fusion, kernel, input_param, program.lanes, counter);
  lowering.set_reduction_loop_unroll(options.reduction_loop_unroll);
  lowering.set_max_inlined_reduction(options.max_inlined_reduction);
  lowering.set_unaligned_loads(options.unaligned_loads);
  lowering.set_ragged(schedule.ragged);
  try {
    lowering.lower(o, program.chunk, program.body, options.branch_free, program.order, options.kir_last_pass);
  } catch (const NotVectorizable& e) {
    SEAM_ASSERT(false, "kernel ", options.kernel_name, " output ", o, ": the planned ", program.lanes,
                " lanes do not vectorize (", e.reason, ")");
  }
  // Loads that ignore a chunk coordinate are read again by other chunks: kept in L2 (cache hints).
  for (const ChunkCoordinate& c : lowering.coordinates())
    if (c.extent > 1) mark_loads_invariant_in(program.body, c.variable);
  const Shape& shape = fusion.type(fusion.outputs()[out].value).shape;
  program.chunks = output_chunks(program.numel, shape.empty() ? 1 : shape.back(), schedule);
  program.param = static_cast<int>(fusion.inputs().size() + out);
  return program;
}

}  // namespace seam
