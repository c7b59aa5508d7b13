#pragma once
// The index manifest (docs/formats.md, "Index"): a small text file naming the index's
// parameters and its live segments, ending in a checksum line. It is replaced whole by
// an atomic rename; its generation grows by one per published change.
#include <cstdint>
#include <string>
#include <vector>

#include "gpudedup/config.hpp"
#include "gpudedup/lsh.hpp"
#include "gpudedup/sketch_file.hpp"

namespace gpudedup::detail {

constexpr const char* manifest_name = "MANIFEST";
constexpr const char* stop_words_name = "STOPWORDS";
constexpr uint32_t index_format_version = 1;

/// What signatures and band keys depend on (the sketch file's header fields, whose
/// `version` and `documents` the index does not use), plus the default verification
/// settings.
struct IndexParams : SketchHeader {
  uint32_t bands = 0;
  uint32_t rows = 0;
  double threshold = 0;
  Similarity similarity = Similarity::jaccard;

  static IndexParams from_config(const Config& config, const LshParams& lsh);
  /// XXH64 of the encoded parameters: stamped into every segment header.
  uint64_t hash() const;
};

struct ManifestSegment {
  std::string file;          ///< e.g. seg-00000001.gds
  uint64_t documents = 0;
  uint64_t bytes = 0;        ///< file size
  uint64_t header_checksum = 0;
};

struct Manifest {
  IndexParams params;
  uint64_t generation = 0;
  uint64_t next_segment = 1;
  /// The number of the index's first document (Config::first_document_number when it was
  /// created); written only when not 0, so indexes numbered from 0 keep their manifest.
  uint64_t first_document = 0;
  std::vector<ManifestSegment> segments;
  uint64_t documents() const;
};

/// The file of segment `number`: seg-00000001.gds (at least 8 digits).
std::string segment_name(uint64_t number);
/// The number a segment file name spells the way segment_name() writes it; 0 for any
/// other name (segment numbers start at 1).
uint64_t segment_number(const std::string& name);

std::string encode_manifest(const Manifest& m);
/// Reads a manifest and validates it as data: parameters in range, segment names as the
/// index writes them, each number distinct and below `next_segment` (so no write can
/// replace a live segment). @throws data_error naming `path` for a foreign, newer-version
/// or corrupted manifest.
Manifest decode_manifest(const std::string& text, const std::string& path);

/// "" when `given` agrees with `stored`; else which parameter differs, in option words
/// ("--num-perm: the index has 256, you gave 128"), one per line.
std::string describe_param_mismatch(const IndexParams& stored, const IndexParams& given);

}  // namespace gpudedup::detail
