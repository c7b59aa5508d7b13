// The index segment reader (host/index/segment_reader.cpp) on segments whose checksums
// are right: the harness recomputes the block, trailer and header checksums of the fuzz
// bytes wherever the header's offsets lie inside them, so what is fuzzed is the reader's
// checking of counts and offsets behind the checksums. A segment it opens is read whole
// (every block, id, set size and band entry, a lookup per band) without reading outside
// the file; whatever is wrong is a data_error.
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>

#include "fuzz_support.hpp"
#include "gpudedup/detail/xxhash64.hpp"
#include "gpudedup/errors.hpp"
#include "host/index/manifest.hpp"
#include "host/index/segment_format.hpp"
#include "host/index/segment_reader.hpp"

using namespace gpudedup;
using namespace gpudedup::detail;

namespace {

uint64_t hash(const std::string& s, uint64_t from, uint64_t len) {
  return xxhash64(reinterpret_cast<const uint8_t*>(s.data()) + from, size_t(len), 0);
}

/// Recomputes the checksums of `seg` where its header's offsets allow.
SegmentHeader fix_checksums(std::string& seg) {
  SegmentHeader h;
  std::memcpy(&h, seg.data(), sizeof h);
  const uint64_t size = seg.size();
  if (h.fences_at >= segment_header_bytes && h.fences_at <= size && h.checksums_at <= size) {
    const uint64_t blocks = checksum_blocks(h.fences_at - segment_header_bytes);
    if (blocks <= (size - h.checksums_at) / 8) {
      for (uint64_t k = 0; k < blocks; ++k) {
        const uint64_t start = segment_header_bytes + k * checksum_block_bytes;
        const uint64_t sum = hash(seg, start, std::min(checksum_block_bytes, h.fences_at - start));
        std::memcpy(&seg[h.checksums_at + k * 8], &sum, 8);
      }
    }
    if (h.file_bytes >= h.fences_at && h.file_bytes <= size) h.trailer_checksum = hash(seg, h.fences_at, h.file_bytes - h.fences_at);
  }
  std::memcpy(seg.data(), &h, sizeof h);
  h.header_checksum = hash(seg, 0, offsetof(SegmentHeader, header_checksum));
  std::memcpy(seg.data(), &h, sizeof h);
  return h;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < segment_header_bytes) return 0;
  std::string seg(reinterpret_cast<const char*>(data), size);
  const SegmentHeader h = fix_checksums(seg);
  fuzz::TempFile file(reinterpret_cast<const uint8_t*>(seg.data()), seg.size(), ".gds");
  ManifestSegment listed;
  listed.file = segment_name(1);
  listed.documents = h.documents;
  listed.bytes = seg.size();
  listed.header_checksum = h.header_checksum;
  try {
    const auto s = Segment::open(file.path(), listed, {h.params_hash, h.num_perm, h.bands, h.rows}, h.first_doc);
    s->verify_all();
    uint64_t id_bytes = 0;
    for (uint64_t d = 0; d < s->documents(); ++d) {
      id_bytes += s->id(d).size();
      s->set_size(d);
      s->signature(d);
    }
    fuzz::require(id_bytes <= size, "ids longer than the file");
    for (uint32_t b = 0; b < h.bands; ++b) {
      for (uint64_t e = 0; e < h.band_entries; ++e) s->band_doc(b, e);
      if (h.band_entries > 0) s->find(b, s->band_keys(b)[0], 16);
      s->find(b, 0x9e3779b97f4a7c15ull, 16);
    }
  } catch (const data_error&) {
  }
  return 0;
}
