// bench: fusion files timed on the GPU against their byte floor and a device-to-device copy of the same
// bytes measured in the same run (bench/README.md, "seam bench"); --dry-run plans without a GPU.
//
// Method, per file: compiled for the GPU through Executable (the product's path); 3 input sets (set 0 from
// --inputs DIR when given, else seeded random like the others) uploaded once and rotated; a first run and
// 3 more as warm-up; then `iterations` runs back to back, each between two events ("events us": the median
// run), and the same runs again with CUPTI recording the kernels' own durations ("kernel us": the median
// over runs of the summed durations of one run's kernels; how torch.compile is timed by torch.profiler).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "commands.h"
#include "exec/device_upload.h"
#include "exec/executable.h"
#include "passes/pipeline.h"
#include "plan/plan.h"
#include "runtime/copy_timing.h"
#include "runtime/cuda_driver.h"
#include "runtime/device.h"
#include "runtime/event_timer.h"
#include "runtime/kernel_activity.h"
#include "segment/segment.h"
#include "support/error.h"
#include "tensor/fast_random.h"
#include "tensor/tensor_files.h"

namespace seam::tool {
namespace {

struct BenchOptions {
  int iterations = 50;
  bool json = false, cupti = true, dry_run = false;
  double copy_rate_tbps = 0;  // 0: measure a 2 GiB copy
  std::string inputs_dir, out_dir;
  LaunchParams launch;  // the knobs, as `seam emit` takes them
};

constexpr int kInputSets = 3, kWarmup = 3;

// What every report says, measured or not: the fusion, its byte floor and its plan.
struct FusionSummary {
  std::string file;
  Fusion fusion;  // as read (inputs and outputs named as in the file)
  int64_t input_bytes = 0, output_bytes = 0;
  std::vector<PlannedStep> steps;
  int64_t floor_bytes() const { return input_bytes + output_bytes; }
};

// Bytes of every fusion input and output, each value counted once (an output that is an input is not
// counted again): what a perfect implementation reads and writes.
void count_floor(FusionSummary& s) {
  std::set<Value> seen;
  auto bytes = [&](Value v) {
    const Type& t = s.fusion.type(v);
    return Type::tensor(t.dtype, t.shape).numel() * static_cast<int64_t>(dtype_size(t.dtype));
  };
  for (Value v : s.fusion.inputs())
    if (seen.insert(v).second) s.input_bytes += bytes(v);
  for (const FusionOutput& out : s.fusion.outputs())
    if (seen.insert(out.value).second) s.output_bytes += bytes(out.value);
}

// Measured per file on the GPU; -1: not measured (CUPTI off or missing).
struct Measured {
  double compile_ms = 0;
  std::string module;  // where its kernels came from (Executable::module_origin): compiled, cache, loaded
  double events_us = 0, kernel_us = -1;
  int kernels_recorded = -1;  // kernels CUPTI saw per run (library calls may launch several)
  double copy_us = 0, copy_kernel_us = -1;
  double floor_us = 0, copy_rate = 0;  // bytes / copy rate; the rate in bytes per second
};

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// A measured number, or null where it was not measured.
std::string json_number(double value, bool measured = true) {
  if (!measured) return "null";
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", value);
  return text;
}

std::string percent(double part, double whole) {
  return whole > 0 && part > 0 ? json_number(100 * part / whole) : "null";
}

std::string steps_json(const std::vector<PlannedStep>& steps) {
  std::string out = "[";
  for (const PlannedStep& step : steps) {
    out += std::string(out.size() > 1 ? ", " : "") +
           "{\"kind\": " + json_string(std::string(step_kind_name(step.kind)));
    if (!step.library)
      out += ", \"kernel\": " + json_string(step.kernel.name) +
             ", \"blocks\": " + std::to_string(step.grid.blocks) +
             ", \"block\": " + std::to_string(step.grid.block);
    if (step.kernel.rows)
      out += ", \"rows\": " + std::to_string(step.kernel.rows->rows) +
             ", \"reduced\": " + std::to_string(step.kernel.rows->reduced) +
             ", \"rows_per_block\": " + std::to_string(step.kernel.rows->rows_per_block) +
             ", \"threads_per_row\": " + std::to_string(step.kernel.rows->threads_per_row);
    out += "}";
  }
  return out + "]";
}

std::string tensors_json(const Fusion& f, bool inputs) {
  std::string out = "[";
  const size_t count = inputs ? f.inputs().size() : f.outputs().size();
  for (size_t i = 0; i < count; ++i) {
    const Value v = inputs ? f.inputs()[i] : f.outputs()[i].value;
    out += std::string(i ? ", " : "") +
           "{\"name\": " + json_string(inputs ? fusion_input_name(f, i) : fusion_output_name(f, i)) +
           ", \"type\": " + json_string(f.type(v).to_string()) + "}";
  }
  return out + "]";
}

// One JSON object per file on one line; the timing keys only when measured.
void print_json(const FusionSummary& s, const Measured* m, int iterations) {
  std::string line =
      "{\"file\": " + json_string(s.file) + ", \"fusion\": " + json_string(s.fusion.name()) +
      ", \"dry_run\": " + (m ? "false" : "true") + ", \"kernels\": " + std::to_string(s.steps.size()) +
      ", \"floor_bytes\": " + std::to_string(s.floor_bytes()) +
      ", \"input_bytes\": " + std::to_string(s.input_bytes) +
      ", \"output_bytes\": " + std::to_string(s.output_bytes) +
      ", \"inputs\": " + tensors_json(s.fusion, true) + ", \"outputs\": " + tensors_json(s.fusion, false) +
      ", \"steps\": " + steps_json(s.steps);
  if (m) {
    const bool kernel = m->kernel_us >= 0, copy_kernel = m->copy_kernel_us >= 0;
    const double bytes = static_cast<double>(s.floor_bytes());
    line += ", \"iterations\": " + std::to_string(iterations) +
            ", \"compile_ms\": " + json_number(m->compile_ms) + ", \"module\": " + json_string(m->module) +
            ", \"copy_rate_tbps\": " + json_number(m->copy_rate / 1e12) +
            ", \"floor_us\": " + json_number(m->floor_us) + ", \"events_us\": " + json_number(m->events_us) +
            ", \"kernel_us\": " + json_number(m->kernel_us, kernel) + ", \"kernels_recorded\": " +
            (m->kernels_recorded >= 0 ? std::to_string(m->kernels_recorded) : "null") +
            ", \"copy_us\": " + json_number(m->copy_us) +
            ", \"copy_kernel_us\": " + json_number(m->copy_kernel_us, copy_kernel) +
            ", \"pct_floor\": " + percent(m->floor_us, m->events_us) +
            ", \"pct_floor_kernel\": " + (kernel ? percent(m->floor_us, m->kernel_us) : "null") +
            ", \"pct_copy\": " + percent(m->copy_us, m->events_us) + ", \"pct_copy_kernel\": " +
            (kernel && copy_kernel ? percent(m->copy_kernel_us, m->kernel_us) : "null") +
            ", \"tbps\": " + (m->events_us > 0 ? json_number(bytes / m->events_us * 1e-6) : "null") +
            ", \"tbps_kernel\": " +
            (kernel && m->kernel_us > 0 ? json_number(bytes / m->kernel_us * 1e-6) : "null");
  }
  std::printf("%s}\n", line.c_str());
  std::fflush(stdout);
}

std::string cell(double value, const char* format) {
  if (value < 0) return "-";
  char text[32];
  std::snprintf(text, sizeof text, format, value);
  return text;
}
std::string percent_cell(double part, double whole) {
  return part > 0 && whole > 0 ? cell(100 * part / whole, "%.0f%%") : "-";
}

void print_table_header() {
  std::printf(
      "| file | kernels | floor MB | floor us | events us | %% of floor | kernel us | %% of floor (kernel) | "
      "copy us | %% of copy | copy kernel us | %% of copy (kernel) | TB/s (kernel) |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
}

void print_table_row(const FusionSummary& s, const Measured& m) {
  const double bytes = static_cast<double>(s.floor_bytes());
  const double best_us = m.kernel_us > 0 ? m.kernel_us : m.events_us;
  std::printf("| %s | %zu | %.1f | %.1f | %.1f | %s | %s | %s | %.1f | %s | %s | %s | %.2f%s |\n",
              s.file.c_str(), s.steps.size(), bytes / 1e6, m.floor_us, m.events_us,
              percent_cell(m.floor_us, m.events_us).c_str(), cell(m.kernel_us, "%.1f").c_str(),
              percent_cell(m.floor_us, m.kernel_us).c_str(), m.copy_us,
              percent_cell(m.copy_us, m.events_us).c_str(), cell(m.copy_kernel_us, "%.1f").c_str(),
              percent_cell(m.copy_kernel_us, m.kernel_us).c_str(), best_us > 0 ? bytes / best_us * 1e-6 : 0.0,
              m.kernel_us > 0 ? "" : " (events)");
  std::fflush(stdout);
}

void print_dry_run(const FusionSummary& s) {
  std::printf("%s: fusion %s, %zu kernel(s), byte floor %lld bytes (inputs %lld, outputs %lld)\n%s\n",
              s.file.c_str(), s.fusion.name().c_str(), s.steps.size(),
              static_cast<long long>(s.floor_bytes()), static_cast<long long>(s.input_bytes),
              static_cast<long long>(s.output_bytes), print_plan(FusionPlan{s.steps}).c_str());
  std::fflush(stdout);
}

// Seeded random inputs; integers drawn in [0, 8) so that they can index (cross-entropy targets).
std::vector<HostTensor> random_input_set(const Fusion& fusion, uint64_t seed) {
  std::vector<HostTensor> inputs = fast_random_inputs(fusion, seed);
  for (HostTensor& x : inputs)
    if (!is_floating(x.dtype()) && x.dtype() != DType::Bool)
      for (int64_t i = 0; i < x.numel(); ++i) x.set_int(i, x.get_int(i) & 7);
  return inputs;
}

// The device memory of the input sets, apart from the executable's; kept until exit like the device.
CachingDeviceAllocator& input_allocator() {
  static CachingDeviceAllocator* allocator = new CachingDeviceAllocator(cuda_driver_backend());
  return *allocator;
}

Measured measure(FusionSummary& s, const BenchOptions& options, double copy_rate) {
  using Clock = std::chrono::steady_clock;
  Measured m;
  m.copy_rate = copy_rate;
  m.floor_us = static_cast<double>(s.floor_bytes()) / copy_rate * 1e6;
  std::vector<std::vector<HostTensor>> host_sets;
  host_sets.push_back(options.inputs_dir.empty() ? random_input_set(s.fusion, 100)
                                                 : read_inputs_from_dir(s.fusion, options.inputs_dir));
  for (uint64_t set = 1; set < kInputSets; ++set) host_sets.push_back(random_input_set(s.fusion, 100 + set));
  std::vector<std::vector<DeviceTensor>> sets;
  for (const auto& inputs : host_sets) sets.push_back(upload_to_device(inputs, input_allocator()));

  // Fusion to first result: passes, segmentation, plan, NVRTC or the binary cache, the first run.
  Stream stream;
  const auto t0 = Clock::now();
  ExecutableOptions exe_options;
  exe_options.backend = Backend::Cuda;
  exe_options.launch = options.launch;
  auto exe = Executable::compile(s.fusion, exe_options);
  exe->run_device(sets[0], stream.get());
  stream.synchronize();
  m.compile_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  m.module = std::string(module_origin_name(exe->module_origin()));
  s.steps = exe->steps();

  size_t next = 0;
  auto run = [&](CUstream st) { exe->run_device(sets[next++ % sets.size()], st); };
  m.events_us = time_launches(run, stream.get(), options.iterations, kWarmup).median_ms * 1e3;
  if (options.cupti && !exe->steps().empty()) {
    ActivityRecording recording;
    time_launches(run, stream.get(), options.iterations, kWarmup);
    std::vector<ActivityRecord> records = recording.finish();
    const auto kernels = std::count_if(records.begin(), records.end(), [](const ActivityRecord& r) {
      return r.kind == ActivityRecord::Kind::Kernel;
    });
    m.kernels_recorded = static_cast<int>(kernels / (options.iterations + kWarmup));
    if (m.kernels_recorded > 0)
      m.kernel_us =
          median_run_us(records, ActivityRecord::Kind::Kernel, m.kernels_recorded, options.iterations);
  }
  const CopyTime copy =
      time_device_copy(static_cast<double>(s.floor_bytes()), options.iterations, options.cupti);
  m.copy_us = copy.events_us;
  m.copy_kernel_us = copy.kernel_us;
  if (!options.out_dir.empty()) write_outputs_to_dir(s.fusion, exe->run(host_sets[0]), options.out_dir);
  // The input sets' memory goes back to the driver before the next file uploads its own.
  sets.clear();
  input_allocator().release_all();
  return m;
}

BenchOptions parse_options(Args& args) {
  BenchOptions o;
  const int64_t iterations = args.get_int("iterations", o.iterations);
  SEAM_CHECK(iterations >= 1 && iterations <= 100000, "--iterations must be from 1 to 100000, got ",
             iterations);
  o.iterations = static_cast<int>(iterations);
  o.json = args.has("json");
  o.cupti = !args.has("no-cupti");
  o.dry_run = args.has("dry-run");
  o.copy_rate_tbps = args.get_double("copy-rate", 0);
  SEAM_CHECK(o.copy_rate_tbps >= 0 && o.copy_rate_tbps < 1000, "--copy-rate must be in TB/s (> 0), got ",
             o.copy_rate_tbps);
  o.inputs_dir = args.get_or("inputs", "");
  o.out_dir = args.get_or("out", "");
  read_knob_flags(args, o.launch);
  args.reject_unused();
  SEAM_CHECK(!args.positional().empty(), "bench needs at least one FILE");
  SEAM_CHECK(args.positional().size() == 1 || (o.inputs_dir.empty() && o.out_dir.empty()),
             "--inputs and --out name one fusion's tensors: give one FILE with them");
  return o;
}

}  // namespace

int cmd_bench(Args& args) {
  const BenchOptions options = parse_options(args);
  // Every file is read and planned before anything is timed: a typo in the last file costs no GPU time.
  std::vector<FusionSummary> summaries;
  for (const std::string& file : args.positional()) {
    FusionSummary s{file, load_fusion(file), 0, 0, {}};
    count_floor(s);
    ExecutableOptions defaults;
    const SegmentedFusion segmented = segment_fusion(run_pipeline(s.fusion), defaults.segment);
    s.steps = plan_fusion(segmented, PlanOptions{options.launch, {}}).steps;
    summaries.push_back(std::move(s));
  }
  if (options.dry_run) {
    for (const FusionSummary& s : summaries) options.json ? print_json(s, nullptr, 0) : print_dry_run(s);
    return kExitOk;
  }
  const DriverStatus& status = driver_status();
  SEAM_CHECK(status.available, "seam bench needs a GPU (--dry-run plans without one): ", status.reason);
  Device& device = Device::shared();
  device.make_current();
  if (!options.out_dir.empty()) prepare_output_dir(options.out_dir, "--out");
  const double copy_rate =
      options.copy_rate_tbps > 0 ? options.copy_rate_tbps * 1e12 : device_copy_rate_bytes_per_s();
  BenchOptions run_options = options;
  std::string no_cupti;
  if (run_options.cupti && !activity_available(&no_cupti)) run_options.cupti = false;
  if (!options.json) {
    std::printf("device: %s (%s), copy rate %.2f TB/s (%s), %d runs per file, %d input sets rotated\n",
                device.properties().name.c_str(), device.arch_string().c_str(), copy_rate / 1e12,
                options.copy_rate_tbps > 0 ? "given" : "measured: a 2 GiB device-to-device copy",
                options.iterations, kInputSets);
    if (options.cupti && !run_options.cupti) std::printf("kernel durations: none (%s)\n", no_cupti.c_str());
    std::printf("\n");
    print_table_header();
  }
  // Files of one structure at several sizes share kernels of one size class: what each one compiled.
  std::map<std::string, int> modules;
  for (FusionSummary& s : summaries) {
    const Measured m = measure(s, run_options, copy_rate);
    ++modules[m.module];
    options.json ? print_json(s, &m, options.iterations) : print_table_row(s, m);
  }
  if (!options.json)
    std::printf(
        "\nkernels of %zu file(s): %d compiled, %d from the kernel cache, %d shared with an earlier file\n",
        summaries.size(), modules["compiled"], modules["cache"], modules["loaded"]);
  return kExitOk;
}

}  // namespace seam::tool
