#include "exec/cublas_matmul.h"

#include <algorithm>
#include <cstdio>
#include <mutex>

#include "runtime/cuda_driver.h"
#include "runtime/runtime_env.h"
#include "support/error.h"

namespace seam {
namespace {

// Workspace offered to the heuristic: what NVIDIA recommends for Hopper's kernels.
constexpr uint64_t kMaxWorkspaceBytes = 32ull << 20;
// Algorithms asked of the heuristic, best first.
constexpr int kCandidates = 16;

cublaslt::DataType data_type(DType dtype) {
  switch (dtype) {
    case DType::Float16: return cublaslt::kDataF16;
    case DType::BFloat16: return cublaslt::kDataBF16;
    case DType::Float32: return cublaslt::kDataF32;
    case DType::Float64: return cublaslt::kDataF64;
    default:
      SEAM_CHECK(false, "matrix products on the GPU take f16, bf16, f32 or f64, not ", dtype_name(dtype));
  }
  return cublaslt::kDataF32;
}

template <typename T>
void set_desc(cublaslt::MatmulDesc desc, int attribute, const T& value, const std::string& what) {
  cublaslt::check(cublaslt::library().matmul_desc_set(desc, attribute, &value, sizeof value),
                  "cublasLtMatmulDescSetAttribute", what);
}

cublaslt::MatrixLayout make_layout(DType dtype, int64_t rows, int64_t cols, int64_t ld, int64_t batch,
                                   int64_t stride, const std::string& what) {
  const cublaslt::Library& lib = cublaslt::library();
  cublaslt::MatrixLayout layout = nullptr;
  cublaslt::check(lib.layout_create(&layout, data_type(dtype), static_cast<uint64_t>(rows),
                                    static_cast<uint64_t>(cols), ld),
                  "cublasLtMatrixLayoutCreate", what);
  if (batch > 1) {
    const int32_t count = static_cast<int32_t>(batch);
    cublaslt::check(lib.layout_set(layout, cublaslt::kLayoutBatchCount, &count, sizeof count),
                    "cublasLtMatrixLayoutSetAttribute", what);
    cublaslt::check(lib.layout_set(layout, cublaslt::kLayoutStridedBatchOffset, &stride, sizeof stride),
                    "cublasLtMatrixLayoutSetAttribute", what);
  }
  return layout;
}

}  // namespace

CublasMatmul::CublasMatmul(MatmulPlan plan, int input_alignment, std::string step_name)
    : plan_(std::move(plan)), name_(std::move(step_name)) {
  if (plan_.calls.empty()) return;  // nothing to call: an empty or zero-filled output
  const cublaslt::Library& lib = cublaslt::library();
  const bool wide = plan_.dtype == DType::Float64;
  cublaslt::check(lib.matmul_desc_create(&desc_, wide ? cublaslt::kComputeF64 : cublaslt::kComputeF32,
                                         wide ? cublaslt::kDataF64 : cublaslt::kDataF32),
                  "cublasLtMatmulDescCreate", name_);
  const int32_t trans_a = plan_.transpose_a ? cublaslt::kOpT : cublaslt::kOpN;
  const int32_t trans_b = plan_.transpose_b ? cublaslt::kOpT : cublaslt::kOpN;
  set_desc(desc_, cublaslt::kDescTransA, trans_a, name_);
  set_desc(desc_, cublaslt::kDescTransB, trans_b, name_);
  if (plan_.input_bias) set_desc(desc_, cublaslt::kDescEpilogue, uint32_t{cublaslt::kEpilogueBias}, name_);

  // Stored shapes: op N keeps rows x cols, op T stores the transpose.
  const int64_t a_rows = plan_.transpose_a ? plan_.k : plan_.m,
                a_cols = plan_.transpose_a ? plan_.m : plan_.k;
  const int64_t b_rows = plan_.transpose_b ? plan_.n : plan_.k,
                b_cols = plan_.transpose_b ? plan_.k : plan_.n;
  layout_a_ = make_layout(plan_.dtype, a_rows, a_cols, plan_.lda, plan_.batch, plan_.stride_a, name_);
  layout_b_ = make_layout(plan_.dtype, b_rows, b_cols, plan_.ldb, plan_.batch, plan_.stride_b, name_);
  layout_d_ = make_layout(plan_.dtype, plan_.m, plan_.n, plan_.ldd, plan_.batch, plan_.stride_d, name_);

  cublaslt::Preference preference = nullptr;
  cublaslt::check(lib.preference_create(&preference), "cublasLtMatmulPreferenceCreate", name_);
  auto set_preference = [&](int attribute, auto value) {
    cublaslt::check(lib.preference_set(preference, attribute, &value, sizeof value),
                    "cublasLtMatmulPreferenceSetAttribute", name_);
  };
  set_preference(cublaslt::kPrefMaxWorkspaceBytes, kMaxWorkspaceBytes);
  // Partial sums of a split contraction stay in float: one rounding to the output dtype, as promised.
  set_preference(cublaslt::kPrefReductionSchemeMask, uint32_t{cublaslt::kReductionComputeType});
  const uint32_t input_bytes = static_cast<uint32_t>(std::clamp(input_alignment, 1, 256));
  set_preference(cublaslt::kPrefMinAlignmentA, std::min<uint32_t>(input_bytes, plan_.offset_alignment_a));
  set_preference(cublaslt::kPrefMinAlignmentB, std::min<uint32_t>(input_bytes, plan_.offset_alignment_b));
  set_preference(cublaslt::kPrefMinAlignmentC, static_cast<uint32_t>(plan_.offset_alignment_d));
  set_preference(cublaslt::kPrefMinAlignmentD, static_cast<uint32_t>(plan_.offset_alignment_d));
  cublaslt::HeuristicResult results[kCandidates] = {};
  int found = 0;
  const cublaslt::Status status = lib.heuristic(cublaslt::handle(), desc_, layout_a_, layout_b_, layout_d_,
                                                layout_d_, preference, kCandidates, results, &found);
  lib.preference_destroy(preference);
  cublaslt::check(status, "cublasLtMatmulAlgoGetHeuristic", name_);
  // The heuristic's best that keeps one rounding: with a bias and a half-precision output, no split
  // contraction (measured: its reduction rounds the sum to the output dtype, then adds the bias; a sum
  // cancelled by its bias is then off by an ulp of the sum).
  const bool narrow = plan_.dtype == DType::BFloat16 || plan_.dtype == DType::Float16;
  const cublaslt::HeuristicResult* chosen = nullptr;
  for (int i = 0; i < found && chosen == nullptr; ++i) {
    if (results[i].state != 0) continue;
    int32_t split = 1;
    size_t written = 0;
    lib.algo_config_get(&results[i].algo, cublaslt::kConfigSplitK, &split, sizeof split, &written);
    if (!plan_.input_bias || !narrow || split <= 1) chosen = &results[i];
  }
  SEAM_CHECK(chosen != nullptr, "cuBLASLt has no algorithm for ", name_, " (", dtype_name(plan_.dtype),
             ", m ", plan_.m, " n ", plan_.n, " k ", plan_.k, ", batch ", plan_.batch, ", ", found,
             " candidates", plan_.input_bias ? ", none without a split contraction" : "", ")");
  const cublaslt::HeuristicResult& result = *chosen;
  algo_ = result.algo;
  if (env_flag("SEAM_DEBUG_CUBLASLT")) {  // what the heuristic chose (docs/DEBUGGING.md)
    int32_t config[4] = {-1, -1, -1, -1};
    for (int attribute = 0; attribute < 4; ++attribute) {
      size_t written = 0;
      lib.algo_config_get(&algo_, attribute, &config[attribute], sizeof config[attribute], &written);
    }
    std::fprintf(
        stderr,
        "seam: cuBLASLt for %s: %s m %lld n %lld k %lld batch %lld calls %zu trans %d%d ld %lld %lld %lld, "
        "alignment A %u B %u D %u, algorithm %d tile %d split-K %d reduction %d, workspace %zu, waves %.2f\n",
        name_.c_str(), std::string(dtype_name(plan_.dtype)).c_str(), static_cast<long long>(plan_.m),
        static_cast<long long>(plan_.n), static_cast<long long>(plan_.k), static_cast<long long>(plan_.batch),
        plan_.calls.size(), plan_.transpose_a, plan_.transpose_b, static_cast<long long>(plan_.lda),
        static_cast<long long>(plan_.ldb), static_cast<long long>(plan_.ldd),
        std::min<uint32_t>(input_bytes, plan_.offset_alignment_a),
        std::min<uint32_t>(input_bytes, plan_.offset_alignment_b),
        static_cast<uint32_t>(plan_.offset_alignment_d), config[0], config[1], config[2], config[3],
        result.workspace_size, result.waves_count);
  }
  algorithm_workspace_bytes_ = result.workspace_size;
  workspace_bytes_ = algorithm_workspace_bytes_;
  if (plan_.input_bias) {  // room for a 16-byte aligned copy of a bias that is not
    bias_copy_offset_ = (workspace_bytes_ + 255) / 256 * 256;
    workspace_bytes_ = bias_copy_offset_ + static_cast<size_t>(plan_.m * dtype_size(plan_.dtype));
  }
}

CublasMatmul::~CublasMatmul() {
  if (desc_ == nullptr) return;
  const cublaslt::Library& lib = cublaslt::library();
  lib.layout_destroy(layout_a_);
  lib.layout_destroy(layout_b_);
  lib.layout_destroy(layout_d_);
  lib.matmul_desc_destroy(desc_);
}

void CublasMatmul::enqueue(const std::vector<DevicePtr>& inputs, DevicePtr output, DevicePtr workspace,
                           CUstream stream) const {
  const int64_t size = dtype_size(plan_.dtype);
  if (plan_.zero_fill) {
    check_cuda(driver().memset_d8_async(output, 0, static_cast<size_t>(plan_.output_elements * size), stream),
               "cuMemsetD8Async", name_ + " (a product over 0 elements)");
    return;
  }
  if (plan_.bias_fill) {  // the bias into the first row, then rows doubled by copies
    const int64_t row_bytes = plan_.m * size, total = plan_.output_elements * size;
    const DevicePtr bias = inputs.at(*plan_.input_bias) + static_cast<DevicePtr>(plan_.bias_offset * size);
    check_cuda(driver().memcpy_dtod_async(output, bias, static_cast<size_t>(row_bytes), stream),
               "cuMemcpyDtoDAsync", name_ + " (a product over 0 elements plus its bias)");
    for (int64_t done = row_bytes; done < total; done *= 2)
      check_cuda(driver().memcpy_dtod_async(output + static_cast<DevicePtr>(done), output,
                                            static_cast<size_t>(std::min(done, total - done)), stream),
                 "cuMemcpyDtoDAsync", name_ + " (a product over 0 elements plus its bias)");
    return;
  }
  if (plan_.calls.empty()) return;
  // Runs on other threads (other streams) use this object too: the bias address lives in the descriptor
  // from its setting to the library calls that read it.
  std::lock_guard<std::mutex> lock(enqueue_mutex_);
  const cublaslt::Library& lib = cublaslt::library();
  if (plan_.input_bias) {
    DevicePtr bias = inputs.at(*plan_.input_bias) + static_cast<DevicePtr>(plan_.bias_offset * size);
    if (bias % 16 != 0) {  // the library's bias epilogue reads 16-byte aligned vectors
      const DevicePtr copy = workspace + static_cast<DevicePtr>(bias_copy_offset_);
      check_cuda(driver().memcpy_dtod_async(copy, bias, static_cast<size_t>(plan_.m * size), stream),
                 "cuMemcpyDtoDAsync", name_ + " (aligning the bias)");
      bias = copy;
    }
    set_desc(desc_, cublaslt::kDescBiasPointer, bias, name_);
  }
  const float alpha_f = 1.0f, beta_f = 0.0f;
  const double alpha_d = 1.0, beta_d = 0.0;
  const bool wide = plan_.dtype == DType::Float64;
  const void* alpha = wide ? static_cast<const void*>(&alpha_d) : &alpha_f;
  const void* beta = wide ? static_cast<const void*>(&beta_d) : &beta_f;
  const DevicePtr a = inputs.at(plan_.input_a), b = inputs.at(plan_.input_b);
  for (const GemmCall& call : plan_.calls) {
    const DevicePtr pa = a + static_cast<DevicePtr>(call.a * size),
                    pb = b + static_cast<DevicePtr>(call.b * size);
    const DevicePtr pd = output + static_cast<DevicePtr>(call.d * size);
    cublaslt::check(
        lib.matmul(cublaslt::handle(), desc_, alpha, reinterpret_cast<const void*>(pa), layout_a_,
                   reinterpret_cast<const void*>(pb), layout_b_, beta, reinterpret_cast<const void*>(pd),
                   layout_d_, reinterpret_cast<void*>(pd), layout_d_, &algo_,
                   reinterpret_cast<void*>(workspace), algorithm_workspace_bytes_, stream),
        "cublasLtMatmul", name_);
  }
}

}  // namespace seam
