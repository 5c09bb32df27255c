// A small command-line parser: positional arguments, `--key value`, `--key=value`, repeated keys and
// boolean switches. Unknown or missing options are errors naming the option.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace seam::tool {

class Args {
 public:
  // `switches` take no value; every other `--key` takes one.
  Args(int argc, char** argv, int first, std::set<std::string> switches);

  const std::vector<std::string>& positional() const { return positional_; }
  std::string positional_at(size_t i, const char* what) const;
  bool has(const std::string& key);
  std::optional<std::string> get(const std::string& key);
  std::string get_or(const std::string& key, const std::string& fallback);
  int64_t get_int(const std::string& key, int64_t fallback);
  double get_double(const std::string& key, double fallback);
  std::vector<std::string> get_all(const std::string& key);
  // Throws if an option was given that no get/has asked about: catches typos like --bacth.
  void reject_unused() const;

 private:
  std::vector<std::string> positional_;
  std::multimap<std::string, std::string> options_;
  std::set<std::string> used_;
};

}  // namespace seam::tool
