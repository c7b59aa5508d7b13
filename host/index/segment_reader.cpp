#include "host/index/segment_reader.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "gpudedup/detail/sorted_run.hpp"
#include "gpudedup/detail/xxhash64.hpp"
#include "gpudedup/errors.hpp"
#include "host/index/manifest.hpp"

namespace gpudedup::detail {
namespace {

[[noreturn]] void corrupt(const std::string& path, const std::string& what) {
  throw data_error("index segment " + path + " is corrupted (" + what +
                   "): restore the index folder from a backup or rebuild the index");
}

uint64_t hash_bytes(const uint8_t* p, uint64_t n) { return xxhash64(p, size_t(n), 0); }

// Band keys are XXH64 values, uniform over 64 bits: interpolation puts a key within a few
// dozen places of its position, so a probe touches 2-3 cache lines instead of the 12 of a
// binary search over a stretch. Same result as std::lower_bound (the window is checked to
// bracket the answer; otherwise the whole range is searched).
uint64_t lower_bound_uniform(const uint64_t* keys, uint64_t count, uint64_t key) {
  if (count == 0 || key <= keys[0]) return 0;
  if (key > keys[count - 1]) return count;
  const double share = double(key - keys[0]) / double(keys[count - 1] - keys[0]);
  const uint64_t guess = std::min<uint64_t>(count - 1, uint64_t(share * double(count - 1)));
  constexpr uint64_t window = 48;
  const uint64_t lo = guess > window ? guess - window : 0;
  const uint64_t hi = std::min(count, guess + window);
  if (keys[lo] < key && (hi == count || keys[hi] >= key)) {
    return uint64_t(std::lower_bound(keys + lo + 1, keys + hi, key) - keys);
  }
  return uint64_t(std::lower_bound(keys, keys + count, key) - keys);
}

}  // namespace

std::shared_ptr<const Segment> Segment::open(const std::string& path, const ManifestSegment& listed,
                                             const SegmentExpect& expect, uint64_t first_doc) {
  const uint64_t params_hash = expect.params_hash;
  std::shared_ptr<Segment> s(new Segment());
  s->path_ = path;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    throw data_error("cannot open index segment " + path + ": " + std::strerror(errno) +
                     (errno == ENOENT ? " (the manifest lists it: the index folder is incomplete)" : ""));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    throw data_error("cannot stat index segment " + path + ": " + std::strerror(errno));
  }
  if (uint64_t(st.st_size) != listed.bytes) {
    ::close(fd);
    corrupt(path, "its size is " + std::to_string(st.st_size) + " bytes, the manifest says " +
                      std::to_string(listed.bytes));
  }
  if (listed.bytes < segment_header_bytes) {
    ::close(fd);
    corrupt(path, "shorter than a header");
  }
  void* p = ::mmap(nullptr, listed.bytes, PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);  // the mapping keeps the file
  if (p == MAP_FAILED) throw data_error("cannot map index segment " + path + ": " + std::strerror(errno));
  s->base_ = static_cast<const uint8_t*>(p);
  s->mapped_ = listed.bytes;
  ::madvise(p, listed.bytes, MADV_RANDOM);

  SegmentHeader& h = s->h_;
  std::memcpy(&h, s->base_, sizeof h);
  if (std::memcmp(h.magic, segment_magic, sizeof h.magic) != 0) {
    throw data_error(path + " is not a gpudedup index segment");
  }
  if (h.version != segment_version) {
    throw data_error("index segment " + path + " has version " + std::to_string(h.version) +
                     "; this gpudedup reads version " + std::to_string(segment_version));
  }
  const uint64_t header_sum = hash_bytes(s->base_, offsetof(SegmentHeader, header_checksum));
  if (header_sum != h.header_checksum) corrupt(path, "header checksum mismatch");
  if (h.header_checksum != listed.header_checksum) {
    corrupt(path, "it is not the segment the manifest names (header checksum differs)");
  }
  if (h.params_hash != params_hash || h.num_perm != expect.num_perm || h.bands != expect.bands ||
      h.rows != expect.rows) {
    corrupt(path, "written for other index parameters");
  }
  if (!segment_counts_fit(h, listed.bytes)) corrupt(path, "its counts do not fit its size");
  if (h.documents != listed.documents || h.first_doc != first_doc) corrupt(path, "document counts differ");
  SegmentHeader layout = h;
  lay_out_segment(layout);
  if (std::memcmp(&layout, &h, offsetof(SegmentHeader, trailer_checksum)) != 0 || h.file_bytes != listed.bytes) {
    corrupt(path, "section table does not match its counts");
  }
  if (hash_bytes(s->base_ + h.fences_at, h.file_bytes - h.fences_at) != h.trailer_checksum) {
    corrupt(path, "trailer checksum mismatch");
  }
  s->fences_ = reinterpret_cast<const uint64_t*>(s->base_ + h.fences_at);
  s->checksums_ = reinterpret_cast<const uint64_t*>(s->base_ + h.checksums_at);
  s->blocks_ = checksum_blocks(h.fences_at - segment_header_bytes);
  s->verified_.reset(new std::atomic<uint64_t>[s->blocks_ / 64 + 1]);
  for (uint64_t i = 0; i < s->blocks_ / 64 + 1; ++i) s->verified_[i].store(0, std::memory_order_relaxed);
  return s;
}

Segment::~Segment() {
  if (base_) ::munmap(const_cast<uint8_t*>(base_), mapped_);
}

void Segment::ensure(uint64_t offset, uint64_t bytes) const {
  if (bytes == 0) return;
  // Checksums make a damaged file fail, not a crafted one: bound every read as well.
  if (offset < segment_header_bytes || offset > h_.fences_at || bytes > h_.fences_at - offset) {
    corrupt(path_, "a read at byte " + std::to_string(offset) + " falls outside its data region");
  }
  const uint64_t first = (offset - segment_header_bytes) / checksum_block_bytes;
  const uint64_t last = (offset + bytes - 1 - segment_header_bytes) / checksum_block_bytes;
  for (uint64_t b = first; b <= last; ++b) {
    const uint64_t bit = uint64_t(1) << (b % 64);
    if (verified_[b / 64].load(std::memory_order_relaxed) & bit) continue;
    const uint64_t start = segment_header_bytes + b * checksum_block_bytes;
    const uint64_t len = std::min(checksum_block_bytes, h_.fences_at - start);
    // One read of the whole block instead of a page fault per 4 KiB (the mapping is
    // MADV_RANDOM, so the kernel would not read ahead on its own). Blocks start on page
    // boundaries: the header is 4 KiB and blocks are 64 KiB.
    ::madvise(const_cast<uint8_t*>(base_) + start, len, MADV_WILLNEED);
    if (hash_bytes(base_ + start, len) != checksums_[b]) {
      corrupt(path_, "checksum mismatch in block " + std::to_string(b) + " at byte " + std::to_string(start));
    }
    verified_[b / 64].fetch_or(bit, std::memory_order_relaxed);
  }
}

const uint32_t* Segment::signatures(uint64_t first, uint64_t count) const {
  if (first > h_.documents || count > h_.documents - first) corrupt(path_, "signature rows out of range");
  return at<uint32_t>(h_.signatures_at + first * h_.num_perm * 4, count * h_.num_perm);
}
const uint32_t* Segment::set_sizes() const { return at<uint32_t>(h_.set_sizes_at, h_.documents); }
uint32_t Segment::set_size(uint64_t local) const {
  if (local >= h_.documents) corrupt(path_, "set size out of range");
  return *at<uint32_t>(h_.set_sizes_at + local * 4, 1); }
const uint64_t* Segment::id_offsets() const { return at<uint64_t>(h_.id_offsets_at, h_.documents + 1); }
const char* Segment::id_bytes() const { return at<char>(h_.id_bytes_at, h_.id_bytes); }

std::string_view Segment::id(uint64_t local) const {
  if (local >= h_.documents) corrupt(path_, "id out of range");
  const uint64_t* off = at<uint64_t>(h_.id_offsets_at + local * 8, 2);
  if (off[0] > off[1] || off[1] > h_.id_bytes) corrupt(path_, "bad id offsets");
  return {at<char>(h_.id_bytes_at + off[0], off[1] - off[0]), size_t(off[1] - off[0])};
}

const uint64_t* Segment::band_keys(uint32_t band) const {
  return at<uint64_t>(h_.keys_at + uint64_t(band) * h_.band_entries * 8, h_.band_entries);
}
const uint32_t* Segment::band_docs(uint32_t band) const {
  return at<uint32_t>(h_.docs_at + uint64_t(band) * h_.band_entries * 4, h_.band_entries);
}

std::string segment_key(const Segment& s) { return s.path() + "#" + std::to_string(s.header().header_checksum); }
uint64_t segment_band_entries(const Segment& s) { return s.header().band_entries; }
const uint64_t* segment_band_keys(const Segment& s, uint32_t band) { return s.band_keys(band); }

uint64_t Segment::lower_bound_in_stretch(uint32_t band, uint64_t stretch, uint64_t key) const {
  const uint64_t n = h_.band_entries;
  const uint64_t first = stretch * fence_stride;
  const uint64_t count = std::min(fence_stride, n - first);
  const uint64_t* keys = at<uint64_t>(h_.keys_at + (uint64_t(band) * n + first) * 8, count);
  return first + lower_bound_uniform(keys, count, key);
}

BucketRange Segment::find(uint32_t band, uint64_t key, uint32_t limit) const {
  const uint64_t n = h_.band_entries;
  if (n == 0 || limit == 0) return {};
  // The first stretch whose first key is >= key; the run may begin in the one before.
  const uint64_t per_band = fences_per_band(n);
  const uint64_t stretch = lower_bound_u64(fences_ + band * per_band, 0, per_band, key);
  const uint64_t pos = stretch > 0 ? lower_bound_in_stretch(band, stretch - 1, key) : 0;
  const uint64_t span = std::min<uint64_t>(limit, n - pos);
  const uint64_t* keys = at<uint64_t>(h_.keys_at + (uint64_t(band) * n + pos) * 8, span);
  return {pos, run_length(keys, span, 0, key, limit)};
}

uint32_t Segment::band_doc(uint32_t band, uint64_t pos) const {
  const uint32_t doc = *at<uint32_t>(h_.docs_at + (uint64_t(band) * h_.band_entries + pos) * 4, 1);
  if (doc >= h_.documents) corrupt(path_, "a band table names document " + std::to_string(doc));
  return doc;
}

void Segment::verify_all() const {
  if (h_.fences_at > segment_header_bytes) ensure(segment_header_bytes, h_.fences_at - segment_header_bytes);
}

}  // namespace gpudedup::detail
