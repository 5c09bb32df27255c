// The CUDA driver, loaded at run time. seam links no libcuda: the first use dlopens libcuda.so.1 and
// resolves each entry point through cuGetProcAddress at a pinned ABI version, so binaries start (and report
// "no CUDA driver") on machines without a GPU. Why not dlsym("cuMemAlloc"): cuda.h renames many functions
// with macros (cuMemAlloc -> cuMemAlloc_v2); the plain exported name is the legacy 32-bit ABI and fails
// silently. Every call goes through SEAM_CU, which throws seam::Error naming the call and the error.
#pragma once

#include <memory>
#include <string>

#include "runtime/cuda_api.h"

namespace seam {

// Each entry: member name, driver API name, ABI version, pointer type (cudaTypedefs.h), and the exported
// symbol with that ABI (used by dlsym where the driver predates cuGetProcAddress).
#define SEAM_CUDA_DRIVER_FUNCTIONS(X)                                                                       \
  X(init, "cuInit", 2000, PFN_cuInit_v2000, "cuInit")                                                       \
  X(driver_get_version, "cuDriverGetVersion", 2020, PFN_cuDriverGetVersion_v2020, "cuDriverGetVersion")     \
  X(get_error_name, "cuGetErrorName", 6000, PFN_cuGetErrorName_v6000, "cuGetErrorName")                     \
  X(get_error_string, "cuGetErrorString", 6000, PFN_cuGetErrorString_v6000, "cuGetErrorString")             \
  X(device_get, "cuDeviceGet", 2000, PFN_cuDeviceGet_v2000, "cuDeviceGet")                                  \
  X(device_get_count, "cuDeviceGetCount", 2000, PFN_cuDeviceGetCount_v2000, "cuDeviceGetCount")             \
  X(device_get_name, "cuDeviceGetName", 2000, PFN_cuDeviceGetName_v2000, "cuDeviceGetName")                 \
  X(device_get_attribute, "cuDeviceGetAttribute", 2000, PFN_cuDeviceGetAttribute_v2000,                     \
    "cuDeviceGetAttribute")                                                                                 \
  X(device_total_mem, "cuDeviceTotalMem", 3020, PFN_cuDeviceTotalMem_v3020, "cuDeviceTotalMem_v2")          \
  X(primary_ctx_retain, "cuDevicePrimaryCtxRetain", 7000, PFN_cuDevicePrimaryCtxRetain_v7000,               \
    "cuDevicePrimaryCtxRetain")                                                                             \
  X(primary_ctx_release, "cuDevicePrimaryCtxRelease", 11000, PFN_cuDevicePrimaryCtxRelease_v11000,          \
    "cuDevicePrimaryCtxRelease_v2")                                                                         \
  X(ctx_set_current, "cuCtxSetCurrent", 4000, PFN_cuCtxSetCurrent_v4000, "cuCtxSetCurrent")                 \
  X(ctx_get_current, "cuCtxGetCurrent", 4000, PFN_cuCtxGetCurrent_v4000, "cuCtxGetCurrent")                 \
  X(ctx_synchronize, "cuCtxSynchronize", 2000, PFN_cuCtxSynchronize_v2000, "cuCtxSynchronize")              \
  X(mem_get_info, "cuMemGetInfo", 3020, PFN_cuMemGetInfo_v3020, "cuMemGetInfo_v2")                          \
  X(module_load_data, "cuModuleLoadData", 2000, PFN_cuModuleLoadData_v2000, "cuModuleLoadData")             \
  X(module_unload, "cuModuleUnload", 2000, PFN_cuModuleUnload_v2000, "cuModuleUnload")                      \
  X(module_get_function, "cuModuleGetFunction", 2000, PFN_cuModuleGetFunction_v2000, "cuModuleGetFunction") \
  X(func_set_attribute, "cuFuncSetAttribute", 9000, PFN_cuFuncSetAttribute_v9000, "cuFuncSetAttribute")     \
  X(func_get_attribute, "cuFuncGetAttribute", 2020, PFN_cuFuncGetAttribute_v2020, "cuFuncGetAttribute")     \
  X(launch_kernel, "cuLaunchKernel", 4000, PFN_cuLaunchKernel_v4000, "cuLaunchKernel")                      \
  X(mem_alloc, "cuMemAlloc", 3020, PFN_cuMemAlloc_v3020, "cuMemAlloc_v2")                                   \
  X(mem_free, "cuMemFree", 3020, PFN_cuMemFree_v3020, "cuMemFree_v2")                                       \
  X(memset_d8, "cuMemsetD8", 3020, PFN_cuMemsetD8_v3020, "cuMemsetD8_v2")                                   \
  X(memset_d8_async, "cuMemsetD8Async", 3020, PFN_cuMemsetD8Async_v3020, "cuMemsetD8Async")                 \
  X(memcpy_htod, "cuMemcpyHtoD", 3020, PFN_cuMemcpyHtoD_v3020, "cuMemcpyHtoD_v2")                           \
  X(memcpy_dtoh, "cuMemcpyDtoH", 3020, PFN_cuMemcpyDtoH_v3020, "cuMemcpyDtoH_v2")                           \
  X(memcpy_dtod, "cuMemcpyDtoD", 3020, PFN_cuMemcpyDtoD_v3020, "cuMemcpyDtoD_v2")                           \
  X(memcpy_htod_async, "cuMemcpyHtoDAsync", 3020, PFN_cuMemcpyHtoDAsync_v3020, "cuMemcpyHtoDAsync_v2")      \
  X(memcpy_dtoh_async, "cuMemcpyDtoHAsync", 3020, PFN_cuMemcpyDtoHAsync_v3020, "cuMemcpyDtoHAsync_v2")      \
  X(memcpy_dtod_async, "cuMemcpyDtoDAsync", 3020, PFN_cuMemcpyDtoDAsync_v3020, "cuMemcpyDtoDAsync_v2")      \
  X(stream_create, "cuStreamCreate", 2000, PFN_cuStreamCreate_v2000, "cuStreamCreate")                      \
  X(stream_destroy, "cuStreamDestroy", 4000, PFN_cuStreamDestroy_v4000, "cuStreamDestroy_v2")               \
  X(stream_synchronize, "cuStreamSynchronize", 2000, PFN_cuStreamSynchronize_v2000, "cuStreamSynchronize")  \
  X(stream_is_capturing, "cuStreamIsCapturing", 10000, PFN_cuStreamIsCapturing_v10000,                      \
    "cuStreamIsCapturing")                                                                                  \
  X(event_create, "cuEventCreate", 2000, PFN_cuEventCreate_v2000, "cuEventCreate")                          \
  X(event_destroy, "cuEventDestroy", 4000, PFN_cuEventDestroy_v4000, "cuEventDestroy_v2")                   \
  X(event_record, "cuEventRecord", 2000, PFN_cuEventRecord_v2000, "cuEventRecord")                          \
  X(event_synchronize, "cuEventSynchronize", 2000, PFN_cuEventSynchronize_v2000, "cuEventSynchronize")      \
  X(event_query, "cuEventQuery", 2000, PFN_cuEventQuery_v2000, "cuEventQuery")                              \
  X(event_elapsed_time, "cuEventElapsedTime", 2000, PFN_cuEventElapsedTime_v2000, "cuEventElapsedTime")     \
  X(pointer_get_attribute, "cuPointerGetAttribute", 4000, PFN_cuPointerGetAttribute_v4000,                  \
    "cuPointerGetAttribute")

// Function pointers into the loaded driver, all non-null once loaded.
struct Driver {
#define SEAM_DRIVER_MEMBER(member, name, abi, type, symbol) \
  type member = nullptr;                                    \
  static constexpr const char* api_name_##member = name;
  SEAM_CUDA_DRIVER_FUNCTIONS(SEAM_DRIVER_MEMBER)
#undef SEAM_DRIVER_MEMBER

  int version = 0;       // cuDriverGetVersion: 13000 for CUDA 13.0
  int device_count = 0;  // devices visible after cuInit
};

struct DriverStatus {
  bool available = false;
  std::string reason;  // why not, when unavailable: "no CUDA driver: libcuda.so.1 not found (dlopen: ...)"
  int version = 0;     // driver API version when available
  int device_count = 0;
};

// The process-wide driver: loaded and initialized once (cuInit) at first use; thread-safe.
const DriverStatus& driver_status();
// The loaded driver; throws seam::Error with driver_status().reason when unavailable.
const Driver& driver();

// Loads a driver library by name without touching the process-wide one: the status says why it failed.
// Used by driver_status() with "libcuda.so.1", and by tests with libraries that are not a driver.
struct DriverLoad {
  DriverStatus status;
  std::unique_ptr<Driver> driver;  // set when status.available
};
DriverLoad load_driver(const std::string& library);

// "CUDA_ERROR_OUT_OF_MEMORY (out of memory)", or the number when the driver cannot name it.
std::string cuda_error_text(CUresult result);

// Throws seam::Error "<api> failed: <error text>[ (context)]" unless result is CUDA_SUCCESS.
void check_cuda(CUresult result, const char* api, const std::string& context = "");

}  // namespace seam

// Calls a driver entry point and checks its result: SEAM_CU(mem_alloc, &ptr, bytes) calls cuMemAlloc and
// throws "cuMemAlloc failed: CUDA_ERROR_OUT_OF_MEMORY (out of memory)".
#define SEAM_CU(member, ...) \
  ::seam::check_cuda(::seam::driver().member(__VA_ARGS__), ::seam::Driver::api_name_##member)
