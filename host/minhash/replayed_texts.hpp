#pragma once
// The texts of the documents one exact pass of --verify auto needs, gathered from a text
// replay (method.hpp) in input order and held back to back. A text is ~8x smaller than
// its shingle set (8 bytes per distinct shingle), so a pass holds texts, not sets, and
// each set is built when a check first needs it (component_pair_checks.cpp).
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpudedup/errors.hpp"
#include "gpudedup/method.hpp"

namespace gpudedup::detail {

class ReplayedTexts {
 public:
  /// Reads, through `replay`, the text of every document d with wanted[d] != 0;
  /// `expected_bytes` (their texts' sizes as the first pass saw them) is reserved at once:
  /// grown by doubling, the store would touch twice its pages.
  /// @throws data_error naming a wanted document the replay did not give (the input
  /// changed since it was read).
  void gather(const TextReplay& replay, const std::vector<uint8_t>& wanted, uint64_t expected_bytes) {
    docs_.clear();
    ends_.clear();
    bytes_.clear();
    bytes_.reserve(size_t(expected_bytes));
    replay(wanted, [&](uint64_t d, std::string_view text) {
      if (d >= wanted.size() || !wanted[d]) return;
      if (!docs_.empty() && d <= docs_.back()) return;  // input order: a repeat gives nothing new
      docs_.push_back(uint32_t(d));
      bytes_.append(text);
      ends_.push_back(bytes_.size());
    });
    size_t at = 0;
    for (size_t d = 0; d < wanted.size(); ++d) {
      if (!wanted[d]) continue;
      if (at == docs_.size() || docs_[at] != d) {
        throw data_error("the input changed since it was read: document " + std::to_string(d) +
                         " was not found again to verify a borderline pair (--verify auto); do not modify the "
                         "input files while gpudedup runs");
      }
      ++at;
    }
  }

  size_t size() const { return docs_.size(); }

  /// Document d's text; d must be one gather() was asked for.
  std::string_view text(uint32_t d) const {
    const size_t i = size_t(std::lower_bound(docs_.begin(), docs_.end(), d) - docs_.begin());
    GD_EXPECTS(i < docs_.size() && docs_[i] == d, "ReplayedTexts: a document the pass did not gather");
    const size_t from = i == 0 ? 0 : ends_[i - 1];
    return std::string_view(bytes_.data() + from, ends_[i] - from);
  }

 private:
  std::vector<uint32_t> docs_;  // ascending
  std::vector<size_t> ends_;
  std::string bytes_;
};

}  // namespace gpudedup::detail
