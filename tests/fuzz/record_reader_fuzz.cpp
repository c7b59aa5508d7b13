// The record reader end to end, as a run uses it: the fuzz input is one file (JSONL when
// the first byte is odd, text otherwise; gzip or zstd when its bytes say so). Whatever
// it holds, reading ends or throws gpudedup's own errors; records = documents + skipped;
// record numbers grow; and the second pass writes, for every document, a line of the
// input byte for byte.
#include <set>
#include <sstream>
#include <string>

#include "fuzz_support.hpp"
#include "gpudedup/errors.hpp"
#include "gpudedup/io.hpp"

using namespace gpudedup;

namespace {

/// The lines of `bytes`. Of an input (`input`): without the byte order mark that opens the
/// file (no part of the first record), and each line ending in CR also without it (the
/// reader writes a CRLF line with LF). An output is taken as it is: a kept record may
/// itself start with a second BOM or end in a CR.
std::set<std::string> lines_of(const std::string& bytes, bool input) {
  std::set<std::string> out;
  size_t at = 0;
  if (input && bytes.compare(0, 3, "\xEF\xBB\xBF") == 0) at = 3;  // a byte order mark is no part of the first record
  while (at < bytes.size()) {
    const size_t nl = bytes.find('\n', at);
    const std::string line = bytes.substr(at, nl == std::string::npos ? std::string::npos : nl - at);
    out.insert(line);
    if (input && !line.empty() && line.back() == '\r') out.insert(line.substr(0, line.size() - 1));
    at = nl == std::string::npos ? bytes.size() : nl + 1;
  }
  return out;
}

bool compressed(const uint8_t* data, size_t size) {
  return size >= 2 && ((data[0] == 0x1f && data[1] == 0x8b) || (size >= 4 && data[0] == 0x28 && data[1] == 0xb5));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const bool jsonl = data[0] & 1;
  ++data, --size;
  fuzz::TempFile file(data, size, jsonl ? ".jsonl" : ".txt");
  InputOptions options;
  options.paths = {file.path()};
  options.id_field = jsonl && (size & 1) ? "id" : "";
  try {
    RecordReader reader(options);
    InputBatch batch;
    uint64_t documents = 0, last_record = 0;
    while (reader.next(batch, 7, 1 << 16)) {
      for (size_t i = 0; i < batch.size(); ++i) {
        fuzz::require(documents == 0 || batch.records[i] > last_record, "record numbers do not grow");
        last_record = batch.records[i];
        ++documents;
      }
      fuzz::require(batch.ids.size() == batch.size() && batch.meta.size() == batch.size(), "a batch's parts differ in size");
    }
    const InputStats& s = reader.stats();
    fuzz::require(s.documents == documents, "stats count other documents than the batches hold");
    fuzz::require(s.records == s.documents + s.skipped, "records != documents + skipped");
    std::vector<uint8_t> keep(s.records, 0);
    for (uint64_t r = 0; r < s.records; ++r) keep[r] = 1;  // skipped records are never written
    std::ostringstream kept;
    reader.write_kept(keep, kept);
    const std::string out = kept.str();
    uint64_t lines = 0;
    for (char c : out) lines += c == '\n';
    fuzz::require(lines >= s.documents, "the second pass wrote fewer lines than there are documents");
    if (!compressed(data, size) && lines == s.documents) {
      const std::set<std::string> input = lines_of(std::string(reinterpret_cast<const char*>(data), size), true);
      for (const std::string& line : lines_of(out, false))
        fuzz::require(input.count(line) > 0, "a kept line is not a line of the input");
    }
  } catch (const data_error&) {
  } catch (const usage_error&) {  // a format gpudedup refuses (Parquet, binary, ...)
  }
  return 0;
}
