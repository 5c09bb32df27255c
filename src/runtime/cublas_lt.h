// cuBLASLt, loaded at run time like the driver: matrix products on the GPU go through NVIDIA's library
// (a vendor library does them at its peak; docs/RUNTIME.md) instead of generated code. seam declares the few
// types and entry points it uses (the library's C ABI is stable across releases), so building needs no cuBLAS
// headers and binaries start on machines without it; the first use dlopens libcublasLt (SEAM_CUBLASLT_LIBRARY
// names another file) and a missing library is a clear error naming what was tried.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "runtime/cuda_api.h"

namespace seam::cublaslt {

using Status = int;  // cublasStatus_t: 0 is success
using Handle = struct cublasLtContext*;
using MatmulDesc = struct cublasLtMatmulDescOpaque_t*;
using MatrixLayout = struct cublasLtMatrixLayoutOpaque_t*;
using Preference = struct cublasLtMatmulPreferenceOpaque_t*;

struct Algo {  // cublasLtMatmulAlgo_t
  uint64_t data[8];
};
struct HeuristicResult {  // cublasLtMatmulHeuristicResult_t
  Algo algo;
  size_t workspace_size;
  Status state;
  float waves_count;
  int reserved[4];
};

// Enumerators of cublasLt.h, library_types.h and cublas_api.h (C enums: passed as int).
enum ComputeType : int { kComputeF32 = 68, kComputeF64 = 70 };
enum DataType : int { kDataF32 = 0, kDataF64 = 1, kDataF16 = 2, kDataBF16 = 14 };
enum Operation : int32_t { kOpN = 0, kOpT = 1 };
enum MatmulDescAttribute : int { kDescTransA = 3, kDescTransB = 4, kDescEpilogue = 7, kDescBiasPointer = 8 };
enum Epilogue : uint32_t { kEpilogueDefault = 1, kEpilogueBias = 4 };
enum AlgoConfigAttribute : int {
  kConfigId = 0,
  kConfigTileId = 1,
  kConfigSplitK = 2,
  kConfigReductionScheme = 3
};
// Split-K reductions: in the compute type (float) only; the others round partial sums to the output type.
enum ReductionScheme : uint32_t { kReductionComputeType = 2 };
enum LayoutAttribute : int { kLayoutBatchCount = 5, kLayoutStridedBatchOffset = 6 };
enum PreferenceAttribute : int {
  kPrefMaxWorkspaceBytes = 1,
  kPrefReductionSchemeMask = 3,
  kPrefMinAlignmentA = 5,
  kPrefMinAlignmentB = 6,
  kPrefMinAlignmentC = 7,
  kPrefMinAlignmentD = 8,
};

struct Library {
  std::string path;
  size_t version = 0;
  Status (*create)(Handle*) = nullptr;
  Status (*destroy)(Handle) = nullptr;
  const char* (*status_string)(Status) = nullptr;
  size_t (*get_version)() = nullptr;
  Status (*matmul_desc_create)(MatmulDesc*, int compute, int scale_type) = nullptr;
  Status (*matmul_desc_destroy)(MatmulDesc) = nullptr;
  Status (*matmul_desc_set)(MatmulDesc, int attribute, const void* value, size_t bytes) = nullptr;
  Status (*layout_create)(MatrixLayout*, int type, uint64_t rows, uint64_t cols, int64_t ld) = nullptr;
  Status (*layout_destroy)(MatrixLayout) = nullptr;
  Status (*layout_set)(MatrixLayout, int attribute, const void* value, size_t bytes) = nullptr;
  Status (*preference_create)(Preference*) = nullptr;
  Status (*preference_destroy)(Preference) = nullptr;
  Status (*preference_set)(Preference, int attribute, const void* value, size_t bytes) = nullptr;
  Status (*heuristic)(Handle, MatmulDesc, MatrixLayout a, MatrixLayout b, MatrixLayout c, MatrixLayout d,
                      Preference, int requested, HeuristicResult* results, int* returned) = nullptr;
  Status (*algo_config_get)(const Algo*, int attribute, void* value, size_t bytes, size_t* written) = nullptr;
  Status (*matmul)(Handle, MatmulDesc, const void* alpha, const void* a, MatrixLayout, const void* b,
                   MatrixLayout, const void* beta, const void* c, MatrixLayout, void* d, MatrixLayout,
                   const Algo*, void* workspace, size_t workspace_bytes, CUstream) = nullptr;
};

// The library, loaded on first use (thread-safe); throws seam::Error saying why it cannot be used.
const Library& library();

// The process's handle, created on first use; the caller makes the device's context current first.
Handle handle();

// Throws seam::Error naming the call, the status and `what` unless `status` is success.
void check(Status status, const char* call, const std::string& what);

}  // namespace seam::cublaslt
