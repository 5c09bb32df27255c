#include "testing/nvrtc_request.h"

#include "codegen/embedded_headers.h"

namespace seam::testing_nvrtc {

CompileRequest sm90_request() {
  CompileRequest request;
  request.arch = "sm_90";
  for (const EmbeddedHeader& h : embedded_headers()) request.headers.emplace_back(h.name, h.text);
  return request;
}

void add_kernel(CompileRequest& request, const kir::Kernel& kernel, const CudaLaunchShape& shape) {
  request.source += print_cuda_kernel(kernel, shape) + "\n";
  request.kernel_names.push_back(kernel.name);
}

}  // namespace seam::testing_nvrtc
