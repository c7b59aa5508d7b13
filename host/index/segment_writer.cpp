#include "host/index/segment_writer.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <utility>

#include "gpudedup/detail/minhash.hpp"
#include "gpudedup/detail/xxhash64.hpp"
#include "gpudedup/errors.hpp"
#include "host/core/parallel_errors.hpp"
#include "host/index/durable_file.hpp"
#include "host/index/segment_reader.hpp"

namespace gpudedup::detail {
namespace {

// A segment file being written: sections go in by pwrite at their offsets; finish()
// reads the data region back (page cache) for fences and block checksums.
class SegmentFile {
 public:
  SegmentFile(std::string path, SegmentHeader h) : path_(std::move(path)), h_(h) {
    std::memcpy(h_.magic, segment_magic, sizeof h_.magic);
    h_.version = segment_version;
    lay_out_segment(h_);
    fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);  // a name of its own
    if (fd_ < 0) fail("cannot create");
    if (::ftruncate(fd_, off_t(h_.file_bytes)) != 0) fail("cannot size");
  }
  ~SegmentFile() {
    if (fd_ >= 0) {
      ::close(fd_);
      ::unlink(path_.c_str());  // not finished: leave nothing behind
    }
  }
  const SegmentHeader& header() const { return h_; }

  void write(uint64_t offset, const void* data, uint64_t bytes) {
    const char* p = static_cast<const char*>(data);
    while (bytes > 0) {
      const ssize_t n = ::pwrite(fd_, p, size_t(std::min<uint64_t>(bytes, 1u << 30)), off_t(offset));
      if (n < 0) {
        if (errno == EINTR) continue;
        fail("cannot write");
      }
      p += n;
      offset += uint64_t(n);
      bytes -= uint64_t(n);
    }
  }

  SegmentHeader finish(int threads) {
    void* m = ::mmap(nullptr, h_.file_bytes, PROT_READ, MAP_SHARED, fd_, 0);
    if (m == MAP_FAILED) fail("cannot map");
    const uint8_t* base = static_cast<const uint8_t*>(m);
    const uint64_t n = h_.band_entries;
    const uint64_t per_band = fences_per_band(n);
    std::vector<uint64_t> trailer(uint64_t(h_.bands) * per_band);
    for (uint64_t b = 0; b < h_.bands; ++b) {
      const auto* keys = reinterpret_cast<const uint64_t*>(base + h_.keys_at) + b * n;
      for (uint64_t f = 0; f < per_band; ++f) trailer[b * per_band + f] = keys[f * fence_stride];
    }
    const uint64_t data_bytes = h_.fences_at - segment_header_bytes;
    const int64_t blocks = int64_t(checksum_blocks(data_bytes));
    const size_t checksums_from = trailer.size();
    trailer.resize(trailer.size() + size_t(blocks));
    detail::ParallelErrors errors;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t b = 0; b < blocks; ++b) errors.run([&] {
      const uint64_t start = segment_header_bytes + uint64_t(b) * checksum_block_bytes;
      const uint64_t len = std::min(checksum_block_bytes, h_.fences_at - start);
      trailer[checksums_from + size_t(b)] = xxhash64(base + start, size_t(len), 0);
    });
    ::munmap(m, h_.file_bytes);
    errors.rethrow();
    const uint64_t trailer_bytes = trailer.size() * 8;
    write(h_.fences_at, trailer.data(), trailer_bytes);
    h_.trailer_checksum = xxhash64(reinterpret_cast<const uint8_t*>(trailer.data()), size_t(trailer_bytes), 0);
    h_.header_checksum = xxhash64(reinterpret_cast<const uint8_t*>(&h_), offsetof(SegmentHeader, header_checksum), 0);
    std::vector<uint8_t> header(segment_header_bytes, 0);
    std::memcpy(header.data(), &h_, sizeof h_);
    write(0, header.data(), header.size());
    fsync_fd(fd_, path_);
    ::close(fd_);
    fd_ = -1;
    return h_;
  }

 private:
  [[noreturn]] void fail(const char* what) {
    throw data_error(std::string(what) + " index segment " + path_ + ": " + std::strerror(errno));
  }
  std::string path_;
  SegmentHeader h_{};
  int fd_ = -1;
};

SegmentHeader base_header(const SegmentBase& base, uint64_t documents, uint64_t band_entries, uint64_t id_bytes) {
  SegmentHeader h{};
  h.num_perm = base.num_perm;
  h.bands = base.bands;
  h.rows = base.rows;
  h.params_hash = base.params_hash;
  h.first_doc = base.first_doc;
  h.documents = documents;
  h.band_entries = band_entries;
  h.id_bytes = id_bytes;
  return h;
}

// Buffered sequential writes into one section of the file.
class SectionStream {
 public:
  SectionStream(SegmentFile& file, uint64_t offset) : file_(file), offset_(offset) {}
  // No flush in the destructor: a write error must throw, and destructors cannot.
  template <class T>
  void put(const T& v) {
    const auto* p = reinterpret_cast<const char*>(&v);
    buf_.insert(buf_.end(), p, p + sizeof v);
    if (buf_.size() >= (1u << 20)) flush();
  }
  void flush() {
    file_.write(offset_, buf_.data(), buf_.size());
    offset_ += buf_.size();
    buf_.clear();
  }

 private:
  SegmentFile& file_;
  uint64_t offset_;
  std::vector<char> buf_;
};

}  // namespace

SegmentHeader write_segment(const std::string& path, const SegmentBase& base, const SegmentRows& rows,
                            int threads) {
  const uint64_t n = rows.documents;
  const uint32_t P = base.num_perm;
  if (n >= UINT32_MAX) throw usage_error("an index batch holds at most 4294967294 documents: split it");
  std::vector<uint32_t> nonempty;
  for (uint64_t d = 0; d < n; ++d)
    if (rows.set_sizes[d] > 0) nonempty.push_back(uint32_t(d));
  std::vector<uint64_t> id_offsets(n + 1, 0);
  for (uint64_t d = 0; d < n; ++d) id_offsets[d + 1] = id_offsets[d] + (*rows.ids)[d].size();

  SegmentFile file(path, base_header(base, n, nonempty.size(), id_offsets[n]));
  const SegmentHeader& h = file.header();
  file.write(h.signatures_at, rows.signatures, n * P * 4);
  file.write(h.set_sizes_at, rows.set_sizes, n * 4);
  file.write(h.id_offsets_at, id_offsets.data(), (n + 1) * 8);
  {
    SectionStream ids(file, h.id_bytes_at);
    for (const auto& id : *rows.ids)
      for (char c : id) ids.put(c);
    ids.flush();
  }
  // Each band's (key, document) entries sorted by key, then document; computed in
  // parallel, written after (a failed write throws, which must not happen in a team).
  const int64_t bands = base.bands;
  std::vector<std::vector<uint64_t>> keys(static_cast<size_t>(bands));
  std::vector<std::vector<uint32_t>> docs(static_cast<size_t>(bands));
  detail::ParallelErrors errors;  // out of memory: rethrown after the team ends
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (int64_t b = 0; b < bands; ++b) errors.run([&] {
    std::vector<std::pair<uint64_t, uint32_t>> entries;
    entries.reserve(nonempty.size());
    for (uint32_t d : nonempty) {
      const uint32_t* values = rows.signatures + uint64_t(d) * P + uint64_t(b) * base.rows;
      entries.emplace_back(band_key(values, base.rows, uint32_t(b)), d);
    }
    std::sort(entries.begin(), entries.end());
    for (const auto& [key, doc] : entries) {
      keys[size_t(b)].push_back(key);
      docs[size_t(b)].push_back(doc);
    }
  });
  errors.rethrow();
  for (int64_t b = 0; b < bands; ++b) {
    file.write(h.keys_at + uint64_t(b) * h.band_entries * 8, keys[size_t(b)].data(), h.band_entries * 8);
    file.write(h.docs_at + uint64_t(b) * h.band_entries * 4, docs[size_t(b)].data(), h.band_entries * 4);
  }
  return file.finish(threads);
}

SegmentHeader merge_segments(const std::string& path, const SegmentBase& base,
                             const std::vector<std::shared_ptr<const Segment>>& inputs, int threads) {
  uint64_t documents = 0, band_entries = 0, id_bytes = 0;
  std::vector<uint64_t> doc_base;  // each input's first document in the merged segment
  for (const auto& s : inputs) {
    doc_base.push_back(documents);
    documents += s->documents();
    band_entries += s->header().band_entries;
    id_bytes += s->header().id_bytes;
  }
  SegmentFile file(path, base_header(base, documents, band_entries, id_bytes));
  const SegmentHeader& h = file.header();
  const uint32_t P = base.num_perm;
  uint64_t id_at = 0;
  {
    SectionStream offsets(file, h.id_offsets_at);
    offsets.put(uint64_t(0));
    for (size_t i = 0; i < inputs.size(); ++i) {
      const Segment& s = *inputs[i];
      const uint64_t n = s.documents();
      file.write(h.signatures_at + doc_base[i] * P * 4, s.signatures(0, n), n * P * 4);
      file.write(h.set_sizes_at + doc_base[i] * 4, s.set_sizes(), n * 4);
      file.write(h.id_bytes_at + id_at, s.id_bytes(), s.header().id_bytes);
      const uint64_t* off = s.id_offsets();
      for (uint64_t d = 1; d <= n; ++d) offsets.put(id_at + off[d]);
      id_at += s.header().id_bytes;
    }
    offsets.flush();
  }
  // Per band, a k-way merge of the sorted inputs; equal keys keep input order, which is
  // document order, so the result is sorted by (key, document) like a fresh segment.
  for (uint32_t b = 0; b < base.bands; ++b) {
    std::vector<const uint64_t*> keys(inputs.size());
    std::vector<const uint32_t*> docs(inputs.size());
    std::vector<uint64_t> pos(inputs.size(), 0);
    for (size_t i = 0; i < inputs.size(); ++i) {
      keys[i] = inputs[i]->band_keys(b);
      docs[i] = inputs[i]->band_docs(b);
    }
    SectionStream out_keys(file, h.keys_at + uint64_t(b) * band_entries * 8);
    SectionStream out_docs(file, h.docs_at + uint64_t(b) * band_entries * 4);
    for (uint64_t k = 0; k < band_entries; ++k) {
      size_t best = inputs.size();
      for (size_t i = 0; i < inputs.size(); ++i) {
        if (pos[i] == inputs[i]->header().band_entries) continue;
        if (best == inputs.size() || keys[i][pos[i]] < keys[best][pos[best]]) best = i;
      }
      out_keys.put(keys[best][pos[best]]);
      out_docs.put(uint32_t(docs[best][pos[best]] + doc_base[best]));
      ++pos[best];
    }
    out_keys.flush();
    out_docs.flush();
  }
  return file.finish(threads);
}

}  // namespace gpudedup::detail
