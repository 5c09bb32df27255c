// Stopping a long host run. Host kernels (seam_host.h) read a flag between chunks of their work and
// return early when it is set; the run then throws Interrupted instead of returning outputs. Setting the
// flag is async-signal-safe, so a SIGINT handler may do it (the Python module does, while a run holds no
// GIL: Ctrl-C raises KeyboardInterrupt within a fraction of a second). GPU launches are not stopped.
#pragma once

#include <string>

#include "support/error.h"

namespace seam {

// A host run that stopped early because an interrupt was requested; its outputs are incomplete.
class Interrupted : public Error {
 public:
  using Error::Error;
};

// Asks the host runs in progress, and the next ones, to stop; async-signal-safe.
void request_host_interrupt() noexcept;
// Withdraws a request that no run has seen yet.
void clear_host_interrupt() noexcept;
bool host_interrupt_requested() noexcept;
// What host modules read (their seam_host_interrupt points here once loaded).
const volatile int* host_interrupt_flag() noexcept;
// After a kernel returned: when a request is pending, clears it and throws Interrupted naming `what`.
void throw_if_host_interrupted(const std::string& what);

}  // namespace seam
