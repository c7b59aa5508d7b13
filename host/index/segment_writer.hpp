#pragma once
// Writes one index segment (segment_format.hpp): from signatures in memory (an insert)
// or by merging segments (compaction). The file is written under `path`, fsync'd and
// closed; publishing it (rename + manifest) is the caller's job.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "host/index/segment_format.hpp"

namespace gpudedup::detail {

class Segment;

/// What every segment of an index shares.
struct SegmentBase {
  uint64_t params_hash = 0;
  uint32_t num_perm = 0;
  uint32_t bands = 0;
  uint32_t rows = 0;
  uint64_t first_doc = 0;
};

/// Documents to write: row-major signatures (documents * num_perm), set sizes, ids.
struct SegmentRows {
  const uint32_t* signatures = nullptr;
  const uint32_t* set_sizes = nullptr;
  const std::vector<std::string>* ids = nullptr;
  uint64_t documents = 0;
};

/// @return the finished header (its header_checksum goes into the manifest).
SegmentHeader write_segment(const std::string& path, const SegmentBase& base, const SegmentRows& rows,
                            int threads);

/// Merges `inputs` (consecutive segments, in document order) into one segment whose
/// documents keep their order; every input block is verified as it is read, so a
/// corrupted input is reported, never copied under a fresh checksum.
SegmentHeader merge_segments(const std::string& path, const SegmentBase& base,
                             const std::vector<std::shared_ptr<const Segment>>& inputs, int threads);

}  // namespace gpudedup::detail
