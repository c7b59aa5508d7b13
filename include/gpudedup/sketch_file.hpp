#pragma once
/// @file sketch_file.hpp
/// The signature file written by `gpudedup sketch` (docs/formats.md): a 64-byte header
/// that records everything the signatures depend on, then one record per document.
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "gpudedup/config.hpp"

namespace gpudedup {

constexpr char sketch_file_magic[8] = {'G', 'D', 'S', 'K', 'E', 'T', 'C', 'H'};
/// 2: the MinHash family folds shingle hashes to 32-bit keys (docs/performance.md).
/// 3: the header records the normalization and the tokenizer; a version 2 file is read as
///    what it was made with (ASCII-only case folding, simple tokens).
constexpr uint32_t sketch_file_version = 3;

/// What a signature depends on; two files are comparable only when these are equal.
struct SketchHeader {
  uint32_t version = sketch_file_version;
  uint32_t num_perm = 0;
  uint64_t seed = 0;
  ShingleKind shingle = ShingleKind::chars;
  uint32_t ngram = 0;
  bool remove_stop_words = false;
  bool stop_word_anchored = false;
  uint64_t stop_words_hash = 0;  ///< XXH64 of the sorted stop-word token hashes (0: none)
  NormalizeConfig normalize;
  Tokenizer tokenizer = Tokenizer::simple;
  uint64_t documents = 0;

  static SketchHeader from_config(const Config& config);
};

struct SketchRecord {
  std::string id;
  std::vector<uint32_t> values;  ///< num_perm values; all 0xFFFFFFFF for an empty document
};

/// Writes the header (documents as given; rewrite it at the end with the final count).
void write_sketch_header(std::ostream& out, const SketchHeader& h);
void write_sketch_record(std::ostream& out, const std::string& id, const uint32_t* values, uint32_t num_perm);

/// Reads a whole sketch file. @throws data_error naming the path for a foreign, truncated
/// or newer-version file.
SketchHeader read_sketch_file(const std::string& path, std::vector<SketchRecord>* records);

}  // namespace gpudedup
