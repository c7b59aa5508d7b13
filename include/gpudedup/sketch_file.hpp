#pragma once
/// @file sketch_file.hpp
/// The signature file written by `gpudedup sketch` (docs/formats.md): a 64-byte header
/// that records everything the signatures depend on, then one record per document.
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "gpudedup/config.hpp"

namespace gpudedup {

constexpr char sketch_file_magic[8] = {'G', 'D', 'S', 'K', 'E', 'T', 'C', 'H'};
/// 2: the MinHash family folds shingle hashes to 32-bit keys (docs/performance.md).
/// 3: each record carries its record number, text length and set size, and the header the
/// shard's record count, how its ids were made and its name: what `dedup --from-sketches`
/// needs to give the answer of one run over every shard (the staged route); and the
/// normalization and the tokenizer the signatures were made with.
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
  /// Records read (documents and skipped records): a run over several shards numbers the
  /// records of a shard after all those of the shards before it.
  uint64_t records = 0;
  /// Each document's id is its record number (no id field): a run over several shards
  /// renumbers them as one run over all of them would.
  bool ids_are_record_numbers = false;
  /// The shard: the inputs the file was made from, as given, separated by spaces. The
  /// removed list of `dedup --from-sketches` names each document's shard by it.
  std::string shard;

  static SketchHeader from_config(const Config& config);
};

struct SketchRecord {
  std::string id;
  uint64_t record = 0;      ///< 0-based record number within the shard
  uint64_t text_bytes = 0;  ///< bytes of the text (what the keep policies compare)
  uint32_t set_size = 0;    ///< distinct shingles (0: an empty document); containment reads it
  std::vector<uint32_t> values;  ///< num_perm values; all 0xFFFFFFFF for an empty document
};

/// Writes the header and the shard name (documents and records as given; rewrite both at
/// the end with the final counts: the size does not change).
void write_sketch_header(std::ostream& out, const SketchHeader& h);
void write_sketch_record(std::ostream& out, const SketchRecord& where, const uint32_t* values, uint32_t num_perm);

/// Reads a sketch file record by record, in bounded memory.
class SketchFileReader {
 public:
  /// Opens the file and reads its header. @throws data_error naming the path for a
  /// missing, foreign, older or newer-version file or a corrupt header.
  explicit SketchFileReader(const std::string& path);
  ~SketchFileReader();
  SketchFileReader(const SketchFileReader&) = delete;
  SketchFileReader& operator=(const SketchFileReader&) = delete;
  const SketchHeader& header() const;
  /// Fills `record` (reusing its buffers) with the next record; false after the last.
  /// @throws data_error naming the path and the record for a truncated or corrupt one.
  bool next(SketchRecord& record);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Reads a whole sketch file (records: the values of each record are filled). @throws
/// data_error naming the path for a foreign, truncated, older or newer-version file.
SketchHeader read_sketch_file(const std::string& path, std::vector<SketchRecord>* records);

}  // namespace gpudedup
