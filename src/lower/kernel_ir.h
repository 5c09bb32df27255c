// The kernel IR: what lowering produces and the CUDA and host printers print. A kernel computes several
// outputs (of any shapes) in one launch; each output is a program over "chunks" of `lanes` consecutive
// elements of its innermost axis. Values are arrays of `lanes` elements (or 1 when uniform across the
// lanes); index arithmetic is a small folded expression tree so that it can be analysed and printed.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ir/attr.h"
#include "ir/fusion.h"
#include "lower/index_algebra.h"
#include "lower/scan_launch.h"
#include "lower/scatter_launch.h"

namespace seam::kir {

// ---- values ------------------------------------------------------------------------------------------
struct Var {
  std::string name;
  DType dtype;
  int lanes;  // 1: the same for every lane
};

struct Param {
  enum class Kind { Input, Output, Scalar };
  Kind kind;
  std::string name;
  DType dtype;
  int fusion_index;  // index into the kernel fusion's inputs (Input, Scalar) or outputs (Output)
};

// A kernel with CheckedIndex values (checks_indices) writes the first index out of range it meets into
// `seam_index_error`, an i64[4] record {op + 1 (0: none), index, extent, axis} that the runtime zeroes
// and reads after the launch (docs/CODEGEN.md, "Indexing"): one more argument after `params`
// (trailing_slots).
constexpr int kIndexErrorWords = 4;

// lo <= index < hi, either bound optional; a condition is a conjunction of these. `per_lane`: in a value
// of several lanes, lane l tests index + l (a pad boundary inside a vector).
struct Bound {
  Index index;
  std::optional<int64_t> lo, hi;
  bool per_lane = false;
};

// One region a branch-free load sits in: piece `piece` of `pieces` of a cat (region: the cat's id), or
// the interior of a pad (region -1, pieces 1). The load reads memory only where the bounds of all its
// guards hold; elsewhere its lanes are zero and the value is never selected.
struct Guard {
  int region = -1;
  int piece = 0;
  int pieces = 1;
  std::vector<Bound> bounds;
};

// A load whose address depends on which piece of a cat a lane is in (lower/merge_guarded_loads.h): the
// first choice with `index < below` supplies the parameter and offset.
struct LoadChoice {
  Index index;
  int64_t below = 0;
  int param = -1;
  Index offset;
};

// The right-hand side of a value definition.
struct Expr {
  enum class Kind {
    Load,      // `lanes` elements of param `param` from `offset` (lanes 1: one element for all lanes)
    Literal,   // `literal` converted to the dtype
    Scalar,    // the scalar kernel parameter `param`
    Convert,   // args[0] converted to the dtype
    Call,      // seam_<keyword of op>(args...), arguments already in the compute dtype
    Select,    // args[0] ? args[1] : args[2]
    Iota,      // literal + (offset + lane) * step, lane stepping only when lanes > 1
    InBounds,  // bool: whether all `bounds` hold (per lane where a bound is per_lane, else 1 lane)
    // int, 1 lane: bit l set where bounds[0] holds at index + l, for `extent` lanes. The mask of the lanes
    // of a pad's interior piece inside the interior when its boundary falls inside a vector: the piece's
    // vector loads read only those lanes (args[0] of such a Load).
    LaneMask,
    // seam_<keyword of op>(args[0] seed, args[1] offset, element, args[2], args[3]) for the random op `op`
    // (docs/RANDOM.md), element = offset + lane * step: the random op's row-major linear index
    Random,
    // An index variable (printed as `idx_t name`, read by index expressions as kir::variable(name)):
    // args[0] (an integer value, 1 lane) wrapped once into [0, extent); outside [-extent, extent) it is
    // 0 and, where the guards hold, recorded in seam_index_error for indexing op `op`.
    CheckedIndex,
    // args[0] on the lanes of a peeled row loop's vector that lie inside the row (RowLaunch::peel),
    // `literal` on the others: what a reduction combines, so that lanes outside the row add its identity.
    RowEdge,
  };
  explicit Expr(Kind k = Kind::Literal) : kind(k) {}
  Kind kind;
  int param = -1;
  Index offset;
  Number literal;
  Number step;
  OpKind op = OpKind::Add;
  std::vector<Var> args;
  std::vector<Guard> guards;        // Load: the regions it sits in, outermost first (branch-free lowering)
  std::vector<LoadChoice> choices;  // Load: per-piece sources, tried first (else param and offset)
  std::vector<Bound> bounds;        // InBounds
  bool reused = false;  // Load: other chunks read the same elements (a broadcast input: RoPE's cos/sin)
  // Load in a persistent row kernel (RowLaunch::iterations > 0): the row cache it goes through. With
  // `cache_fill`, the load fills the cache at this thread's iteration (the row's first loop); otherwise
  // the value is read back from it (a later pass over the row reads registers, not memory). On the host
  // the loads run as written.
  std::string cache;
  bool cache_fill = false;
  // Load of lanes > 1 in a peeled row loop (RowLaunch::peel): only the lanes inside the row are read
  // (the others are zero), `unaligned` when the vector's start is not a multiple of its width (then the
  // widest accesses its address allows, else one wide access when every lane is inside).
  // A pointwise kernel's vector load at an unaligned offset (LaunchParams::unaligned_loads) is `unaligned`
  // without `row_edge`: every lane read, in the widest accesses the address allows. Inside a pad piece
  // whose boundary falls inside a vector it is `row_edge` with args[0] the piece's LaneMask: the lanes
  // outside the pad's interior read nothing.
  bool row_edge = false;
  bool unaligned = false;
  // Call: the GPU's approximate form may compute it (lower/approximate_math.h).
  bool approximate = false;
  int64_t extent = 0;  // CheckedIndex: the extent of the axis indexed; LaneMask: the lanes
  int axis = 0;        // CheckedIndex: that axis, for the error message
};

// ---- statements --------------------------------------------------------------------------------------
struct Stmt;
using Block = std::vector<Stmt>;

struct Stmt {
  enum class Kind {
    Let,      // index variable `name` = index
    Define,   // value `var` = expr
    Declare,  // value `var` initialized to literal (then assigned in branches)
    Assign,   // var = source (same dtype and lanes, or source uniform)
    If,       // if (all bounds hold) then_block else else_block
    Store,    // param `param` at offset <- source (var.lanes elements)
    Comment,
    // for index variable `name` from `begin` to `extent` - 1: then_block, the compiler asked to unroll it
    // `unroll` times (an inlined reduction's terms after the first, LoweringOptions::reduction_loop_unroll)
    Loop,
    // Row kernels (see RowLaunch):
    // for index variable `name` over this thread's share of the row's reduced elements: then_block.
    // With `chunk` > 0, in chunks of `chunk` of this thread's vectors, else_block after each: the f32
    // sums of a long row add a chunk's partial sums to the running ones, so that no f32 sum adds more
    // than about sqrt(n) terms in sequence (RowEmitter::chunk_vectors).
    RowLoop,
    RowReduce,  // var (1 lane) = source combined over the threads of the row by expr.op (Sum, Max or Min)
    // The online pair of a row (seam_online_combine): this thread's pair (source = max, expr.args[0] =
    // sum of exp(x - max), f32, lanes) combined over the lanes and the row's threads into var (the row's
    // max) and expr.args[1] (its sum), both 1 lane; expr.approximate: the exp may be approximate
    RowReduceOnline,
    // Inside a row loop `name`: the outer reduction accumulator `var` (RowLaunch::outer) at this
    // thread's vector += source, lane by lane
    OuterAccumulate,
  };
  explicit Stmt(Kind k) : kind(k) {}
  Kind kind;
  std::string name;
  Index index;
  Var var;
  Expr expr;
  Number literal;
  Var source;
  std::vector<Bound> bounds;
  Block then_block, else_block;
  int param = -1;
  int64_t begin = 0, extent = 0;  // Loop
  int unroll = 1;                 // Loop
  int64_t chunk = 0;              // RowLoop: > 0: this thread's vectors in chunks of this many (above)
  // Store in a peeled row loop: only the lanes inside the row (the row loop's seam_in_row, or `var`, a
  // LaneMask value, in a ragged row of a pointwise kernel)
  bool row_edge = false;
  bool unaligned = false;  // with row_edge: the vector's start may not be a multiple of its width
};

// The order in which an output's chunks are enumerated, and how many values one chunk stands for
// (lower/lower_pointwise.cpp chooses it; docs/CODEGEN.md, "Chunk order" and "Copies and runs").
struct ChunkOrder {
  int64_t tile = 1;        // > 1: the rows (second-innermost axis) tiled, the tile index outermost
  size_t copied_axis = 0;  // with copies > 1: each chunk is computed once and stored to `copies`
  int64_t copies = 1;      //   consecutive values of this axis's coordinate (an expanded GQA head)
  int64_t run = 0;         // > 0: the innermost axis in runs of this many chunks, rows inside a run's
                           //   enumeration, so a warp takes chunks of one run from several rows
  size_t group_axis = 0;   // with group > 1: each chunk computes and stores `group` consecutive values
  int64_t group = 1;       //   of this axis's coordinate, reading what does not depend on it once
};

// One output of the kernel: chunks of `lanes` consecutive elements, enumerated in `order`.
struct OutputProgram {
  int param;  // the output parameter written
  int64_t numel;
  int lanes;          // elements per chunk (vector width)
  int64_t chunks;     // numel / (lanes * order.copies * order.group), or per row rounded up (ragged)
  std::string chunk;  // name of the chunk-index variable the body reads
  ChunkOrder order;
  bool ragged = false;  // rows `lanes` does not divide, each row's last chunk masked (OutputSchedule)
  Block body;
};

// A register array of a persistent row kernel: `iterations` entries of `lanes` elements per thread,
// holding a row's loads of one input at one offset pattern (lower/row_cache.h); `per_row`: one entry,
// a load that depends on the row only (a normalization backward's mean or rstd), filled once per row
// before its loops.
struct RowCache {
  std::string name;
  DType dtype;
  int lanes = 1;
  bool per_row = false;
  int bytes() const { return lanes * static_cast<int>(dtype_size(dtype)); }
};

// An outer reduction of a row kernel (lower/outer_reductions.h): a sum over the rows of a value of the
// rows' shape, one f32 total per element of a row ("column"). Each thread accumulates its columns over
// the rows it visits in `accumulator` (registers when persistent, else its block's workspace row); the
// blocks' partials meet in the workspace (OuterWorkspace) and are summed in a fixed order into `total`,
// which RowLaunch::finish reads.
struct OuterReduction {
  std::string accumulator;
  std::string total;
};

// A row kernel (reductions, lower/lower_rows.h): the rows are the reduced tensors' non-reduced index
// space; `threads_per_row` threads share a row's `reduced` elements and `rows_per_block` rows share a
// block. `body` runs once per row on every thread of it, reading the index variable `row` (possibly
// >= rows on the GPU: such threads take part in block reductions but load and store nothing).
//
// A row loop (Stmt::RowLoop) visits this thread's vectors of `vector` consecutive elements: vector k
// holds elements k * vector .. k * vector + vector - 1, k = lane + i * threads_per_row. Persistent
// (iterations > 0): i < iterations, unrolled, so that the row's loads fill `caches` once and every later
// loop over the row reads registers; streaming (iterations 0): a loop until the row's end.
//
// Peeled (`peel`, plan/row_peel.h): `vector` need not divide `reduced`. The vectors are aligned to the
// row's position in a contiguous tensor of the reduced shape: with shift = (row * reduced) % vector,
// vector k holds elements k * vector - shift .. k * vector - shift + vector - 1, and the first and last
// vectors of a row have lanes outside it (masked: loads read nothing there, stores write nothing,
// reductions combine their identity; kir::Expr::Kind::RowEdge).
// Peeled by columns (`peel_columns`, with outer reductions): the shift is 0 instead, so that vector k
// holds the same columns in every row (the outer accumulators stay per column); only the last vector has
// lanes outside the row, and tensors laid out like S are read and written in the accesses their
// addresses allow at run time (a weight along the row in aligned vectors). The outer reductions'
// workspace rows are then `outer_columns()` wide: whole vectors, the lanes past the row unused.
struct RowLaunch {
  int64_t rows = 0;
  int64_t reduced = 0;  // elements of a row
  int rows_per_block = 1;
  int threads_per_row = 1;
  bool lanes_contiguous = true;  // the threads of a row are consecutive (else rows_per_block apart)
  int vector = 1;                // elements per row-loop iteration (a divisor of `reduced`)
  int iterations = 0;            // > 0: persistent, ceil(vectors() / (cluster * threads_per_row))
  bool peel = false;             // vectors aligned to the row's start in memory (above)
  bool peel_columns = false;     // with `peel`: vectors aligned to the columns instead (above)
  // > 1: one row per thread block cluster of this many blocks (rows_per_block 1, threads_per_row per
  // block): the row's threads are the cluster's, the row reductions combine over the cluster through
  // distributed shared memory, and the grid is a multiple of it.
  int cluster = 1;
  std::vector<RowCache> caches;
  Block body;
  // Outer reductions: their accumulators, the grid they were planned for (a workspace row of partials
  // per block: the grid must be exactly this) and `finish`, which the last block runs per column
  // (index variable `seam_col` < reduced) after the totals are summed: it writes the outputs that read
  // them.
  std::vector<OuterReduction> outer;
  int64_t partial_blocks = 0;
  int min_blocks_per_sm = 0;  // > 0: __launch_bounds__'s second argument
  Block finish;
  // The caches' fills of a block's next row group are loaded into a second set of register arrays
  // (each cache's NAME_next) right after the current group takes its own from them, before its
  // reductions: the loads are in flight while the group computes, without shared memory. Only where a
  // block loops over several row groups (outer reductions' fixed grid).
  bool load_ahead = false;
  int block_size() const { return rows_per_block * threads_per_row; }
  // Vectors per row (peeled: at most; a row with shift s has ceil((reduced + s) / vector)).
  int64_t vectors() const {
    if (vector <= 0) return reduced;
    if (peel && peel_columns) return (reduced + vector - 1) / vector;
    return peel ? (reduced + 2 * vector - 2) / vector : reduced / vector;
  }
  // The columns of an outer reduction's workspace row: the row's elements, whole vectors when peeled by
  // columns.
  int64_t outer_columns() const { return peel && peel_columns ? vectors() * vector : reduced; }
};

// A row kernel's workspace for its outer reductions, in f32 words: `header` words of arrival counters
// (word 0 for the groups, word 1 + g for group g; zero before and after every launch: the last arrival
// resets each), then per outer reduction a row of `reduced` partials per block of the grid, then per
// outer reduction a row per group, then per outer reduction the totals row. The blocks arrive in groups
// of `group_size` consecutive ones; the last of a group sums its group's rows in block order into the
// group's row, and the last group sums the group rows in group order into the totals (then runs
// RowLaunch::finish): two short sums, the first on several multiprocessors at once, instead of one
// over every block on one; the order does not depend on which block finishes last.
struct OuterWorkspace {
  int64_t group_size = 1, groups = 1;
  int64_t header = 4;  // words: 1 + groups, rounded up to 16 bytes
  int64_t bytes = 0;
};
OuterWorkspace outer_workspace(const RowLaunch& rows);

// Shared memory a row kernel's block uses: the row reductions' scratch.
inline int64_t row_scratch_bytes(int64_t block) { return 8 * block; }

struct Kernel {
  std::string name;
  std::vector<Param> params;
  std::vector<OutputProgram> outputs;
  std::optional<RowLaunch> rows;  // set for a row kernel; its `outputs` then run after the rows
  bool index64 = false;           // 64-bit index arithmetic needed
  // Cache hints (LoweringOptions): reused loads kept in L2 (evict-last), stores streamed (evict-first).
  bool keep_reused_loads = false;
  bool streaming_stores = false;
  // Set for a scan kernel (lower/lower_scan.h), which has no output programs.
  std::optional<ScanLaunch> scan;
  // Set for a scatter kernel (lower/lower_scatter.h), which has no output programs and writes into an
  // output an earlier step filled (updates_output_in_place).
  std::optional<ScatterLaunch> scatter;
  // Work items: chunks of the outputs, rows of a row kernel, lines of a scan, index elements of a scatter.
  int64_t total_chunks() const;
};

// Calls f on every index an expression reads: its address, guards, pointer choices and bounds.
template <typename F>
void for_each_index(const Expr& e, F f) {
  f(e.offset);
  for (const Guard& g : e.guards)
    for (const Bound& b : g.bounds) f(b.index);
  for (const LoadChoice& c : e.choices) {
    f(c.index);
    f(c.offset);
  }
  for (const Bound& b : e.bounds) f(b.index);
}

// Whether an index reads any of `names` (index variables), and whether an expression's indices do.
bool reads_any(const Index& index, const std::set<std::string>& names);
bool reads_any(const Expr& e, const std::set<std::string>& names);

// Adds the values `block` (nested blocks included) declares or assigns: not single definitions, so
// neither merged (value CSE) nor moved (loop-invariant hoisting).
void collect_assigned(const Block& block, std::set<std::string>& names);

// The bytes a chunk loads on its heaviest path through `block` (the larger side of each branch; a loop's
// body once per unrolled copy): what its loads, issued before their first use, hold in registers.
int64_t loaded_bytes_on_heaviest_path(const Block& block);
// The largest of that over the outputs of a kernel (its row body included).
int64_t loaded_bytes_per_chunk(const Kernel& kernel);

// The bytes of workspace a kernel needs (its outer reductions' partials and counter); 0 when none.
int64_t workspace_bytes(const Kernel& kernel);

// Whether the kernel has CheckedIndex values or is a scatter kernel, so that it takes the index error
// record.
bool checks_indices(const Kernel& kernel);

// Whether the kernel's output already holds values it only partly overwrites (a scatter kernel, after its
// data's copy): runs bind it to the buffer that copy wrote, and neither allocate nor poison it again.
inline bool updates_output_in_place(const Kernel& kernel) { return kernel.scatter.has_value(); }

// The positions of the arguments after `params` (-1: absent): the index error record, then the
// workspace. GPU parameters and host argument slots follow the same order.
struct TrailingSlots {
  int index_error = -1;
  int workspace = -1;
};
TrailingSlots trailing_slots(const Kernel& kernel);

// Adds every value `block` (nested blocks included) gives a value to: definitions, declarations,
// assignments and row reductions.
void collect_defined(const Block& block, std::set<std::string>& names);

// Renames every reference to a value (definitions, arguments, sources) in `block` and its nested blocks.
void rename_vars(Block& block, const std::map<std::string, std::string>& renamed);

}  // namespace seam::kir
