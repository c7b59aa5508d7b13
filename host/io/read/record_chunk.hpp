#pragma once
// Records gathered from the inputs in order and parsed by several threads: the gathering
// thread copies raw records into a RawChunk (so that decompression and line splitting
// stay one sequential stage), parse_chunk() cuts it into slices of about equal bytes and
// parses each slice on its own thread; the reader then takes the parsed records back in
// input order, so numbers, ids and reports are those of a reader on one thread.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include "gpudedup/document_batch.hpp"
#include "host/io/read/json_fields.hpp"

namespace gpudedup::io {

/// Raw records back to back, each with its input (an index into the reader's inputs),
/// whether it is a JSONL line to parse, and its line number.
struct RawChunk {
  DocumentBatch records;
  std::vector<uint32_t> input;
  std::vector<uint8_t> jsonl;
  std::vector<uint64_t> line;
  /// What stopped the gathering after the last record (a file that failed under
  /// `strict`, or a named file that cannot be read): rethrown when the reader reaches it,
  /// so it comes exactly where a reader on one thread would throw it.
  std::exception_ptr error;

  size_t size() const { return records.size(); }
  void clear() {
    records.clear();
    input.clear();
    jsonl.clear();
    line.clear();
    error = nullptr;
  }
};

/// The records of one slice of a chunk, parsed. A usable record has its text, id (a JSONL
/// id field; empty otherwise) and metadata set at the next index of `texts`, `ids`,
/// `meta`; a bad one its problem at the next index of `problems`.
struct ParsedSlice {
  size_t begin = 0, end = 0;  ///< records [begin, end) of the chunk
  std::vector<uint8_t> usable;  ///< per record of the slice
  DocumentBatch texts;
  DocumentBatch ids;
  MetadataBatch meta;
  std::vector<std::string> problems;
};

/// The parsed slices of one chunk, in order, and where the reader has got to in them.
struct ParsedChunk {
  std::vector<ParsedSlice> slices;
  std::exception_ptr error;  ///< RawChunk::error, carried over
  size_t slice = 0;          ///< the slice being taken
  size_t record = 0;         ///< next record of that slice (0-based in the slice)
  size_t usable = 0;         ///< next usable record of that slice
  size_t bad = 0;            ///< next bad record of that slice

  bool done() const { return slice >= slices.size(); }
};

/// Parses `chunk` on `threads` threads (the caller's among them) into `out` (reset
/// first). Lines that are not JSONL are copied as they are.
void parse_chunk(const RawChunk& chunk, const FieldNames& names, unsigned threads, ParsedChunk& out);

}  // namespace gpudedup::io
