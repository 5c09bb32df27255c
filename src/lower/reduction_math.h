// What a reduction means in generated code, for every lowering and printer that reduces (inlined
// reductions, row kernels, scans): the dtype it accumulates in, the neutral element that a thread without
// elements contributes, and the binary op that combines two partial results. The reference interpreter
// keeps its own rule (it accumulates in f64, src/interp/eval_reduction.cpp): it is the oracle these are
// tested against, and it sits below lowering.
#pragma once

#include "ir/attr.h"
#include "ir/dtype.h"
#include "ir/op.h"

namespace seam {

// The dtype in which a row reduction or a scan accumulates elements of `operand`: f32 for f16, bf16 and
// f32 (what GPUs and PyTorch's kernels do), f64 for f64, i64 (wrapping) for integers and bool.
DType reduction_accumulator(DType operand);

// The dtype of an inlined reduction's terms (a few, computed where the reduction is read:
// schedule/pointwise_scheduler.h) whose result has dtype `result`: reduction_accumulator's for floating
// dtypes, the result's own for integers and bool.
DType inlined_reduction_accumulator(DType result);

// The neutral element of `reduction` (Sum, Prod, Max, Min) in an accumulator of dtype `accumulator`.
Number reduction_identity(OpKind reduction, DType accumulator);

// The binary op that combines two partial results of `reduction`: Add, Mul, Maximum or Minimum.
OpKind reduction_combine(OpKind reduction);

}  // namespace seam
