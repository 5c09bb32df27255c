// CUDA driver API types. With the toolkit, cuda.h and cudaTypedefs.h give the types, enums and the
// versioned function-pointer types (PFN_cuMemAlloc_v3020, ...); seam never calls a function declared there,
// it calls through pointers resolved at run time (runtime/cuda_driver.h), so nothing links libcuda.
// Without the toolkit a minimal stand-in keeps the runtime compiling; the driver then reports itself
// unavailable and is never loaded.
#pragma once

#if SEAM_HAVE_CUDA_HEADERS

#include <cuda.h>
#include <cudaTypedefs.h>

#else

#include <cstddef>
#include <cstdint>

#define CUDAAPI

using cuuint64_t = uint64_t;
using CUdevice_v1 = int;
using CUdevice = CUdevice_v1;
using CUdeviceptr_v2 = unsigned long long;
using CUdeviceptr = CUdeviceptr_v2;
using CUcontext = struct CUctx_st*;
using CUmodule = struct CUmod_st*;
using CUfunction = struct CUfunc_st*;
using CUstream = struct CUstream_st*;
using CUevent = struct CUevent_st*;

enum CUresult {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NO_DEVICE = 100,
  CUDA_ERROR_NOT_READY = 600,
};
enum CUdevice_attribute {
  CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8,
  CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10,
  CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13,
  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36,
  CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 37,
  CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR = 81,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
};
enum CUfunction_attribute { CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8 };
enum CUdriverProcAddressQueryResult { CU_GET_PROC_ADDRESS_SUCCESS = 0 };
enum { CU_GET_PROC_ADDRESS_LEGACY_STREAM = 1 };
enum { CU_STREAM_DEFAULT = 0, CU_STREAM_NON_BLOCKING = 1 };
enum { CU_EVENT_DEFAULT = 0, CU_EVENT_DISABLE_TIMING = 2 };
enum CUstreamCaptureStatus { CU_STREAM_CAPTURE_STATUS_NONE = 0, CU_STREAM_CAPTURE_STATUS_ACTIVE = 1 };

// The function-pointer types seam uses, as cudaTypedefs.h spells them.
typedef CUresult(CUDAAPI* PFN_cuGetProcAddress_v12000)(const char*, void**, int, cuuint64_t,
                                                       CUdriverProcAddressQueryResult*);
typedef CUresult(CUDAAPI* PFN_cuGetProcAddress_v11030)(const char*, void**, int, cuuint64_t);
typedef CUresult(CUDAAPI* PFN_cuInit_v2000)(unsigned int);
typedef CUresult(CUDAAPI* PFN_cuDriverGetVersion_v2020)(int*);
typedef CUresult(CUDAAPI* PFN_cuGetErrorName_v6000)(CUresult, const char**);
typedef CUresult(CUDAAPI* PFN_cuGetErrorString_v6000)(CUresult, const char**);
typedef CUresult(CUDAAPI* PFN_cuDeviceGet_v2000)(CUdevice_v1*, int);
typedef CUresult(CUDAAPI* PFN_cuDeviceGetCount_v2000)(int*);
typedef CUresult(CUDAAPI* PFN_cuDeviceGetName_v2000)(char*, int, CUdevice_v1);
typedef CUresult(CUDAAPI* PFN_cuDeviceGetAttribute_v2000)(int*, CUdevice_attribute, CUdevice_v1);
typedef CUresult(CUDAAPI* PFN_cuDeviceTotalMem_v3020)(size_t*, CUdevice_v1);
typedef CUresult(CUDAAPI* PFN_cuDevicePrimaryCtxRetain_v7000)(CUcontext*, CUdevice_v1);
typedef CUresult(CUDAAPI* PFN_cuDevicePrimaryCtxRelease_v11000)(CUdevice_v1);
typedef CUresult(CUDAAPI* PFN_cuCtxSetCurrent_v4000)(CUcontext);
typedef CUresult(CUDAAPI* PFN_cuCtxGetCurrent_v4000)(CUcontext*);
typedef CUresult(CUDAAPI* PFN_cuCtxSynchronize_v2000)(void);
typedef CUresult(CUDAAPI* PFN_cuMemGetInfo_v3020)(size_t*, size_t*);
typedef CUresult(CUDAAPI* PFN_cuModuleLoadData_v2000)(CUmodule*, const void*);
typedef CUresult(CUDAAPI* PFN_cuModuleUnload_v2000)(CUmodule);
typedef CUresult(CUDAAPI* PFN_cuModuleGetFunction_v2000)(CUfunction*, CUmodule, const char*);
typedef CUresult(CUDAAPI* PFN_cuFuncSetAttribute_v9000)(CUfunction, CUfunction_attribute, int);
typedef CUresult(CUDAAPI* PFN_cuFuncGetAttribute_v2020)(int*, CUfunction_attribute, CUfunction);
typedef CUresult(CUDAAPI* PFN_cuLaunchKernel_v4000)(CUfunction, unsigned int, unsigned int, unsigned int,
                                                    unsigned int, unsigned int, unsigned int, unsigned int,
                                                    CUstream, void**, void**);
typedef CUresult(CUDAAPI* PFN_cuMemAlloc_v3020)(CUdeviceptr_v2*, size_t);
typedef CUresult(CUDAAPI* PFN_cuMemFree_v3020)(CUdeviceptr_v2);
typedef CUresult(CUDAAPI* PFN_cuMemsetD8_v3020)(CUdeviceptr_v2, unsigned char, size_t);
typedef CUresult(CUDAAPI* PFN_cuMemsetD8Async_v3020)(CUdeviceptr_v2, unsigned char, size_t, CUstream);
typedef CUresult(CUDAAPI* PFN_cuMemcpyHtoD_v3020)(CUdeviceptr_v2, const void*, size_t);
typedef CUresult(CUDAAPI* PFN_cuMemcpyDtoH_v3020)(void*, CUdeviceptr_v2, size_t);
typedef CUresult(CUDAAPI* PFN_cuMemcpyDtoD_v3020)(CUdeviceptr_v2, CUdeviceptr_v2, size_t);
typedef CUresult(CUDAAPI* PFN_cuMemcpyHtoDAsync_v3020)(CUdeviceptr_v2, const void*, size_t, CUstream);
typedef CUresult(CUDAAPI* PFN_cuMemcpyDtoHAsync_v3020)(void*, CUdeviceptr_v2, size_t, CUstream);
typedef CUresult(CUDAAPI* PFN_cuMemcpyDtoDAsync_v3020)(CUdeviceptr_v2, CUdeviceptr_v2, size_t, CUstream);
typedef CUresult(CUDAAPI* PFN_cuStreamCreate_v2000)(CUstream*, unsigned int);
typedef CUresult(CUDAAPI* PFN_cuStreamDestroy_v4000)(CUstream);
typedef CUresult(CUDAAPI* PFN_cuStreamSynchronize_v2000)(CUstream);
typedef CUresult(CUDAAPI* PFN_cuStreamIsCapturing_v10000)(CUstream, CUstreamCaptureStatus*);
typedef CUresult(CUDAAPI* PFN_cuEventCreate_v2000)(CUevent*, unsigned int);
typedef CUresult(CUDAAPI* PFN_cuEventDestroy_v4000)(CUevent);
typedef CUresult(CUDAAPI* PFN_cuEventRecord_v2000)(CUevent, CUstream);
typedef CUresult(CUDAAPI* PFN_cuEventSynchronize_v2000)(CUevent);
typedef CUresult(CUDAAPI* PFN_cuEventQuery_v2000)(CUevent);
typedef CUresult(CUDAAPI* PFN_cuEventElapsedTime_v2000)(float*, CUevent, CUevent);

#endif  // SEAM_HAVE_CUDA_HEADERS
