#pragma once
/// @file sketch_file.hpp
/// The signature file written by `gpudedup sketch` (docs/formats.md): a 64-byte header
/// that records everything the signatures depend on, then one record per document.
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
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
/// 4: the header is followed by each input file's path, record count and content checksum,
/// so that `gpudedup filter` can tell that a shard is the one the sketch read.
/// 5: the header records the MinHash family (`--sketch`, bits 2-3 of byte 25: 1 oph, 2 fss);
/// an older file was made by the classic family. A program that reads at most 4 refuses a
/// version 5 file rather than take OPH or fss values for classic ones, and one that knows
/// only oph refuses an fss file (an unknown flag).
constexpr uint32_t sketch_file_version = 5;
/// The oldest version read: 3 files have no input table (SketchHeader::inputs is empty).
constexpr uint32_t sketch_file_oldest_version = 3;

/// One input file of the shard, as the sketch pass read it.
struct SketchInput {
  std::string path;       ///< as read: the path given, or folder/relative for a folder's file
  uint64_t records = 0;   ///< records the pass took from it (documents and skipped records)
  /// XXH3-64 of its bytes as read (docs/input.md, "An input that changes during a run");
  /// empty for standard input and a file the pass could not read to its end.
  std::optional<uint64_t> checksum;
};

/// The first field of the lines of the `dedup --from-sketches` removed list that carry a
/// shard's input table (docs/formats.md): `#input<TAB>shard<TAB>path<TAB>records<TAB>checksum`,
/// five fields where a removed document's line has four.
constexpr char removed_list_input_marker[] = "#input";

/// What a signature depends on; two files are comparable only when these are equal.
struct SketchHeader {
  uint32_t version = sketch_file_version;
  uint32_t num_perm = 0;
  SketchFamily family = SketchFamily::classic;  ///< version 5; older files: classic
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
  /// Version 4: the shard's input files in reading order (empty in a version 3 file).
  std::vector<SketchInput> inputs;

  static SketchHeader from_config(const Config& config);
};

struct SketchRecord {
  std::string id;
  uint64_t record = 0;      ///< 0-based record number within the shard
  uint64_t text_bytes = 0;  ///< bytes of the text (what the keep policies compare)
  uint32_t set_size = 0;    ///< distinct shingles (0: an empty document); containment reads it
  std::vector<uint32_t> values;  ///< num_perm values; all 0xFFFFFFFF for an empty document
};

/// Writes the header, the shard name and, from version 4, the input table (counts and
/// checksums as given; rewrite it at the end with the final ones: the size does not change
/// while the input paths stay the same). A header with `version` 3 is written as a version 3
/// file (no input table), for tests of the older format.
void write_sketch_header(std::ostream& out, const SketchHeader& h);
void write_sketch_record(std::ostream& out, const SketchRecord& where, const uint32_t* values, uint32_t num_perm);

/// Reads a sketch file record by record, in bounded memory.
class SketchFileReader {
 public:
  /// Opens the file and reads its header. @throws data_error naming the path for a
  /// missing, foreign, older (before sketch_file_oldest_version) or newer-version file or a
  /// corrupt header.
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
