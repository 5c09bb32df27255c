// Small helpers for the interpreter tests: run a one-output fusion, read a result's values.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "interp/interpreter.h"
#include "ir/builder.h"
#include "support/error.h"
#include "testing/error_message.h"

namespace seam::testing_interp {

inline HostTensor run_one(Fusion fusion, const std::vector<HostTensor>& inputs) {
  std::vector<HostTensor> outputs = interpret(fusion, inputs);
  EXPECT_EQ(outputs.size(), 1u);
  return outputs.at(0);
}

using testing_errors::error_of;

inline Type f32(Shape s) { return Type::tensor(DType::Float32, std::move(s)); }

}  // namespace seam::testing_interp
