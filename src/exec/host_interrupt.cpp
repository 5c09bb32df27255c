#include "exec/host_interrupt.h"

#include <csignal>

namespace seam {
namespace {

// sig_atomic_t: what a signal handler may write. Host modules read it as a volatile int.
volatile std::sig_atomic_t interrupt_flag = 0;
static_assert(sizeof(std::sig_atomic_t) == sizeof(int), "host modules read the flag as an int");

}  // namespace

void request_host_interrupt() noexcept { interrupt_flag = 1; }
void clear_host_interrupt() noexcept { interrupt_flag = 0; }
bool host_interrupt_requested() noexcept { return interrupt_flag != 0; }
const volatile int* host_interrupt_flag() noexcept {
  return reinterpret_cast<const volatile int*>(&interrupt_flag);
}

void throw_if_host_interrupted(const std::string& what) {
  if (!host_interrupt_requested()) return;
  clear_host_interrupt();
  throw Interrupted(what +
                    " was interrupted (an interrupt was requested: Ctrl-C); its outputs are incomplete");
}

}  // namespace seam
