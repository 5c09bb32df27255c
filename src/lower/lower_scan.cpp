#include "lower/lower_scan.h"

#include <algorithm>

#include "support/error.h"

namespace seam {

namespace {

kir::ScanCombine scan_combine(const Node& scan) {
  switch (scan.op) {
    case OpKind::Cumsum: return kir::ScanCombine::Sum;
    case OpKind::Cumprod: return kir::ScanCombine::Prod;
    case OpKind::Cummin: return kir::ScanCombine::Min;
    case OpKind::Cummax: return kir::ScanCombine::Max;
    default: break;
  }
  SEAM_UNREACHABLE("scan op '", scan.info().keyword, "'");
}

// Elements a thread scans per chunk: 16 bytes of input, 2 to 8 elements.
int items_per_thread(DType input) {
  return static_cast<int>(std::clamp<int64_t>(16 / static_cast<int64_t>(dtype_size(input)), 2, 8));
}

}  // namespace

kir::Kernel lower_scan(const Fusion& kf, const ScanLoweringOptions& options) {
  const std::string& name = options.kernel_name;
  SEAM_CHECK(kf.outputs().size() == 1, "scan kernel ", name, ": expected one output, got ",
             kf.outputs().size());
  const Value result = kf.outputs()[0].value;
  const Node& scan = kf.node(result);
  SEAM_CHECK(scan.category() == OpCategory::Scan, "scan kernel ", name, ": its output is a '",
             scan.info().keyword, "', not a scan");
  const Value operand = scan.operands.at(0);
  SEAM_CHECK(kf.node(operand).op == OpKind::Input, "scan kernel ", name,
             ": the scanned operand must be a kernel input (the plan writes views out first)");
  const Type& in = kf.type(operand);
  const Shape strides = kf.input_strides(operand);

  kir::ScanLaunch s;
  s.combine = scan_combine(scan);
  s.input_dtype = in.dtype;
  s.output_dtype = scan.type.dtype;
  const size_t axis = static_cast<size_t>(scan.attrs.get_int("axis"));
  int64_t outer = 1;
  for (size_t d = 0; d < in.shape.size(); ++d) {
    if (d == axis) continue;
    (d < axis ? outer : s.inner) *= in.shape[d];
    s.line_extents.push_back(in.shape[d]);
    s.line_strides.push_back(strides[d]);
  }
  s.extent = in.shape.empty() ? 1 : in.shape[axis];
  s.axis_stride = in.shape.empty() ? 1 : strides[axis];
  s.lines = outer * s.inner;
  s.contiguous = strides == contiguous_strides(in.shape);
  if (s.inner == 1 && s.extent >= kMinScanRowExtent) {
    s.items = items_per_thread(in.dtype);
    const int64_t wanted = (s.extent + s.items - 1) / s.items;
    const int cap = std::clamp(options.max_threads / 32 * 32, 32, 1024);
    s.threads = static_cast<int>(std::min<int64_t>(cap, (wanted + 31) / 32 * 32));
    s.block = s.threads;
    s.blocks = std::max<int64_t>(1, s.lines);
  } else {
    s.block = 256;
    s.blocks = std::max<int64_t>(1, (s.lines + s.block - 1) / s.block);
  }
  s.blocks = std::min<int64_t>(s.blocks, int64_t{1} << 30);  // grid-stride beyond (gridDim.x < 2^31)

  kir::Kernel kernel;
  kernel.name = name;
  kernel.index64 = true;
  kernel.params.push_back({kir::Param::Kind::Input, "in0", in.dtype, 0});
  kernel.params.push_back({kir::Param::Kind::Output, "out0", scan.type.dtype, 0});
  kernel.scan = std::move(s);
  return kernel;
}

}  // namespace seam
