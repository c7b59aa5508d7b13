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

/// A set of strings per document (metadata: keywords, tags, references) in the same
/// layout, so that reading JSONL needs no allocation per element: the elements of set i
/// are elements.text(j) for j in [sets[i], sets[i+1]). An empty set is a valid set.
struct MetadataBatch {
  DocumentBatch elements;           ///< all elements of all sets, back to back
  std::vector<uint64_t> sets{0};    ///< size() + 1 entries into `elements`

  size_t size() const { return sets.size() - 1; }
  /// Number of elements of set i.
  size_t set_size(size_t i) const { return size_t(sets[i + 1] - sets[i]); }
  /// Element j of set i.
  std::string_view element(size_t i, size_t j) const { return elements.text(size_t(sets[i]) + j); }
  /// Appends an element to the set being built; end_set() closes it.
  void add_element(std::string_view e) { elements.add(e); }
  void end_set() { sets.push_back(elements.size()); }
  void clear() {
    elements.clear();
    sets.assign(1, 0);
  }
};

}  // namespace gpudedup
