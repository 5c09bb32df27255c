// RoPE on the GPU: seam's kernel count and GPU time for every workload of WORKLOADS.md, against the
// byte floor at the device-to-device copy rate measured in the same run. Prints a markdown table.
//
// Method: inputs uploaded once per input set (3 sets, rotated), GPU time = median over N runs of the
// events around all launches of one run; no L2 flush (pass --flush-l2 to add one between runs: TODO).
// Usage: bench_rope_gpu [--iterations N] [--quick] [--sweep] [--only W2] [--contract thunder] [--bs 2]
//   --sweep: launch-shape variants (block size, blocks per SM) on a few workloads instead of the table.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

#include "exec/executable.h"
#include "interp/fast_random.h"
#include "runtime/cuda_driver.h"
#include "runtime/device.h"
#include "runtime/device_allocator.h"
#include "runtime/event_timer.h"
#include "workloads/rope.h"

namespace seam {
namespace {

// Bytes a perfect kernel moves (WORKLOADS.md, "Floors"): read the q and k parts of qkv, the v part when v
// is materialized, cos and sin once; write every output that is not a view.
double floor_bytes(const RopeConfig& c, const RopeOptions& o, int64_t T) {
  const double B = static_cast<double>(o.batch), e = 2.0;  // bf16
  const bool expand = expands_kv(c, o.contract);
  const double kv = static_cast<double>(kv_heads(c, o.contract));
  const double row = static_cast<double>(T) * c.head_size * e;  // one head at all positions
  double read = B * (c.n_head + c.n_query_groups) * row + 2.0 * T * c.rope_n_elem * e;
  double write = B * (c.n_head + kv) * row;
  if (expand) {  // v materialized at nh heads
    read += B * c.n_query_groups * row;
    write += B * c.n_head * row;
  }
  return read + write;
}

struct HostCost {
  double wall_us;     // median per call: run_device + stream synchronize, inputs already on the GPU
  double enqueue_us;  // median per call: run_device alone (checks, allocation, launches), no wait
};

// Per-call host cost of the device entry point, called back to back on device-resident inputs.
HostCost host_cost(Executable& exe, const std::vector<HostTensor>& inputs, int iterations) {
  CachingDeviceAllocator& allocator = *new CachingDeviceAllocator(cuda_driver_backend());  // kept to exit
  std::vector<DeviceTensor> device_inputs;
  for (const HostTensor& x : inputs) {
    auto buffer = std::make_shared<DeviceBuffer>(allocator, std::max<size_t>(x.storage().size(), 1));
    check_cuda(driver().memcpy_htod(buffer->get(), x.storage().data(), x.storage().size()), "cuMemcpyHtoD");
    device_inputs.push_back({buffer->get(), x.dtype(), x.shape(), x.strides(), buffer});
  }
  Stream stream;
  using Clock = std::chrono::steady_clock;
  auto us = [](Clock::duration d) { return std::chrono::duration<double, std::micro>(d).count(); };
  for (int i = 0; i < 20; ++i) exe.run_device(device_inputs, stream.get());
  stream.synchronize();
  std::vector<double> wall, enqueue;
  for (int i = 0; i < iterations; ++i) {
    auto t0 = Clock::now();
    std::vector<DeviceTensor> outputs = exe.run_device(device_inputs, stream.get());
    auto t1 = Clock::now();
    stream.synchronize();
    auto t2 = Clock::now();
    enqueue.push_back(us(t1 - t0));
    wall.push_back(us(t2 - t0));
  }
  return {median(wall), median(enqueue)};
}

double copy_rate_bytes_per_s() {
  const size_t bytes = size_t{1} << 30;
  CachingDeviceAllocator allocator(cuda_driver_backend());
  DeviceBuffer src(allocator, bytes), dst(allocator, bytes);
  const Driver& cu = driver();
  Stream stream;
  Timing t = time_launches(
      [&](CUstream s) {
        check_cuda(cu.memcpy_dtod_async(dst.get(), src.get(), bytes, s), "cuMemcpyDtoDAsync");
      },
      stream.get(), 20, 3);
  return 2.0 * bytes / (t.median_ms * 1e-3);
}

// GPU time of one workload under several launch shapes, side by side in one run.
int run_sweep(double rate, int iterations) {
  std::printf(
      "| workload | contract | bs | chunks/thread | blocks/SM cap | seam us | %% of floor |\n"
      "|---|---|---|---|---|---|---|\n");
  for (const char* name : {"W2", "W3", "W6", "W7"}) {
    const RopeConfig& config = rope_config(name);
    RopeOptions options;
    options.batch = 2;
    options.contract = RopeContract::Thunder;
    Fusion fusion = build_rope(config, options);
    std::vector<std::vector<HostTensor>> sets;
    for (uint64_t s = 0; s < 3; ++s) sets.push_back(fast_random_inputs(fusion, 100 + s));
    const double floor_us = floor_bytes(config, options, config.block_size) / rate * 1e6;
    for (int unroll : {1, 2, 4}) {
      for (int cap : {0, 8, 32}) {
        ExecutableOptions exe_options;
        exe_options.backend = Backend::Cuda;
        exe_options.launch.chunks_per_thread = unroll;
        exe_options.launch.max_blocks_per_sm = cap;
        auto exe = Executable::compile(fusion, exe_options);
        Timing t = exe->time_gpu(sets, iterations);
        std::printf("| %s | thunder | 2 | %d | %d | %.1f | %.0f%% |\n", name, unroll, cap, t.median_ms * 1e3,
                    100.0 * floor_us / (t.median_ms * 1e3));
        std::fflush(stdout);
      }
    }
  }
  return 0;
}

int run(int argc, char** argv) {
  int iterations = 50;
  bool quick = false, sweep = false;
  std::string only, only_contract;  // filters: a workload id ("W2") and a contract
  int64_t only_batch = 0;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--iterations") && i + 1 < argc)
      iterations = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--quick"))
      quick = true;
    else if (!std::strcmp(argv[i], "--sweep"))
      sweep = true;
    else if (!std::strcmp(argv[i], "--only") && i + 1 < argc)
      only = argv[++i];
    else if (!std::strcmp(argv[i], "--contract") && i + 1 < argc)
      only_contract = argv[++i];
    else if (!std::strcmp(argv[i], "--bs") && i + 1 < argc)
      only_batch = std::atoll(argv[++i]);
  }
  if (!driver_status().available) {
    std::printf("no GPU: %s\n", driver_status().reason.c_str());
    return 77;
  }
  Device& device = Device::shared();
  device.make_current();
  const double rate = copy_rate_bytes_per_s();
  std::printf("device: %s (%s), copy rate %.2f TB/s (device-to-device, read + write)\n\n",
              device.properties().name.c_str(), device.arch_string().c_str(), rate / 1e12);
  if (sweep) return run_sweep(rate, iterations);
  std::printf(
      "| workload | contract | bs | kernels | lanes | floor MB | floor us | seam us | %% of floor | TB/s | "
      "wall us | enqueue us | compile ms |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (RopeContract contract : {RopeContract::RopeOnly, RopeContract::Thunder}) {
    for (const RopeConfig& config : rope_configs()) {
      for (int64_t batch : {1, 2}) {
        if (quick && (batch == 1 || config.name != "Llama-2-13b-hf")) continue;
        if (!only.empty() && rope_config_id(config) != only) continue;
        if (!only_contract.empty() && contract_name(contract) != only_contract) continue;
        if (only_batch && batch != only_batch) continue;
        RopeOptions options;
        options.batch = batch;
        options.contract = contract;
        Fusion fusion = build_rope(config, options);
        ExecutableOptions exe_options;
        exe_options.backend = Backend::Cuda;
        auto t0 = std::chrono::steady_clock::now();
        auto exe = Executable::compile(fusion, exe_options);
        double compile_ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        std::vector<std::vector<HostTensor>> sets;
        for (uint64_t s = 0; s < 3; ++s) sets.push_back(fast_random_inputs(fusion, 100 + s));
        Timing t = exe->time_gpu(sets, iterations);
        HostCost cost = host_cost(*exe, sets[0], iterations);
        const double bytes = floor_bytes(config, options, config.block_size);
        const double floor_us = bytes / rate * 1e6;
        std::string lanes;
        for (const CompiledStep& step : exe->steps())
          for (const kir::OutputProgram& p : step.kernel.outputs)
            lanes += (lanes.empty() ? "" : "/") + std::to_string(p.lanes);
        std::printf(
            "| %s %s | %s | %lld | %d | %s | %.1f | %.1f | %.1f | %.0f%% | %.2f | %.1f | %.1f | %.0f |\n",
            rope_config_id(config).c_str(), config.name.c_str(), std::string(contract_name(contract)).c_str(),
            static_cast<long long>(batch), exe->segmented().num_kernels(), lanes.c_str(), bytes / 1e6,
            floor_us, t.median_ms * 1e3, 100.0 * floor_us / (t.median_ms * 1e3),
            bytes / (t.median_ms * 1e-3) / 1e12, cost.wall_us, cost.enqueue_us, compile_ms);
        std::fflush(stdout);
      }
    }
  }
  return 0;
}

}  // namespace
}  // namespace seam

int main(int argc, char** argv) {
  try {
    return seam::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_rope_gpu: error: %s\n", e.what());
    return 1;
  }
}
