#pragma once
// Test helper: one environment variable set (or unset) for a scope, the previous value
// back when it goes; for the variables a backend reads when it is made.
#include <cstdlib>
#include <optional>
#include <string>

namespace test_support {

class ScopedEnv {
 public:
  /// `value` null: unset for the scope.
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    set(value);
  }
  ~ScopedEnv() { set(old_ ? old_->c_str() : nullptr); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  void set(const char* value) {
    if (value) setenv(name_.c_str(), value, 1);
    else unsetenv(name_.c_str());
  }
  std::string name_;
  std::optional<std::string> old_;
};

}  // namespace test_support
