#pragma once
// A memory-mapped, read-only index segment. Opening verifies the header and the trailer
// (fences, block checksums); every other byte is verified against its block checksum the
// first time it is read, so a corrupted segment raises a data_error naming the file and
// block instead of giving a wrong answer.
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "host/index/segment_format.hpp"
#include "kernels/index/index_cuda.hpp"

namespace gpudedup::detail {

struct ManifestSegment;

/// What the index expects of each of its segments.
struct SegmentExpect {
  uint64_t params_hash = 0;
  uint32_t num_perm = 0;
  uint32_t bands = 0;
  uint32_t rows = 0;
};

class Segment {
 public:
  /// @throws data_error naming the file for a missing, foreign, newer, truncated or
  /// corrupted segment, or one that is not the file the manifest names.
  static std::shared_ptr<const Segment> open(const std::string& path, const ManifestSegment& listed,
                                             const SegmentExpect& expect, uint64_t first_doc);
  ~Segment();
  Segment(const Segment&) = delete;
  Segment& operator=(const Segment&) = delete;

  const SegmentHeader& header() const { return h_; }
  const std::string& path() const { return path_; }
  uint64_t documents() const { return h_.documents; }
  uint64_t first_doc() const { return h_.first_doc; }

  /// Rows [first, first + count) of the signatures.
  const uint32_t* signatures(uint64_t first, uint64_t count) const;
  const uint32_t* signature(uint64_t local) const { return signatures(local, 1); }
  const uint32_t* set_sizes() const;
  uint32_t set_size(uint64_t local) const;
  const uint64_t* id_offsets() const;  ///< documents + 1 entries
  const char* id_bytes() const;
  std::string_view id(uint64_t local) const;
  const uint64_t* band_keys(uint32_t band) const;  ///< band_entries, sorted
  const uint32_t* band_docs(uint32_t band) const;

  /// The run of `key` in band `band`'s table (count capped at `limit`).
  BucketRange find(uint32_t band, uint64_t key, uint32_t limit) const;
  /// The local document of entry `pos` of band `band`'s table.
  uint32_t band_doc(uint32_t band, uint64_t pos) const;

  /// Verifies every block. @throws data_error at the first mismatch.
  void verify_all() const;

 private:
  Segment() = default;
  template <class T>
  const T* at(uint64_t offset, uint64_t count) const {
    ensure(offset, count * sizeof(T));
    return reinterpret_cast<const T*>(base_ + offset);
  }
  /// Verifies the blocks of [offset, offset + bytes) not verified yet.
  void ensure(uint64_t offset, uint64_t bytes) const;
  uint64_t lower_bound_in_stretch(uint32_t band, uint64_t stretch, uint64_t key) const;

  std::string path_;
  SegmentHeader h_{};
  const uint8_t* base_ = nullptr;
  uint64_t mapped_ = 0;
  const uint64_t* fences_ = nullptr;
  const uint64_t* checksums_ = nullptr;
  uint64_t blocks_ = 0;
  std::unique_ptr<std::atomic<uint64_t>[]> verified_;
};

}  // namespace gpudedup::detail
