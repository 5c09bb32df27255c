// Errors raised by seam. Every user-facing failure is a seam::Error with a message that names what is
// wrong and where; the tool turns it into a non-zero exit. Internal invariant violations are separate so
// that a bug in seam is never reported as a mistake of the user.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

namespace seam {

// A problem with the input: malformed text, a misused op, wrong shapes at run time.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

// A broken invariant inside seam: always a bug in seam itself.
class InternalError : public std::logic_error {
 public:
  explicit InternalError(const std::string& message) : std::logic_error(message) {}
};

namespace detail {
// Concatenates any streamable arguments into one string.
template <typename... Args>
std::string concat(const Args&... args) {
  std::ostringstream out;
  (out << ... << args);
  return out.str();
}
}  // namespace detail

}  // namespace seam

// Throws seam::Error with the concatenated message when cond is false.
#define SEAM_CHECK(cond, ...)                                              \
  do {                                                                     \
    if (!(cond)) throw ::seam::Error(::seam::detail::concat(__VA_ARGS__)); \
  } while (false)

// Throws seam::InternalError (a bug in seam) when cond is false.
#define SEAM_ASSERT(cond, ...)                                                                               \
  do {                                                                                                       \
    if (!(cond))                                                                                             \
      throw ::seam::InternalError(                                                                           \
          ::seam::detail::concat(__FILE__, ":", __LINE__, ": internal error: ", #cond, " ", ##__VA_ARGS__)); \
  } while (false)

// Marks a point seam never reaches (after an exhaustive switch): throws seam::InternalError.
#define SEAM_UNREACHABLE(...)  \
  throw ::seam::InternalError( \
      ::seam::detail::concat(__FILE__, ":", __LINE__, ": internal error: unreachable ", ##__VA_ARGS__))
