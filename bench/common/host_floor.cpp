#include "common/host_floor.h"

#include <chrono>
#include <vector>

#include "runtime/cuda_driver.h"
#include "runtime/device.h"
#include "runtime/device_allocator.h"
#include "runtime/event_timer.h"
#include "runtime/module.h"
#include "runtime/nvrtc_compiler.h"

namespace seam::bench {
namespace {

using Clock = std::chrono::steady_clock;

// The median over `iterations` calls of f's host time, in microseconds.
template <typename F>
double median_call_us(int iterations, F f) {
  std::vector<double> samples;
  for (int i = 0; i < iterations; ++i) {
    const auto t0 = Clock::now();
    f(i);
    samples.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
  }
  return median(std::move(samples));
}

}  // namespace

HostFloor measure_host_floor(int iterations) {
  Device& device = Device::shared();
  device.make_current();
  CompileRequest request;
  request.source = "extern \"C\" __global__ void seam_empty(float* p) {}\n";
  request.program_name = "seam_empty.cu";
  request.kernel_names = {"seam_empty"};
  request.arch = device.arch_string();
  const CompiledKernel compiled = compile_cuda(request);
  Module module = Module::load(compiled.binary);
  Kernel kernel = module.kernel(compiled.symbol("seam_empty"));
  CachingDeviceAllocator allocator(cuda_driver_backend());
  DeviceBuffer buffer(allocator, 256);
  DevicePtr pointer = buffer.get();
  std::vector<void*> args = {&pointer};
  Stream stream;
  LaunchConfig config;
  config.grid = {1, 1, 1};
  config.block = {32, 1, 1};
  config.stream = stream.get();
  for (int i = 0; i < 50; ++i) launch(kernel, config, args);
  stream.synchronize();

  HostFloor floor;
  // Enqueue only; a synchronize every 32 launches keeps the queue short, outside the timed calls.
  floor.launch_us = median_call_us(iterations, [&](int i) {
    if (i % 32 == 0) stream.synchronize();
    launch(kernel, config, args);
  });
  stream.synchronize();
  floor.launch_and_sync_us = median_call_us(iterations, [&](int) {
    launch(kernel, config, args);
    stream.synchronize();
  });
  const Driver& cu = driver();
  floor.pointer_query_us = median_call_us(iterations, [&](int) {
    int ordinal = -1;
    check_cuda(cu.pointer_get_attribute(&ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, pointer),
               "cuPointerGetAttribute");
  });
  floor.set_context_us = median_call_us(iterations, [&](int) { device.make_current(); });
  floor.spin_us = 20;
  Event before, after;
  auto call_events = [&](double spin_us) {
    std::vector<double> samples;
    for (int i = 0; i < iterations; ++i) {
      before.record(stream.get());
      const auto t0 = Clock::now();
      while (std::chrono::duration<double, std::micro>(Clock::now() - t0).count() < spin_us) {
      }
      launch(kernel, config, args);
      after.record(stream.get());
      after.synchronize();
      samples.push_back(after.elapsed_ms_since(before) * 1e3);
    }
    return median(std::move(samples));
  };
  floor.call_events_us = call_events(0);
  floor.call_events_with_spin_us = call_events(floor.spin_us);
  return floor;
}

}  // namespace seam::bench
