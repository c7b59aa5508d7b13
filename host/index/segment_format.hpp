#pragma once
// One index segment on disk (docs/formats.md, "Index segment"): a 4 KiB header, the data
// sections, then a trailer of band fences and block checksums.
//
//   [header | signatures | set sizes | id offsets | id bytes | band keys | band docs |
//    fences | block checksums]
//
// The data region [header_bytes, fences_at) is checksummed in 64 KiB blocks that are
// verified lazily, on first touch, so opening a 100-GB segment reads only its header and
// trailer; the trailer and the header are verified at open.
#include <cstdint>
#include <type_traits>

namespace gpudedup::detail {

constexpr char segment_magic[8] = {'G', 'D', 'S', 'E', 'G', 'M', 'N', 'T'};
constexpr uint32_t segment_version = 1;
constexpr uint64_t segment_header_bytes = 4096;
constexpr uint64_t checksum_block_bytes = 64 * 1024;
/// One fence (the first key) per this many band entries: a probe binary-searches the
/// fences (verified at open), then one 32 KiB stretch of keys.
constexpr uint64_t fence_stride = 4096;

/// The header, stored as these bytes (little-endian hosts only, which every supported
/// platform is). header_checksum is XXH64 of the bytes before it.
struct SegmentHeader {
  char magic[8];
  uint32_t version;
  uint32_t num_perm;
  uint32_t bands;
  uint32_t rows;
  uint64_t params_hash;    ///< IndexParams::hash() of the index that wrote it
  uint64_t documents;
  uint64_t first_doc;      ///< number of its first document in the index
  uint64_t band_entries;   ///< documents with shingles: entries per band table
  uint64_t id_bytes;
  uint64_t file_bytes;
  uint64_t signatures_at;  ///< documents * num_perm uint32
  uint64_t set_sizes_at;   ///< documents uint32
  uint64_t id_offsets_at;  ///< documents + 1 uint64
  uint64_t id_bytes_at;
  uint64_t keys_at;        ///< bands * band_entries uint64, each band sorted
  uint64_t docs_at;        ///< bands * band_entries uint32 (local document of each key)
  uint64_t fences_at;      ///< bands * fences_per_band uint64; end of the data region
  uint64_t checksums_at;   ///< one XXH64 per 64 KiB block of the data region
  uint64_t trailer_checksum;  ///< XXH64 of [fences_at, file_bytes)
  uint64_t header_checksum;
};
static_assert(std::is_trivially_copyable_v<SegmentHeader>);
static_assert(sizeof(SegmentHeader) <= segment_header_bytes);

inline uint64_t align8(uint64_t x) { return (x + 7) & ~uint64_t(7); }
inline uint64_t fences_per_band(uint64_t band_entries) { return (band_entries + fence_stride - 1) / fence_stride; }
inline uint64_t checksum_blocks(uint64_t data_bytes) {
  return (data_bytes + checksum_block_bytes - 1) / checksum_block_bytes;
}

/// Whether the counts of `h` can describe a file of `file_bytes` (checked before
/// lay_out_segment, whose arithmetic would otherwise overflow on a crafted header).
inline bool segment_counts_fit(const SegmentHeader& h, uint64_t file_bytes) {
  auto fits = [](uint64_t a, uint64_t b, uint64_t limit) { return a == 0 || b <= limit / a; };
  if (h.band_entries > h.documents || h.num_perm > 65536 || file_bytes < segment_header_bytes) return false;
  uint64_t room = file_bytes - segment_header_bytes;
  const uint64_t per_doc = uint64_t(h.num_perm) * 4 + 12;  // signature, set size, id offset
  if (!fits(h.documents, per_doc, room)) return false;
  room -= h.documents * per_doc;
  if (!fits(uint64_t(h.bands) * 12, h.band_entries, room)) return false;
  room -= uint64_t(h.bands) * 12 * h.band_entries;
  return h.id_bytes <= room;
}

/// Fills the section offsets and file size of `h` from its counts.
inline void lay_out_segment(SegmentHeader& h) {
  uint64_t at = segment_header_bytes;
  h.signatures_at = at;
  at = align8(at + h.documents * h.num_perm * 4);
  h.set_sizes_at = at;
  at = align8(at + h.documents * 4);
  h.id_offsets_at = at;
  at += (h.documents + 1) * 8;
  h.id_bytes_at = at;
  at = align8(at + h.id_bytes);
  h.keys_at = at;
  at += uint64_t(h.bands) * h.band_entries * 8;
  h.docs_at = at;
  at = align8(at + uint64_t(h.bands) * h.band_entries * 4);
  h.fences_at = at;
  at += uint64_t(h.bands) * fences_per_band(h.band_entries) * 8;
  h.checksums_at = at;
  at += checksum_blocks(h.fences_at - segment_header_bytes) * 8;
  h.file_bytes = at;
}

}  // namespace gpudedup::detail
