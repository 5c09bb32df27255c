// A matrix product step on the GPU: a MatmulPlan as cuBLASLt descriptors and an algorithm, chosen once
// (shapes are static per executable), then one library call per GEMM call of the plan on each run.
// Accumulation is in float for half, bfloat16 and float operands (no TF32) and in double for double;
// a linear's bias is added in the library's epilogue before the single rounding to the output dtype.
#pragma once

#include <cstddef>
#include <mutex>
#include <vector>

#include "plan/matmul_plan.h"
#include "runtime/cublas_lt.h"
#include "runtime/device_allocator.h"

namespace seam {

class CublasMatmul {
 public:
  // `input_alignment` bytes: what every kernel input's address is known to be aligned to (the plan's
  // alignment class); outputs come from the caching allocator (256). Queries the library's heuristic;
  // throws seam::Error (naming `step_name`) when cuBLASLt is missing or has no algorithm for the plan.
  CublasMatmul(MatmulPlan plan, int input_alignment, std::string step_name);
  ~CublasMatmul();
  CublasMatmul(const CublasMatmul&) = delete;
  CublasMatmul& operator=(const CublasMatmul&) = delete;

  const MatmulPlan& plan() const { return plan_; }
  // Scratch memory (bytes) enqueue needs: the algorithm's workspace and room to align a bias.
  size_t workspace_bytes() const { return workspace_bytes_; }

  // Enqueues the product on `stream`: `inputs` are the kernel inputs' addresses in KernelFusion order,
  // `output` the contiguous output's. Safe to call from several threads (calls on one object take turns:
  // the bias address is a descriptor attribute).
  void enqueue(const std::vector<DevicePtr>& inputs, DevicePtr output, DevicePtr workspace,
               CUstream stream) const;

 private:
  MatmulPlan plan_;
  std::string name_;
  cublaslt::MatmulDesc desc_ = nullptr;
  cublaslt::MatrixLayout layout_a_ = nullptr, layout_b_ = nullptr, layout_d_ = nullptr;
  cublaslt::Algo algo_{};
  size_t algorithm_workspace_bytes_ = 0;
  size_t bias_copy_offset_ = 0;
  size_t workspace_bytes_ = 0;
  mutable std::mutex enqueue_mutex_;
};

}  // namespace seam
