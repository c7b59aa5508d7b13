#pragma once
// Which record of the input each document of a run is, without a number per document:
// the documents are the records in input order less the skipped ones, so document d is
// record d + (records skipped before it). Only the gaps are held (16 B each), so a corpus
// that skips nothing costs nothing here, where a record number per document cost 8 B.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

namespace gpudedup::detail {

class DocumentRecords {
 public:
  /// The next document is record `record` (greater than the last one added).
  void add(uint64_t record) {
    const uint64_t skipped = record - documents_;
    if (skipped != skipped_before_last()) gaps_.push_back({documents_, skipped});
    ++documents_;
  }
  uint64_t size() const { return documents_; }

  /// The record of document d (d < size()).
  uint64_t record_of(uint64_t d) const { return d + gap_at(d).skipped; }

  /// The document that is record `record`, or none when that record was skipped.
  std::optional<uint64_t> document_of(uint64_t record) const {
    // The last gap whose first document's record is at or before `record`.
    auto after = std::upper_bound(gaps_.begin(), gaps_.end(), record,
                                  [](uint64_t r, const Gap& g) { return r < g.first_document + g.skipped; });
    const uint64_t skipped = after == gaps_.begin() ? 0 : std::prev(after)->skipped;
    const uint64_t d = record - skipped;
    const uint64_t end = after == gaps_.end() ? documents_ : after->first_document;
    if (record < skipped || d >= end) return std::nullopt;
    return d;
  }

  /// Calls use(d, record) for every document in order.
  template <class Use>
  void for_each(Use&& use) const {
    size_t g = 0;
    uint64_t skipped = 0;
    for (uint64_t d = 0; d < documents_; ++d) {
      while (g < gaps_.size() && gaps_[g].first_document == d) skipped = gaps_[g++].skipped;
      use(d, d + skipped);
    }
  }

 private:
  /// From document first_document on, `skipped` records (in all) lie before each.
  struct Gap {
    uint64_t first_document = 0;
    uint64_t skipped = 0;
  };
  uint64_t skipped_before_last() const { return gaps_.empty() ? 0 : gaps_.back().skipped; }
  Gap gap_at(uint64_t d) const {
    auto after = std::upper_bound(gaps_.begin(), gaps_.end(), d,
                                  [](uint64_t doc, const Gap& g) { return doc < g.first_document; });
    return after == gaps_.begin() ? Gap{} : *std::prev(after);
  }

  uint64_t documents_ = 0;
  std::vector<Gap> gaps_;
};

}  // namespace gpudedup::detail
