// Device addresses bound to the values of a segmented fusion during one CUDA run: the caller's inputs and
// output buffers, and the buffers a run allocates for the rest.
#pragma once

#include <memory>
#include <vector>

#include "ir/fusion.h"
#include "runtime/device_allocator.h"
#include "support/error.h"

namespace seam {

// Device addresses bound to the values of the segmented fusion during one run, by value id (vectors: a
// run binds a few values and is on the per-call path).
class Bindings {
 public:
  explicit Bindings(int32_t values)
      : address_(static_cast<size_t>(values), 0),
        bound_(static_cast<size_t>(values), 0),
        owned_(static_cast<size_t>(values)) {}
  void bind(Value v, DevicePtr address) {
    address_.at(static_cast<size_t>(v.id)) = address;
    bound_[static_cast<size_t>(v.id)] = 1;
  }
  void own(Value v, std::shared_ptr<DeviceBuffer> buffer) {
    bind(v, buffer->get());
    owned_[static_cast<size_t>(v.id)] = std::move(buffer);
  }
  bool is_bound(Value v) const { return bound_.at(static_cast<size_t>(v.id)) != 0; }
  DevicePtr address(Value v) const {
    SEAM_ASSERT(bound_.at(static_cast<size_t>(v.id)), "value %", v.id, " has no device address in this run");
    return address_[static_cast<size_t>(v.id)];
  }
  // The buffer seam allocated for `v` in this run, or null.
  const std::shared_ptr<DeviceBuffer>& owned(Value v) const { return owned_.at(static_cast<size_t>(v.id)); }

 private:
  std::vector<DevicePtr> address_;
  std::vector<char> bound_;
  std::vector<std::shared_ptr<DeviceBuffer>> owned_;  // buffers seam allocated in this run
};

}  // namespace seam
