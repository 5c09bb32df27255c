#include "lower/row_peel.h"

namespace seam {

bool peelable_rows(const RowShape& rs) {
  return rs.inner_reduced && !rs.shape.empty() && rs.reduced > 0 && rs.reduced == rs.shape.back();
}

int64_t peeled_vectors(int64_t reduced, int vector, bool columns) {
  return columns ? (reduced + vector - 1) / vector : (reduced + 2 * vector - 2) / vector;
}

kir::Index peeled_element(const std::string& vector_index, int64_t vectors, int vector, bool columns) {
  if (columns) return kir::mul(kir::variable(vector_index, vectors), vector);
  return kir::add(kir::mul(kir::variable(vector_index, vectors), vector),
                  kir::mul(kir::variable(kRowShift, vector), -1));
}

kir::Expr row_edge(const kir::Var& x, Number outside) {
  kir::Expr e{kir::Expr::Kind::RowEdge};
  e.args = {x};
  e.literal = outside;
  return e;
}

}  // namespace seam
