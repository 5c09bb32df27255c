// Conversions between the public API's types and seam's own, and the guard that turns seam's exceptions
// into the API's.
#pragma once

#include <exception>
#include <utility>

#include "exec/host_interrupt.h"
#include "ir/attr.h"
#include "ir/dtype.h"
#include "ir/fusion.h"
#include "ir/type.h"
#include "seam/api.h"
#include "support/error.h"

namespace seam::api {

struct Fusion::Impl {
  seam::Fusion fusion;
};

seam::DType to_seam(DType dtype);
DType from_seam(seam::DType dtype);
seam::Type to_seam(const ValueType& type);
ValueType from_seam(const seam::Type& type);
seam::Number to_seam(const Literal& literal);
seam::AttrValue to_seam(const Attribute& attribute);

// Runs `body`, rethrowing seam::Error as api::Error and seam::InternalError as api::InternalError.
template <typename Body>
auto guarded(Body&& body) -> decltype(body()) {
  try {
    return body();
  } catch (const seam::Interrupted& e) {
    throw Interrupted(e.what());
  } catch (const seam::Error& e) {
    throw Error(e.what());
  } catch (const seam::InternalError& e) {
    throw InternalError(e.what());
  }
}

}  // namespace seam::api
