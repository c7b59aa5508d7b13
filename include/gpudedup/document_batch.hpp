#pragma once
/// @file document_batch.hpp
/// A batch of documents as one byte buffer plus an offsets array (the Arrow string
/// layout): a batch moves to the GPU in two copies.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpudedup {

struct DocumentBatch {
  std::string bytes;                     ///< all texts, back to back
  std::vector<uint64_t> offsets{0};      ///< size() + 1 entries; text i = [offsets[i], offsets[i+1])

  size_t size() const { return offsets.size() - 1; }
  bool empty() const { return size() == 0; }
  std::string_view text(size_t i) const {
    return std::string_view(bytes).substr(offsets[i], offsets[i + 1] - offsets[i]);
  }
  void add(std::string_view text) {
    bytes.append(text.data(), text.size());
    offsets.push_back(bytes.size());
  }
  void clear() {
    bytes.clear();
    offsets.assign(1, 0);
  }
};

}  // namespace gpudedup
