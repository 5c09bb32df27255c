// seam_gpu_smoke: checks the runtime end to end on a real GPU. NVRTC-compiles kernels for the device's
// exact arch, loads and launches them, checks results, times a 1 GiB device-to-device copy, and checks the
// caching allocator against the driver. Exit codes: 0 all passed, 1 a check failed, 77 no GPU (skipped).
//   LD_LIBRARY_PATH=/usr/local/cuda/lib64 ./seam_gpu_smoke
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "runtime/cuda_driver.h"
#include "runtime/device.h"
#include "runtime/device_allocator.h"
#include "runtime/event_timer.h"
#include "runtime/kernel_cache.h"
#include "runtime/module.h"
#include "runtime/nvrtc_compiler.h"
#include "support/error.h"
#include "support/half.h"

namespace seam {
namespace {

int failures = 0;

void check(bool ok, const std::string& what) {
  std::printf("%s  %s\n", ok ? "PASS" : "FAIL", what.c_str());
  if (!ok) ++failures;
}

constexpr const char* kSource = R"(
#include <cuda_bf16.h>

extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

extern "C" __global__ void bf16_axpy(const __nv_bfloat16* x, const __nv_bfloat16* y, __nv_bfloat16* out,
                                     float alpha, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __float2bfloat16(alpha * __bfloat162float(x[i]) + __bfloat162float(y[i]));
}

// 16 bytes per thread per step, grid-stride: the bandwidth probe.
extern "C" __global__ void copy16(const uint4* __restrict__ src, uint4* __restrict__ dst, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    dst[i] = src[i];
  }
}

// Uses all the dynamic shared memory it is given: needs the opt-in above 48 KB.
extern "C" __global__ void smem_reverse(const int* in, int* out, int n) {
  extern __shared__ int tile[];
  for (int i = threadIdx.x; i < n; i += blockDim.x) tile[i] = in[i];
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = tile[n - 1 - i];
}

template <typename T, int kScale>
__global__ void scaled(T* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= T(kScale);
}
)";

template <typename T>
void upload(DevicePtr dst, const std::vector<T>& src) {
  SEAM_CU(memcpy_htod, dst, src.data(), src.size() * sizeof(T));
}
template <typename T>
void download(std::vector<T>& dst, DevicePtr src) {
  SEAM_CU(memcpy_dtoh, dst.data(), src, dst.size() * sizeof(T));
}

LaunchConfig config_1d(size_t n, unsigned block = 256) {
  LaunchConfig c;
  c.block.x = block;
  c.grid.x = static_cast<unsigned>((n + block - 1) / block);
  return c;
}

void test_vector_add(Module& module, const CompiledKernel& compiled, CachingDeviceAllocator& allocator) {
  const int n = (1 << 20) + 3;
  std::vector<float> a(n), b(n), c(n);
  for (int i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i % 1000);
    b[i] = 0.25f * static_cast<float>(i % 77);
  }
  DeviceBuffer da(allocator, n * 4), db(allocator, n * 4), dc(allocator, n * 4);
  upload(da.get(), a);
  upload(db.get(), b);
  Kernel kernel = module.kernel(compiled.symbol("vadd"));
  CUdeviceptr pa = da.get(), pb = db.get(), pc = dc.get();
  int count = n;
  launch(kernel, config_1d(n), {&pa, &pb, &pc, &count});
  download(c, dc.get());
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += c[i] != a[i] + b[i];
  check(wrong == 0, "vadd of " + std::to_string(n) + " floats (" + std::to_string(wrong) + " wrong)");
}

void test_bf16(Module& module, const CompiledKernel& compiled, CachingDeviceAllocator& allocator) {
  const int n = 100000;
  const float alpha = 1.5f;
  std::vector<uint16_t> x(n), y(n), out(n);
  for (int i = 0; i < n; ++i) {
    x[i] = float_to_bf16_bits(static_cast<float>(i % 513) / 7.0f - 30.0f);
    y[i] = float_to_bf16_bits(static_cast<float>(i % 97) * 0.125f);
  }
  DeviceBuffer dx(allocator, n * 2), dy(allocator, n * 2), dout(allocator, n * 2);
  upload(dx.get(), x);
  upload(dy.get(), y);
  Kernel kernel = module.kernel(compiled.symbol("bf16_axpy"));
  CUdeviceptr px = dx.get(), py = dy.get(), pout = dout.get();
  float a = alpha;
  int count = n;
  launch(kernel, config_1d(n), {&px, &py, &pout, &a, &count});
  download(out, dout.get());
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    // Same float arithmetic (an FMA may differ from mul+add by one rounding), then round to bf16.
    float expect = alpha * bf16_bits_to_float(x[i]) + bf16_bits_to_float(y[i]);
    float got = bf16_bits_to_float(out[i]);
    wrong += std::fabs(got - expect) > std::fabs(expect) * (1.0f / 128.0f) + 1e-6f;
  }
  check(wrong == 0, "bf16 axpy of " + std::to_string(n) + " values (" + std::to_string(wrong) + " wrong)");
}

void test_template(Module& module, const CompiledKernel& compiled, CachingDeviceAllocator& allocator) {
  const int n = 4096;
  std::vector<int> x(n);
  for (int i = 0; i < n; ++i) x[i] = i;
  DeviceBuffer dx(allocator, n * 4);
  upload(dx.get(), x);
  Kernel kernel = module.kernel(compiled.symbol("scaled<int, 3>"));
  CUdeviceptr px = dx.get();
  int count = n;
  launch(kernel, config_1d(n), {&px, &count});
  download(x, dx.get());
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += x[i] != 3 * i;
  check(wrong == 0, "template kernel through its lowered name " + compiled.symbol("scaled<int, 3>"));
}

void test_large_shared_memory(Module& module, const CompiledKernel& compiled,
                              CachingDeviceAllocator& allocator, const DeviceProperties& props) {
  const int n = (props.max_shared_per_block_optin > 100 * 1024 ? 100 * 1024 : 40 * 1024) / 4;
  std::vector<int> in(n), out(n);
  for (int i = 0; i < n; ++i) in[i] = i * 7;
  DeviceBuffer din(allocator, n * 4), dout(allocator, n * 4);
  upload(din.get(), in);
  Kernel kernel = module.kernel(compiled.symbol("smem_reverse"));
  CUdeviceptr pin = din.get(), pout = dout.get();
  int count = n;
  LaunchConfig config;
  config.block.x = 512;
  config.shared_bytes = static_cast<unsigned>(n * 4);
  launch(kernel, config, {&pin, &pout, &count});
  download(out, dout.get());
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += out[i] != in[n - 1 - i];
  check(wrong == 0, std::to_string(n * 4 / 1024) + " KB of dynamic shared memory");
}

void test_copy_bandwidth(Module& module, const CompiledKernel& compiled, CachingDeviceAllocator& allocator,
                         const DeviceProperties& props) {
  const size_t bytes = size_t{1} << 30;
  DeviceBuffer src(allocator, bytes), dst(allocator, bytes);
  SEAM_CU(memset_d8, src.get(), 0x5a, bytes);
  SEAM_CU(memset_d8, dst.get(), 0, bytes);
  Kernel kernel = module.kernel(compiled.symbol("copy16"));
  CUdeviceptr psrc = src.get(), pdst = dst.get();
  size_t n = bytes / 16;
  LaunchConfig config;
  config.block.x = 512;
  config.grid.x = static_cast<unsigned>(props.sm_count * 8);
  Stream stream;
  config.stream = stream.get();
  Timing kernel_time = time_launches(
      [&](CUstream) {
        launch(kernel, config, {&psrc, &pdst, &n});
      },
      stream.get(), 20, 3);
  Timing driver_time = time_launches(
      [&](CUstream s) { SEAM_CU(memcpy_dtod_async, dst.get(), src.get(), bytes, s); }, stream.get(), 20, 3);
  std::vector<unsigned char> probe(4096);
  SEAM_CU(memcpy_dtoh, probe.data(), dst.get() + bytes - probe.size(), probe.size());
  bool copied = true;
  for (unsigned char b : probe) copied = copied && b == 0x5a;
  check(copied, "1 GiB copy reached the end of the buffer");
  auto gbps = [&](const Timing& t) { return 2.0 * static_cast<double>(bytes) / (t.median_ms * 1e-3) / 1e9; };
  std::printf("      copy kernel   : median %.3f ms (min %.3f, max %.3f) -> %.0f GB/s read+write\n",
              kernel_time.median_ms, kernel_time.min_ms, kernel_time.max_ms, gbps(kernel_time));
  std::printf("      cuMemcpyDtoD  : median %.3f ms -> %.0f GB/s read+write\n", driver_time.median_ms,
              gbps(driver_time));
  if (props.peak_memory_bandwidth_bytes_per_s() > 0) {
    std::printf("      theoretical   : %.0f GB/s (memory clock x bus width)\n",
                props.peak_memory_bandwidth_bytes_per_s() / 1e9);
  }
  check(gbps(kernel_time) > 100.0, "copy kernel bandwidth is plausible (> 100 GB/s)");
}

void test_allocator_with_driver() {
  CachingDeviceAllocator allocator(cuda_driver_backend());
  size_t free_before = 0, total = 0;
  SEAM_CU(mem_get_info, &free_before, &total);
  DevicePtr a = allocator.allocate(1000);
  DevicePtr b = allocator.allocate(64 * 1024 * 1024);
  check(a % 256 == 0 && b % 256 == 0, "driver blocks are 256-byte aligned");
  SEAM_CU(memset_d8, b, 1, 64 * 1024 * 1024);  // the memory is real and writable
  allocator.free(a);
  allocator.free(b);
  DevicePtr a2 = allocator.allocate(900);
  DevicePtr b2 = allocator.allocate(63 * 1024 * 1024);
  check(a2 == a && b2 == b, "freed blocks are reused");
  allocator.free(a2);
  allocator.free(b2);
  allocator.release_all();
  AllocatorStats stats = allocator.stats();
  check(stats.reserved_bytes == 0 && stats.backend_frees == 2,
        "release_all returns the blocks to the driver");
  size_t free_after = 0;
  SEAM_CU(mem_get_info, &free_after, &total);
  check(free_after + 8 * 1024 * 1024 >= free_before, "device memory is back after release_all");
  try {
    allocator.allocate(total * 2);
    check(false, "allocating twice the device memory throws");
  } catch (const Error& e) {
    check(std::string(e.what()).find("out of device memory") != std::string::npos,
          std::string("out of memory is a clear error: ") + e.what());
  }
}

int run() {
  const DriverStatus& status = driver_status();
  if (!status.available) {
    std::printf("seam_gpu_smoke: no GPU, skipped: %s\n", status.reason.c_str());
    return 77;
  }
  if (!nvrtc_available()) {
    std::printf("seam_gpu_smoke: seam was built without NVRTC, skipped\n");
    return 77;
  }
  Device& device = Device::shared();
  device.make_current();
  const DeviceProperties& p = device.properties();
  std::printf(
      "driver %d, %d device(s); device %d: %s, %s, %d SMs, L2 %d KB, %.1f GiB, smem/block %d KB "
      "(opt-in %d KB), NVRTC %s\n",
      status.version, status.device_count, p.ordinal, p.name.c_str(), p.arch_string().c_str(), p.sm_count,
      p.l2_cache_bytes / 1024, static_cast<double>(p.total_memory_bytes) / (1 << 30),
      p.max_shared_per_block / 1024, p.max_shared_per_block_optin / 1024, nvrtc_version().c_str());

  CompileRequest request;
  request.source = kSource;
  request.program_name = "gpu_smoke.cu";
  request.kernel_names = {"vadd", "bf16_axpy", "copy16", "smem_reverse", "scaled<int, 3>"};
  request.arch = device.arch_string();
  BinaryCache cache;  // memory only: the second compile must be a hit
  bool hit = true;
  CompiledKernel compiled = compile_cuda_cached(request, cache, &hit);
  check(!hit && compiled.is_cubin, "NVRTC compiled " + std::to_string(compiled.binary.size()) + " bytes of " +
                                       compiled.arch + " cubin in " + std::to_string(compiled.compile_ms) +
                                       " ms");
  compile_cuda_cached(request, cache, &hit);
  check(hit, "second compile is a cache hit");

  Module module = Module::load(compiled.binary);
  CachingDeviceAllocator allocator(cuda_driver_backend());
  test_vector_add(module, compiled, allocator);
  test_bf16(module, compiled, allocator);
  test_template(module, compiled, allocator);
  test_large_shared_memory(module, compiled, allocator, p);
  test_copy_bandwidth(module, compiled, allocator, p);
  allocator.release_all();
  test_allocator_with_driver();

  // PTX for the same arch, JIT-compiled by the driver at load time.
  request.arch = "compute_" + std::to_string(p.compute_major) + std::to_string(p.compute_minor);
  request.kernel_names = {"vadd"};
  CompiledKernel ptx = compile_cuda(request);
  Module ptx_module = Module::load(ptx.binary);
  test_vector_add(ptx_module, ptx, allocator);

  std::printf("%s: %d check(s) failed\n", failures == 0 ? "seam_gpu_smoke OK" : "seam_gpu_smoke FAILED",
              failures);
  return failures == 0 ? 0 : 1;
}

}  // namespace
}  // namespace seam

int main() {
  try {
    return seam::run();
  } catch (const std::exception& e) {
    std::printf("FAIL  %s\nseam_gpu_smoke FAILED\n", e.what());
    return 1;
  }
}
