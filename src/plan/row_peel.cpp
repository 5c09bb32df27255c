#include "plan/row_peel.h"

#include <algorithm>

#include "lower/row_peel.h"

namespace seam {

int plan_row_peel(const RowPlanInput& in) {
  if (!in.peel || !peelable_rows(in.shape)) return 0;
  const int widest = std::max(1, std::min(in.max_vector_bytes, 16) / in.smallest_element_bytes);
  const int divides = plan_row_vector(in);
  if (widest == divides || divides * in.smallest_element_bytes >= kPeelBelowBytes) return 0;
  if (in.shape.reduced < 2 * static_cast<int64_t>(widest)) return 0;
  return widest;
}

}  // namespace seam
