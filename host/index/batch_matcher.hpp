#pragma once
// The answer to "is each document of this batch new?": probes the band tables of every
// segment (in parallel over documents), then walks the batch in order against the
// earlier documents of the batch that were answered new.
#include <cstdint>
#include <memory>
#include <vector>

#include "gpudedup/index.hpp"

namespace gpudedup::detail {

class Segment;

struct MatchSettings {
  uint32_t num_perm = 0;
  uint32_t bands = 0;
  uint32_t rows = 0;
  double threshold = 0;
  bool containment = false;
  int threads = 1;
};

/// At most this many entries of one bucket (one band key in one segment, or in the
/// batch) are verified per document: the oldest ones. Bounds the work a huge cluster
/// of indexed near-copies can cause; any of them is a match anyway.
constexpr uint32_t index_bucket_limit = 256;

class BucketProbe;

/// Answers without match_id (the caller maps match numbers to ids). `probe` finds the
/// band-key runs (CPU or GPU); verification and the in-batch walk run on the host.
std::vector<IndexAnswer> match_batch(const MatchSettings& settings, BucketProbe& probe,
                                     const std::vector<std::shared_ptr<const Segment>>& segments,
                                     const std::vector<uint32_t>& signatures,
                                     const std::vector<uint32_t>& set_sizes);

}  // namespace gpudedup::detail
