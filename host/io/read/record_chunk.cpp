// Slices are cut at record boundaries by bytes, not by count: a chunk may hold one huge
// line among thousands of short ones, and each thread should parse about as much.
#include "host/io/read/record_chunk.hpp"

#include <algorithm>
#include <system_error>
#include <thread>

#include "host/io/read/jsonl_parser.hpp"

namespace gpudedup::io {
namespace {

void parse_slice(const RawChunk& chunk, const FieldNames& names, ParsedSlice& s) {
  JsonlParser parser(names);  // one per thread: simdjson's parser is not shared
  RecordFields fields;
  std::string problem;
  s.usable.reserve(s.end - s.begin);
  for (size_t i = s.begin; i < s.end; ++i) {
    const std::string_view bytes = chunk.records.text(i);
    if (!chunk.jsonl[i]) {
      s.usable.push_back(1);
      s.texts.add(bytes);
      s.ids.add({});
      s.meta.end_set();
      continue;
    }
    if (!parser.parse(bytes, fields, problem)) {
      s.usable.push_back(0);
      s.problems.push_back(problem);
      continue;
    }
    s.usable.push_back(1);
    s.texts.add(fields.text);
    s.ids.add(names.id.empty() ? std::string_view() : fields.id);
    if (fields.meta) {
      for (size_t k = 0; k < fields.meta->size(); ++k) s.meta.add_element((*fields.meta)[k]);
    }
    s.meta.end_set();
  }
}

}  // namespace

void parse_chunk(const RawChunk& chunk, const FieldNames& names, unsigned threads, ParsedChunk& out) {
  // The slices' buffers are kept from the chunk before: growing fresh ones for every
  // chunk costs more in page faults than the parse.
  for (ParsedSlice& s : out.slices) {
    s.usable.clear();
    s.texts.clear();
    s.ids.clear();
    s.meta.clear();
    s.problems.clear();
  }
  out.error = chunk.error;
  out.slice = out.record = out.usable = out.bad = 0;
  const size_t n = chunk.size();
  const size_t parts = n == 0 ? 0 : std::max<size_t>(1, std::min<size_t>(threads, n));
  out.slices.resize(parts);
  if (n == 0) return;
  const uint64_t total = chunk.records.offsets[n];
  size_t begin = 0;
  for (size_t p = 0; p < parts; ++p) {
    size_t end = n;
    if (p + 1 < parts) {
      // The first record that ends past this slice's share of the bytes closes it; every
      // slice keeps at least one record so that none is left for the last alone.
      const uint64_t target = total * (p + 1) / parts;
      end = begin + 1;
      while (end < n - (parts - p - 1) && chunk.records.offsets[end] < target) ++end;
    }
    out.slices[p].begin = begin;
    out.slices[p].end = end;
    begin = end;
  }
  std::vector<std::thread> helpers;
  helpers.reserve(parts - 1);
  std::vector<std::exception_ptr> failed(parts);
  auto parse = [&](size_t p) {
    try {
      parse_slice(chunk, names, out.slices[p]);
    } catch (...) {
      failed[p] = std::current_exception();
    }
  };
  std::vector<size_t> here{0};  // slices this thread parses
  for (size_t p = 1; p < parts; ++p) {
    try {
      helpers.emplace_back(parse, p);
    } catch (const std::system_error&) {  // no thread to be had (memory limit): parse it here
      here.push_back(p);
    }
  }
  for (size_t p : here) parse(p);
  for (auto& t : helpers) t.join();
  for (const auto& e : failed)
    if (e) std::rethrow_exception(e);  // out of memory: not a record's fault
}

}  // namespace gpudedup::io
