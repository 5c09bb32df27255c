// The message of a seam::Error, for tests that check what bad input is told.
#pragma once

#include <string>

#include "support/error.h"

namespace seam::testing_errors {

// The message of the seam::Error `body` throws, or "" when it throws nothing.
template <typename Body>
std::string error_of(Body body) {
  try {
    body();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace seam::testing_errors
