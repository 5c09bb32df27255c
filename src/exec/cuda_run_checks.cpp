#include "exec/cuda_run_checks.h"

namespace seam {

void check_stream(CUstream stream, const std::string& fusion_name) {
  SEAM_CHECK(!is_per_thread_stream(stream), "fusion '", fusion_name,
             "': the per-thread default stream (CU_STREAM_PER_THREAD) is not supported; pass a stream "
             "handle, or 0 for the legacy default stream");
}

bool is_capturing(CUstream stream) {
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  check_cuda(driver().stream_is_capturing(stream, &status), "cuStreamIsCapturing");
  return status != CU_STREAM_CAPTURE_STATUS_NONE;
}

}  // namespace seam
