// The driver loads where there is one and explains itself where there is none (this CI machine).
#include "runtime/cuda_driver.h"

#include <gtest/gtest.h>

#include "runtime/device.h"
#include "runtime/runtime_env.h"
#include "support/error.h"
#include "test_env.h"

namespace seam {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(CudaDriver, StatusIsAvailableWithADeviceOrUnavailableWithAReason) {
  const DriverStatus& status = driver_status();
  if (status.available) {
    // A GPU machine: a device must be found and described.
    EXPECT_GT(status.device_count, 0);
    EXPECT_GE(status.version, 11030);
    EXPECT_TRUE(status.reason.empty());
    Device& device = Device::shared(0);
    const DeviceProperties& p = device.properties();
    EXPECT_FALSE(p.name.empty());
    EXPECT_GT(p.compute_major, 0);
    EXPECT_GT(p.sm_count, 0);
    EXPECT_GT(p.total_memory_bytes, 0u);
    EXPECT_GE(p.max_shared_per_block_optin, p.max_shared_per_block);
    EXPECT_EQ(device.arch_string(),
              "sm_" + std::to_string(p.compute_major) + std::to_string(p.compute_minor));
    EXPECT_NO_THROW(device.make_current());
  } else {
    // No GPU: a clear reason, and every use throws seam::Error with it rather than crashing.
    EXPECT_TRUE(contains(status.reason, "no CUDA driver") || contains(status.reason, "cuInit failed") ||
                contains(status.reason, "no CUDA device") || contains(status.reason, "no usable CUDA driver"))
        << status.reason;
    try {
      driver();
      FAIL() << "driver() should throw without a driver";
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()), status.reason);
    }
    EXPECT_THROW({ Device device(0); }, Error);
    EXPECT_THROW(query_device_properties(0), Error);
  }
}

TEST(CudaDriver, MissingLibraryIsReportedWithTheDlopenError) {
  DriverLoad load = load_driver("libseam_no_such_driver.so.1");
  EXPECT_FALSE(load.status.available);
  EXPECT_EQ(load.driver, nullptr);
#if SEAM_HAVE_CUDA_HEADERS
  EXPECT_TRUE(contains(load.status.reason, "no CUDA driver: libseam_no_such_driver.so.1 not found (dlopen: "))
      << load.status.reason;
#else
  EXPECT_TRUE(contains(load.status.reason, "built without the CUDA toolkit")) << load.status.reason;
#endif
}

#if SEAM_HAVE_CUDA_HEADERS
TEST(CudaDriver, LibraryWithoutDriverEntryPointsIsRejected) {
  DriverLoad load = load_driver("libm.so.6");
  EXPECT_FALSE(load.status.available);
  EXPECT_TRUE(contains(load.status.reason, "no usable CUDA driver in libm.so.6: entry point cuInit"))
      << load.status.reason;
}
#endif

TEST(CudaDriver, CheckCudaNamesTheCallAndTheError) {
  EXPECT_NO_THROW(check_cuda(CUDA_SUCCESS, "cuMemAlloc"));
  try {
    check_cuda(CUDA_ERROR_OUT_OF_MEMORY, "cuMemAlloc", "1024 bytes");
    FAIL() << "check_cuda should throw";
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_TRUE(contains(message, "cuMemAlloc failed: ")) << message;
    EXPECT_TRUE(contains(message, "(1024 bytes)")) << message;
    if (driver_status().available) {
      EXPECT_TRUE(contains(message, "CUDA_ERROR_OUT_OF_MEMORY")) << message;
    } else {
      EXPECT_TRUE(contains(message, "CUDA error 2")) << message;
    }
  }
}

TEST(CudaDriver, ApiNamesAreThePlainDriverNames) {
  EXPECT_STREQ(Driver::api_name_mem_alloc, "cuMemAlloc");
  EXPECT_STREQ(Driver::api_name_launch_kernel, "cuLaunchKernel");
}

TEST(RuntimeEnv, FlagsAndStrings) {
  {
    ScopedEnv env("SEAM_TEST_FLAG", std::nullopt);
    EXPECT_FALSE(env_flag("SEAM_TEST_FLAG"));
    EXPECT_FALSE(env_string("SEAM_TEST_FLAG"));
  }
  for (const char* yes : {"1", "true", "YES", "On"}) {
    ScopedEnv env("SEAM_TEST_FLAG", yes);
    EXPECT_TRUE(env_flag("SEAM_TEST_FLAG")) << yes;
  }
  for (const char* no : {"0", "false", "no", "OFF", ""}) {
    ScopedEnv env("SEAM_TEST_FLAG", no);
    EXPECT_FALSE(env_flag("SEAM_TEST_FLAG")) << no;
  }
  ScopedEnv env("SEAM_TEST_FLAG", "maybe");
  try {
    env_flag("SEAM_TEST_FLAG");
    FAIL() << "a bad flag should throw";
  } catch (const Error& e) {
    EXPECT_TRUE(contains(e.what(), "SEAM_TEST_FLAG='maybe'")) << e.what();
  }
}

TEST(Device, DefaultOrdinalComesFromSeamDevice) {
  {
    ScopedEnv env("SEAM_DEVICE", std::nullopt);
    EXPECT_EQ(Device::default_ordinal(), 0);
  }
  {
    ScopedEnv env("SEAM_DEVICE", "3");
    EXPECT_EQ(Device::default_ordinal(), 3);
  }
  for (const char* bad : {"-1", "gpu0", "1x"}) {
    ScopedEnv env("SEAM_DEVICE", bad);
    EXPECT_THROW(Device::default_ordinal(), Error) << bad;
  }
}

TEST(Device, ArchStringAndBandwidthFromProperties) {
  DeviceProperties p;
  p.compute_major = 9;
  p.compute_minor = 0;
  EXPECT_EQ(p.arch_string(), "sm_90");
  EXPECT_EQ(p.peak_memory_bandwidth_bytes_per_s(), 0.0);  // unknown clock
  p.memory_clock_khz = 2619000;                           // H200 HBM3e
  p.memory_bus_width_bits = 6144;
  EXPECT_NEAR(p.peak_memory_bandwidth_bytes_per_s(), 4.02e12, 0.01e12);
}

}  // namespace
}  // namespace seam
