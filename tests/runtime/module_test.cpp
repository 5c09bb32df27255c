// Loading and launching need a GPU: these tests skip without one. median() runs everywhere.
#include "runtime/module.h"

#include <gtest/gtest.h>

#include "runtime/cuda_driver.h"
#include "runtime/device.h"
#include "runtime/device_allocator.h"
#include "runtime/event_timer.h"
#include "runtime/nvrtc_compiler.h"
#include "support/error.h"
#include "test_kernels.h"

namespace seam {
namespace {

#define SKIP_WITHOUT_GPU()                                                              \
  if (!driver_status().available) GTEST_SKIP() << "no GPU: " << driver_status().reason; \
  if (!nvrtc_available()) GTEST_SKIP() << "seam was built without NVRTC";

TEST(EventTimer, Median) {
  EXPECT_EQ(median({3.0}), 3.0);
  EXPECT_EQ(median({5.0, 1.0, 3.0}), 3.0);
  EXPECT_EQ(median({4.0, 1.0, 3.0, 2.0}), 2.5);
  EXPECT_THROW(median({}), InternalError);
}

TEST(Module, VectorAddRunsOnTheGpu) {
  SKIP_WITHOUT_GPU();
  Device& device = Device::shared();
  device.make_current();
  CompileRequest request;
  request.source = test_kernels::kVectorAdd;
  request.kernel_names = {"vadd"};
  request.arch = device.arch_string();
  CompiledKernel compiled = compile_cuda(request);
  Module module = Module::load(compiled.binary);
  Kernel kernel = module.kernel(compiled.symbol("vadd"));

  const int n = 1000;
  std::vector<float> a(n), b(n), c(n, -1.0f);
  for (int i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = 0.5f * static_cast<float>(i);
  }
  CachingDeviceAllocator allocator(cuda_driver_backend());
  DeviceBuffer da(allocator, n * sizeof(float)), db(allocator, n * sizeof(float)),
      dc(allocator, n * sizeof(float));
  SEAM_CU(memcpy_htod, da.get(), a.data(), n * sizeof(float));
  SEAM_CU(memcpy_htod, db.get(), b.data(), n * sizeof(float));
  CUdeviceptr pa = da.get(), pb = db.get(), pc = dc.get();
  int count = n;
  LaunchConfig config;
  config.grid.x = (n + 255) / 256;
  config.block.x = 256;
  launch(kernel, config, {&pa, &pb, &pc, &count});
  SEAM_CU(memcpy_dtoh, c.data(), dc.get(), n * sizeof(float));
  for (int i = 0; i < n; ++i) ASSERT_EQ(c[i], 1.5f * static_cast<float>(i)) << i;
}

TEST(Module, BadImageAndMissingKernelAreErrors) {
  SKIP_WITHOUT_GPU();
  Device::shared().make_current();
  try {
    Module::load("this is not a cubin");
    FAIL() << "loading garbage should fail";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cuModuleLoadData failed"), std::string::npos) << e.what();
  }
  CompileRequest request;
  request.source = test_kernels::kVectorAdd;
  request.kernel_names = {"vadd"};
  request.arch = Device::shared().arch_string();
  Module module = Module::load(compile_cuda(request).binary);
  try {
    module.kernel("not_there");
    FAIL() << "a missing kernel should fail";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cuModuleGetFunction failed"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("not_there"), std::string::npos) << e.what();
  }
  Kernel kernel = module.kernel("vadd");
  LaunchConfig empty;
  empty.grid.x = 0;
  EXPECT_THROW(launch(kernel, empty, {}), Error);
}

}  // namespace
}  // namespace seam
