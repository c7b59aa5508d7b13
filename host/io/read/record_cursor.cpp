// Record boundaries are decided here and only here, so the second pass (write_kept) numbers
// records exactly as the first pass did.
#include "host/io/read/record_cursor.hpp"

#include <string>

#include "host/io/read/line_reader.hpp"
#include "host/io/read/content_sniff.hpp"
#include "host/io/read/record_formats.hpp"

namespace gpudedup::io {
namespace {

bool is_blank(std::string_view s) {
  for (char c : s)
    if (c != ' ' && c != '\t' && c != '\r') return false;
  return true;
}

class LineCursor : public RecordCursor {
 public:
  LineCursor(Input& input, bool first_pass, size_t chunk_bytes)
      : input_(input), source_(open_input(input, first_pass, &checksum_)), lines_(*source_, chunk_bytes) {}

  bool next(RawRecord& r) override {
    std::string_view line;
    while (lines_.next(line)) {
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);  // CRLF files
      // A UTF-8 byte order mark opens some files (Windows editors): it is not part of the
      // first record, in either pass, so JSON parses and the kept copy starts clean.
      if (lines_.line_number() == 1 && input_.range.begin == 0 && line.substr(0, 3) == "\xEF\xBB\xBF") {
        // A file that is a byte order mark and nothing else is an empty file: no record.
        if (line.size() == 3 && lines_.bytes_read() == 3) return false;
        line.remove_prefix(3);
      }
      if (record_format(input_.format).json && is_blank(line)) {
        ++blank_;
        continue;
      }
      r.bytes = line;
      r.line = input_.range.first_line - 1 + lines_.line_number();  // the file's line (a range starts later)
      r.id = {};
      r.name = input_.name;
      return true;
    }
    return false;
  }
  uint64_t bytes_read() const override { return lines_.bytes_read(); }
  uint64_t blank_lines() const override { return blank_; }
  void read_to_end() override { checksum_.read_to_end(); }
  std::optional<uint64_t> checksum() const override { return checksum_.value(); }

 private:
  Input& input_;
  ContentChecksum checksum_;  // before the source it taps, which it must outlive
  std::unique_ptr<ByteSource> source_;
  LineReader lines_;
  uint64_t blank_ = 0;
};

/// A folder's file that is one document: its whole content; zstd and gzip content is
/// decompressed, whatever the name.
class WholeFileCursor : public RecordCursor {
 public:
  WholeFileCursor(Input& input, size_t chunk_bytes) : input_(input), chunk_bytes_(chunk_bytes) {}

  bool next(RawRecord& r) override {
    if (done_) return false;
    done_ = true;
    std::unique_ptr<ByteSource> source = open_input(input_, true, &checksum_);
    append_all(*source, content_, chunk_bytes_);
    bytes_ = content_.size();
    r.bytes = content_;
    r.line = 0;
    r.id = input_.relative;
    r.name = input_.name;
    return true;
  }
  uint64_t bytes_read() const override { return bytes_; }
  void read_to_end() override {}  // next() read it whole
  std::optional<uint64_t> checksum() const override { return checksum_.value(); }

 private:
  Input& input_;
  size_t chunk_bytes_;
  ContentChecksum checksum_;
  bool done_ = false;
  std::string content_;
  uint64_t bytes_ = 0;
};

}  // namespace

std::unique_ptr<RecordCursor> open_cursor(Input& input, bool first_pass, size_t chunk_bytes) {
  if (record_format(input.format).whole_file) return std::make_unique<WholeFileCursor>(input, chunk_bytes);
  return std::make_unique<LineCursor>(input, first_pass, chunk_bytes);
}

}  // namespace gpudedup::io
