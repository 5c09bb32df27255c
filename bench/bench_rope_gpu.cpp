// RoPE on the GPU: seam's kernel count, GPU time, per-call host cost and compile time for the workloads of
// WORKLOADS.md, against the byte floor at the device-to-device copy rate measured in the same run.
// bench/rope_vs_torch.py runs this per row next to PyTorch eager and torch.compile (see bench/README.md).
//
// Method: 3 input sets uploaded once and rotated; GPU time = median over N runs of the events around all
// launches of one run (optionally after an L2 flush outside the events); "kernel" GPU time = median over
// N runs of the summed kernel durations CUPTI records (BASELINES.md's method for torch.compile; the same
// N runs timed again with CUPTI on); "wall" = median per call of
// run_device + stream synchronize with inputs on the GPU, by the host clock; "call" = median per call of
// the events recorded on the stream right before and after run_device (BASELINES.md's wall method for
// torch.compile: events around the call, host overhead included, no wake-up from a synchronize); "compile" =
// fusion text to first result (parse, passes, segmentation, lowering, NVRTC or the binary cache, first run),
// in this process, with NVRTC's own program cache off (SEAM_NVRTC_NO_CACHE=1 unless set).
//
// Usage: bench_rope_gpu [rows] [options]
//   rows:    --only W2[,W3...]  --contract thunder|rope-only  --direction forward|backward|both  --bs N --seq
//   T
//            --quick (W2 thunder bs 2)  --t-sweep (W2, W3 thunder bs 2, T = 1024 .. 32768)
//   options: --iterations N  --flush-l2  --copy-rate TBPS (skip measuring it)  --json (one object per row)
//            --no-cupti (events only; also when CUPTI cannot be loaded)
//            --inputs DIR (set 0 from DIR/NAME.npy)  --out DIR (write set 0's outputs as DIR/NAME.npy)
//            --compile-only (compile and report, no timing)
//   modes:   --sweep (code-generation variants side by side; --direction, --only, --contract, --bs limit
//            its rows, --variants "defaults,tiles of 2 rows" its variants)
//            --host-floor (an empty kernel's launch, launch + synchronize and driver queries: what any
//            launcher pays per call here; then the selected rows)
//            --host-smoke (no GPU: tiny rows on the host
//            backend checked against the interpreter, for CI)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "common/host_floor.h"
#include "common/rope_rows.h"
#include "exec/device_upload.h"
#include "exec/executable.h"
#include "interp/compare.h"
#include "interp/interpreter.h"
#include "runtime/binary_cache.h"
#include "runtime/copy_timing.h"
#include "runtime/cuda_driver.h"
#include "runtime/device.h"
#include "runtime/device_allocator.h"
#include "runtime/event_timer.h"
#include "runtime/kernel_activity.h"
#include "schedule/launch_params.h"
#include "support/error.h"
#include "support/npy.h"
#include "tensor/fast_random.h"
#include "tensor/tensor_files.h"
#include "text/parser.h"
#include "text/printer.h"

namespace seam::bench {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

struct Args {
  RowFilter filter;
  int iterations = 50;
  bool sweep = false, host_smoke = false, flush_l2 = false, json = false, compile_only = false;
  bool host_floor = false;
  bool cupti = true;  // kernel durations from CUPTI next to the events
  double copy_rate_tbps = 0;
  std::string inputs_dir, out_dir;
  std::string variants;  // --sweep: only these variants, comma-separated names ("defaults,row-major")
};

Args parse_args(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string {
      SEAM_CHECK(i + 1 < argc, "option ", arg, " needs a value");
      return argv[++i];
    };
    if (arg == "--iterations")
      a.iterations = std::stoi(value());
    else if (arg == "--only")
      a.filter.only = value();
    else if (arg == "--contract")
      a.filter.contract = value();
    else if (arg == "--direction")
      a.filter.direction = value();
    else if (arg == "--bs")
      a.filter.batch = std::stoll(value());
    else if (arg == "--seq")
      a.filter.seq_len = std::stoll(value());
    else if (arg == "--quick")
      a.filter.quick = true;
    else if (arg == "--t-sweep")
      a.filter.t_sweep = true;
    else if (arg == "--sweep")
      a.sweep = true;
    else if (arg == "--host-floor")
      a.host_floor = true;
    else if (arg == "--host-smoke")
      a.host_smoke = true;
    else if (arg == "--flush-l2")
      a.flush_l2 = true;
    else if (arg == "--json")
      a.json = true;
    else if (arg == "--variants")
      a.variants = value();
    else if (arg == "--no-cupti")
      a.cupti = false;
    else if (arg == "--compile-only")
      a.compile_only = true;
    else if (arg == "--copy-rate")
      a.copy_rate_tbps = std::stod(value());
    else if (arg == "--inputs")
      a.inputs_dir = value();
    else if (arg == "--out")
      a.out_dir = value();
    else
      throw Error("unknown option '" + arg + "' (see the usage at the top of bench/bench_rope_gpu.cpp)");
  }
  return a;
}

// Set 0 from `dir` (every input must be there, in the fusion's dtype and shape), else seeded random.
std::vector<HostTensor> first_input_set(const Fusion& fusion, const std::string& dir) {
  return dir.empty() ? fast_random_inputs(fusion, 100) : read_inputs_from_dir(fusion, dir);
}

std::string lanes_of(const Executable& exe) {
  std::string lanes;
  for (const CompiledStep& step : exe.steps())
    for (const kir::OutputProgram& p : step.kernel.outputs)
      lanes += (lanes.empty() ? "" : "/") + std::to_string(p.lanes) +
               (p.order.copies > 1 ? "x" + std::to_string(p.order.copies) : "") +
               (p.order.run > 0 ? "r" + std::to_string(p.order.run) : "") +
               (p.order.group > 1 ? "g" + std::to_string(p.order.group) : "");
  return lanes;
}

// Registers per thread of each kernel ("-" where unknown).
std::string registers_of(const Executable& exe) {
  std::string regs;
  for (const CompiledStep& step : exe.steps())
    regs +=
        (regs.empty() ? "" : "/") + (step.registers >= 0 ? std::to_string(step.registers) : std::string("-"));
  return regs;
}

struct HostCost {
  double wall_us;     // median per call: run_device + stream synchronize, inputs already on the GPU
  double enqueue_us;  // median per call: run_device alone (checks, allocation, launches), no wait
  double call_us;     // median per call: events recorded right before and after run_device
};

// Device memory of the benchmark itself (inputs, copy buffers); kept until exit.
CachingDeviceAllocator& bench_allocator() {
  static CachingDeviceAllocator* allocator = new CachingDeviceAllocator(cuda_driver_backend());
  return *allocator;
}

std::vector<DeviceTensor> upload(const std::vector<HostTensor>& inputs) {
  return upload_to_device(inputs, bench_allocator());
}

// Per-call host cost of the device entry point, called back to back on device-resident inputs.
HostCost host_cost(Executable& exe, const std::vector<DeviceTensor>& inputs, int iterations) {
  Stream stream;
  auto us = [](Clock::duration d) { return std::chrono::duration<double, std::micro>(d).count(); };
  for (int i = 0; i < 20; ++i) exe.run_device(inputs, stream.get());
  stream.synchronize();
  std::vector<double> wall, enqueue;
  for (int i = 0; i < iterations; ++i) {
    auto t0 = Clock::now();
    std::vector<DeviceTensor> outputs = exe.run_device(inputs, stream.get());
    auto t1 = Clock::now();
    stream.synchronize();
    auto t2 = Clock::now();
    enqueue.push_back(us(t1 - t0));
    wall.push_back(us(t2 - t0));
  }
  // The GPU is idle when `before` is recorded, so the pair spans the host's work up to the launch too.
  Event before, after;
  std::vector<double> call;
  for (int i = 0; i < iterations; ++i) {
    before.record(stream.get());
    std::vector<DeviceTensor> outputs = exe.run_device(inputs, stream.get());
    after.record(stream.get());
    after.synchronize();
    call.push_back(after.elapsed_ms_since(before) * 1e3);
  }
  return {median(wall), median(enqueue), median(call)};
}

// Kernel durations (CUPTI) of the runs Executable::time_gpu launches back to back: the median run's sum.
double back_to_back_kernel_us(Executable& exe, const std::vector<std::vector<HostTensor>>& sets,
                              int iterations, bool flush_l2) {
  ActivityRecording recording;
  exe.time_gpu(sets, iterations, flush_l2);
  return median_run_us(recording.finish(), ActivityRecord::Kind::Kernel, exe.segmented().num_kernels(),
                       iterations);
}

// Kernel durations (CUPTI) of runs launched one at a time, each waited for before the next (3 input sets
// rotated): next to the back-to-back "kernel us", what a launch gains or loses from its neighbours.
double isolated_kernel_us(Executable& exe, const std::vector<std::vector<DeviceTensor>>& sets,
                          int iterations) {
  Stream stream;
  for (int i = 0; i < 3; ++i) exe.run_device(sets[static_cast<size_t>(i) % sets.size()], stream.get());
  stream.synchronize();
  ActivityRecording recording;
  for (int i = 0; i < iterations; ++i) {
    exe.run_device(sets[static_cast<size_t>(i) % sets.size()], stream.get());
    stream.synchronize();
  }
  return median_run_us(recording.finish(), ActivityRecord::Kind::Kernel, exe.segmented().num_kernels(),
                       iterations);
}

struct RowResult {
  int kernels = 0;
  std::string lanes, registers;
  double floor_mb = 0, floor_us = 0, seam_us = 0, wall_us = 0, enqueue_us = 0, call_us = 0, compile_ms = 0;
  double first_run_ms = 0;  // of compile_ms: the first run_device and its synchronize
  double copy_us = 0;       // a device-to-device copy moving the floor's bytes (read + write), same run
  // The same by CUPTI's kernel and copy durations (BASELINES.md's method); -1 when not measured.
  double kernel_us = -1, copy_kernel_us = -1;
  double isolated_kernel_us = -1;  // kernel durations of launches waited for one by one
  // Binary-cache lookups of the compile: kernels compiled by NVRTC, found on disk, found in memory.
  int64_t cache_misses = 0, cache_disk_hits = 0, cache_memory_hits = 0;
};

void print_header(bool json) {
  if (json) return;
  std::printf(
      "%s\n%s\n",
      "| workload | contract | dir | bs | T | kernels | lanes | regs | floor MB | floor us | seam us "
      "| % of floor | "
      "TB/s | copy us | % of copy | kernel us | % of floor (kernel) | copy kernel us | % of copy (kernel) "
      "| wall us | enqueue us | compile ms | first run ms | isolated kernel us | call us (events) |",
      "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---"
      "|");
}

// "-" for a time not measured (CUPTI off or missing, --compile-only).
std::string us_or_dash(double us) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", us);
  return us >= 0 ? text : "-";
}
std::string percent_or_dash(double part, double whole) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0f%%", 100.0 * part / whole);
  return part > 0 && whole > 0 ? text : "-";
}

void print_row(const RopeRow& row, const RowResult& r, bool json, bool flushed) {
  const double pct = r.seam_us > 0 ? 100.0 * r.floor_us / r.seam_us : 0;
  const double of_copy = r.seam_us > 0 ? 100.0 * r.copy_us / r.seam_us : 0;
  const double tbps = r.seam_us > 0 ? r.floor_mb * 1e6 / (r.seam_us * 1e-6) / 1e12 : 0;
  const std::string contract(contract_name(row.options.contract));
  const char* dir = row.backward() ? "bwd" : "fwd";
  const long long bs = row.options.batch, T = row.options.seq_len;
  if (json) {
    std::printf(
        "{\"workload\": \"%s\", \"config\": \"%s\", \"contract\": \"%s\", \"direction\": \"%s\", "
        "\"bs\": %lld, \"T\": %lld, \"kernels\": %d, \"lanes\": \"%s\", \"registers\": \"%s\", \"floor_mb\": "
        "%.3f, "
        "\"floor_us\": %.3f, \"seam_us\": %.3f, \"pct_floor\": %.2f, \"copy_us\": %.3f, \"kernel_us\": %.3f, "
        "\"copy_kernel_us\": %.3f, \"isolated_kernel_us\": %.3f, \"wall_us\": %.3f, \"call_us\": %.3f, "
        "\"enqueue_us\": %.3f, \"compile_ms\": %.3f, \"first_run_ms\": %.3f, \"cache_misses\": %lld, "
        "\"cache_disk_hits\": %lld, "
        "\"cache_memory_hits\": %lld, \"l2_flushed\": %s}\n",
        row.id().c_str(), row.config->name.c_str(), contract.c_str(), dir, bs, T, r.kernels, r.lanes.c_str(),
        r.registers.c_str(), r.floor_mb, r.floor_us, r.seam_us, pct, r.copy_us, r.kernel_us, r.copy_kernel_us,
        r.isolated_kernel_us, r.wall_us, r.call_us, r.enqueue_us, r.compile_ms, r.first_run_ms,
        static_cast<long long>(r.cache_misses), static_cast<long long>(r.cache_disk_hits),
        static_cast<long long>(r.cache_memory_hits), flushed ? "true" : "false");
  } else {
    std::printf(
        "| %s | %s | %s | %lld | %lld | %d | %s | %s | %.1f | %.1f | %.1f | %.0f%% | %.2f | %.1f | %.0f%% | "
        "%s | %s "
        "| %s | %s | %.1f | %.1f | %.0f | %.1f | %s | %.1f |\n",
        row.label().c_str(), contract.c_str(), dir, bs, T, r.kernels, r.lanes.c_str(), r.registers.c_str(),
        r.floor_mb, r.floor_us, r.seam_us, pct, tbps, r.copy_us, of_copy, us_or_dash(r.kernel_us).c_str(),
        percent_or_dash(r.floor_us, r.kernel_us).c_str(), us_or_dash(r.copy_kernel_us).c_str(),
        percent_or_dash(r.copy_kernel_us, r.kernel_us).c_str(), r.wall_us, r.enqueue_us, r.compile_ms,
        r.first_run_ms, us_or_dash(r.isolated_kernel_us).c_str(), r.call_us);
  }
  std::fflush(stdout);
}

void run_row(const RopeRow& row, const Args& args, double rate) {
  const std::string text = print_fusion(build_rope(*row.config, row.options));
  Fusion parsed = parse_fusion(text);
  std::vector<std::vector<HostTensor>> sets;
  sets.push_back(first_input_set(parsed, args.inputs_dir));
  for (uint64_t s = 1; s < 3; ++s) sets.push_back(fast_random_inputs(parsed, 100 + s));
  std::vector<DeviceTensor> device_inputs = upload(sets[0]);

  // Fusion text to first result.
  Stream stream;
  const BinaryCacheStats before = BinaryCache::shared().stats();
  auto t0 = Clock::now();
  Fusion fusion = parse_fusion(text);
  ExecutableOptions options;
  options.backend = Backend::Cuda;
  auto exe = Executable::compile(fusion, options);
  auto t1 = Clock::now();
  exe->run_device(device_inputs, stream.get());
  stream.synchronize();
  RowResult r;
  r.compile_ms = ms_since(t0);
  r.first_run_ms = ms_since(t1);
  const BinaryCacheStats after = BinaryCache::shared().stats();
  r.cache_misses = after.misses - before.misses;
  r.cache_disk_hits = after.disk_hits - before.disk_hits;
  r.cache_memory_hits = after.memory_hits - before.memory_hits;
  r.kernels = exe->segmented().num_kernels();
  r.lanes = lanes_of(*exe);
  r.registers = registers_of(*exe);
  r.floor_mb = floor_bytes(row) / 1e6;
  r.floor_us = floor_bytes(row) / rate * 1e6;
  if (!args.compile_only) {
    r.seam_us = exe->time_gpu(sets, args.iterations, args.flush_l2).median_ms * 1e3;
    if (args.cupti) r.kernel_us = back_to_back_kernel_us(*exe, sets, args.iterations, args.flush_l2);
    const CopyTime copy = time_device_copy(floor_bytes(row), args.iterations, args.cupti);
    r.copy_us = copy.events_us;
    r.copy_kernel_us = copy.kernel_us;
    HostCost cost = host_cost(*exe, device_inputs, args.iterations);
    r.wall_us = cost.wall_us;
    r.enqueue_us = cost.enqueue_us;
    r.call_us = cost.call_us;
    if (args.cupti) {
      std::vector<std::vector<DeviceTensor>> device_sets = {device_inputs, upload(sets[1]), upload(sets[2])};
      r.isolated_kernel_us = isolated_kernel_us(*exe, device_sets, args.iterations);
    }
  }
  if (!args.out_dir.empty()) {
    prepare_output_dir(args.out_dir, "--out");
    write_outputs_to_dir(fusion, exe->run(sets[0]), args.out_dir);
  }
  print_row(row, r, args.json, args.flush_l2);
}

// Code-generation variants of a few workloads side by side in one run: the defaults, then each knob of
// schedule/launch_knobs.def at each of its sweep values alone ("name=value"), then a few combinations.
struct SweepVariant {
  std::string name;
  std::function<void(LaunchParams&)> apply;
};

std::vector<SweepVariant> knob_sweep_variants() {
  std::vector<SweepVariant> variants = {{"defaults", [](LaunchParams&) {}}};
  for (const KnobInfo& knob : launch_knobs()) {
    std::istringstream values(knob.sweep);
    for (int64_t value; values >> value;) {
      const std::string name = knob.name;
      variants.push_back(
          {name + "=" + std::to_string(value), [name, value](LaunchParams& p) { set_knob(p, name, value); }});
    }
  }
  return variants;
}

// Whether `name` is in the comma-separated `list` (an empty list holds every name).
bool listed(const std::string& list, const std::string& name) {
  return list.empty() || ("," + list + ",").find("," + name + ",") != std::string::npos;
}

int run_sweep(double rate, int iterations, const RowFilter& limits, const std::string& variant_list,
              bool cupti) {
  std::vector<SweepVariant> variants = knob_sweep_variants();
  // Variants that move several knobs together (row tiles on every slab size).
  for (int tile : {2, 8, 32})
    variants.push_back({"tiles of " + std::to_string(tile) + " rows", [tile](LaunchParams& p) {
                          p.row_tile = p.run_row_tile = tile, p.row_tile_min_bytes = 0;
                        }});
  variants.push_back(
      {"groups of <= 2, any chunk", [](LaunchParams& p) { p.max_group = 2, p.max_group_loaded_bytes = 0; }});

  std::printf(
      "| workload | contract | bs | T | variant | regs | seam us | %% of floor | kernel us | %% of floor "
      "(kernel) |\n"
      "|---|---|---|---|---|---|---|---|---|---|\n");
  struct Pick {
    const char* id;
    const char* contract;
    const char* direction;
    int64_t batch, seq_len;
  };
  // Thunder rows whose choices were made here, and rope-only rows where torch.compile is faster.
  const Pick picks[] = {{"W3", "thunder", "forward", 2, 0},     {"W5", "thunder", "forward", 2, 0},
                        {"W7", "thunder", "forward", 2, 0},     {"W3", "thunder", "forward", 2, 32768},
                        {"W8", "thunder", "forward", 1, 0},     {"W9", "thunder", "forward", 2, 0},
                        {"W2", "rope-only", "forward", 1, 0},   {"W3", "rope-only", "forward", 1, 0},
                        {"W3", "rope-only", "forward", 2, 0},   {"W1", "rope-only", "forward", 1, 0},
                        {"W8", "thunder", "forward", 2, 0},     {"W4", "thunder", "forward", 1, 0},
                        {"W9", "rope-only", "forward", 1, 0},   {"W8", "rope-only", "forward", 2, 0},
                        {"W9", "rope-only", "forward", 2, 0},   {"W9", "thunder", "forward", 1, 0},
                        {"W2", "thunder", "forward", 2, 32768}, {"W9", "thunder", "backward", 2, 0},
                        {"W1", "thunder", "backward", 2, 0},    {"W3", "thunder", "backward", 2, 0},
                        {"W4", "thunder", "backward", 2, 0},    {"W5", "thunder", "backward", 2, 0},
                        {"W6", "thunder", "backward", 2, 0},    {"W7", "thunder", "backward", 2, 0}};
  for (const Pick& pick : picks) {
    const std::string& direction = limits.direction;
    if (!direction.empty() && direction != "both" && direction != pick.direction) continue;
    if (!limits.only.empty() &&
        ("," + limits.only + ",").find(std::string(",") + pick.id + ",") == std::string::npos)
      continue;
    if (!limits.contract.empty() && limits.contract != pick.contract) continue;
    if (limits.batch > 0 && limits.batch != pick.batch) continue;
    RowFilter filter;
    filter.only = pick.id;
    filter.contract = pick.contract;
    filter.direction = pick.direction;
    filter.batch = pick.batch;
    filter.seq_len = pick.seq_len;
    for (const RopeRow& row : select_rows(filter)) {
      Fusion fusion = build_rope(*row.config, row.options);
      std::vector<std::vector<HostTensor>> sets;
      for (uint64_t s = 0; s < 3; ++s) sets.push_back(fast_random_inputs(fusion, 100 + s));
      const double floor_us = floor_bytes(row) / rate * 1e6;
      for (const SweepVariant& v : variants) {
        if (!listed(variant_list, v.name)) continue;
        ExecutableOptions options;
        options.backend = Backend::Cuda;
        v.apply(options.launch);
        auto exe = Executable::compile(fusion, options);
        const double us = exe->time_gpu(sets, iterations).median_ms * 1e3;
        const double kernel_us = cupti ? back_to_back_kernel_us(*exe, sets, iterations, false) : -1;
        std::printf("| %s %s | %s | %lld | %lld | %s | %s | %.1f | %.0f%% | %s | %s |\n", pick.id,
                    row.backward() ? "bwd" : "fwd", pick.contract, static_cast<long long>(pick.batch),
                    static_cast<long long>(row.options.seq_len), v.name.c_str(), registers_of(*exe).c_str(),
                    us, 100.0 * floor_us / us, us_or_dash(kernel_us).c_str(),
                    percent_or_dash(floor_us, kernel_us).c_str());
        std::fflush(stdout);
      }
    }
  }
  return 0;
}

// No GPU: the benchmark's rows at a tiny size through the host backend, checked against the interpreter.
int run_host_smoke() {
  struct Pick {
    const char* id;
    RopeContract contract;
    Direction direction;
  };
  const Pick picks[] = {{"W2", RopeContract::Thunder, Direction::Forward},
                        {"W3", RopeContract::Thunder, Direction::Forward},
                        {"W7", RopeContract::RopeOnly, Direction::Forward},
                        {"W3", RopeContract::Thunder, Direction::Backward}};
  print_header(false);
  int failures = 0;
  for (const Pick& p : picks) {
    RopeRow row;
    row.config = &rope_config(p.id);
    row.options.batch = 1;
    row.options.seq_len = 8;
    row.options.contract = p.contract;
    row.options.direction = p.direction;
    auto t0 = Clock::now();
    Fusion fusion = parse_fusion(print_fusion(build_rope(*row.config, row.options)));
    ExecutableOptions options;
    options.backend = Backend::Host;
    auto exe = Executable::compile(fusion, options);
    std::vector<HostTensor> inputs = fast_random_inputs(fusion, 7);
    std::vector<HostTensor> actual = exe->run(inputs);
    RowResult r;
    r.compile_ms = ms_since(t0);
    r.kernels = exe->segmented().num_kernels();
    r.lanes = lanes_of(*exe);
    r.registers = registers_of(*exe);
    r.floor_mb = floor_bytes(row) / 1e6;
    std::vector<HostTensor> expected = interpret(fusion, inputs);
    for (size_t o = 0; o < actual.size(); ++o) {
      Comparison c = compare_tensors(actual[o], expected[o], default_tolerance(actual[o].dtype()));
      if (!c.ok) {
        std::fprintf(stderr, "%s output %zu differs from the interpreter: %s\n", row.label().c_str(), o,
                     c.message.c_str());
        ++failures;
      }
    }
    print_row(row, r, false, false);
  }
  return failures ? 3 : 0;
}

int run(int argc, char** argv) {
  const Args args = parse_args(argc, argv);
  if (args.host_smoke) return run_host_smoke();
  const std::vector<RopeRow> rows = args.sweep ? std::vector<RopeRow>{} : select_rows(args.filter);
  if (!driver_status().available) {
    std::printf("no GPU: %s\n", driver_status().reason.c_str());
    return 77;
  }
  Device& device = Device::shared();
  device.make_current();
  const bool measured = args.copy_rate_tbps <= 0;
  const double rate = measured ? device_copy_rate_bytes_per_s() : args.copy_rate_tbps * 1e12;
  if (!args.json)
    std::printf("device: %s (%s), copy rate %.2f TB/s (%s, device-to-device, read + write)%s\n\n",
                device.properties().name.c_str(), device.arch_string().c_str(), rate / 1e12,
                measured ? "measured" : "given", args.flush_l2 ? ", L2 flushed before every run" : "");
  Args row_args = args;
  std::string no_cupti;
  if (row_args.cupti && !activity_available(&no_cupti)) {
    row_args.cupti = false;
    if (!args.json) std::printf("kernel durations: none (%s)\n\n", no_cupti.c_str());
  }
  if (args.sweep) return run_sweep(rate, args.iterations, args.filter, args.variants, row_args.cupti);
  if (args.host_floor && !args.json) {
    const HostFloor floor = measure_host_floor(2000);
    std::printf(
        "empty kernel, medians of 2000 calls: cuLaunchKernel %.2f us, launch + cuStreamSynchronize %.2f us, "
        "cuPointerGetAttribute %.3f us, cuCtxSetCurrent %.3f us; events around the launch %.2f us, with "
        "%.0f us of host work after the first event %.2f us\n\n",
        floor.launch_us, floor.launch_and_sync_us, floor.pointer_query_us, floor.set_context_us,
        floor.call_events_us, floor.spin_us, floor.call_events_with_spin_us);
  }
  print_header(args.json);
  for (const RopeRow& row : rows) run_row(row, row_args, rate);
  return 0;
}

}  // namespace
}  // namespace seam::bench

int main(int argc, char** argv) {
  // A compile that misses seam's binary cache is timed cold: NVRTC's own program cache (CUDA 12.9+) off,
  // unless the caller says otherwise.
  setenv("SEAM_NVRTC_NO_CACHE", "1", 0);
  try {
    return seam::bench::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_rope_gpu: error: %s\n", e.what());
    return 1;
  }
}
