#pragma once
// Document ids, packed: one buffer plus offsets (a million short ids cost ~the bytes of
// the ids, not a million std::string headers).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpudedup::detail {

class IdTable {
 public:
  void add(std::string_view id) {
    bytes_.append(id.data(), id.size());
    offsets_.push_back(bytes_.size());
  }
  std::string_view operator[](size_t i) const {
    return std::string_view(bytes_).substr(offsets_[i], offsets_[i + 1] - offsets_[i]);
  }
  size_t size() const { return offsets_.size() - 1; }

 private:
  std::string bytes_;
  std::vector<uint64_t> offsets_{0};
};

}  // namespace gpudedup::detail
