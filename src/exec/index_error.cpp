#include "exec/index_error.h"

#include "ir/op.h"
#include "support/error.h"

namespace seam {

void throw_if_index_error(const int64_t* record, const std::string& where) {
  if (record[0] == 0) return;
  const int64_t op = record[0] - 1;
  SEAM_CHECK(op >= 0 && op < kNumOpKinds, "a kernel of ", where, " reported an index error of unknown op ",
             op);
  const int64_t index = record[1], extent = record[2], axis = record[3];
  throw Error(detail::concat(op_name(static_cast<OpKind>(op)), ": index ", index,
                             " is out of range for axis ", axis, " of extent ", extent, " (valid: ", -extent,
                             " to ", extent - 1, ") in ", where));
}

}  // namespace seam
