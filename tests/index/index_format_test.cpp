// The index on disk: foreign folders, version mismatches and corrupted manifests or
// segments are reported clearly, never answered silently wrong.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <functional>

#include "gpudedup/detail/xxhash64.hpp"
#include "gpudedup/errors.hpp"
#include "gpudedup/index.hpp"
#include "host/index/manifest.hpp"
#include "host/index/segment_format.hpp"
#include "support/files.hpp"
#include "support/index_test_support.hpp"

using namespace gpudedup;
using namespace index_test;
using test_support::read_file;
using test_support::write_file;

namespace {

struct Built {
  std::string dir;
  std::string segment;  // path of its one segment
  Docs docs;
};

Built build(const std::string& name) {
  Built b{fresh_dir(name), "", {}};
  std::mt19937_64 rng(9);
  for (int i = 0; i < 50; ++i) b.docs.add("d" + std::to_string(i), join(random_words(rng, 40)));
  Config c;
  c.minhash.num_perm = 64;
  Index idx = Index::create(b.dir, c);
  idx.insert(b.docs.batch, b.docs.ids);
  b.segment = b.dir + "/seg-00000001.gds";
  return b;
}

}  // namespace

TEST(IndexFormat, MissingAndForeignFolders) {
  EXPECT_NE(error_of([] { Index::open("index_test_tmp/no/such/index"); }).find("does not exist"), std::string::npos);
  const std::string empty = fresh_dir("empty");
  std::system(("mkdir -p " + empty).c_str());
  EXPECT_NE(error_of([&] { Index::open(empty); }).find("not a gpudedup index"), std::string::npos);
  write_file(empty + "/MANIFEST", "hello\n");
  EXPECT_NE(error_of([&] { Index::open(empty); }).find("not a gpudedup index manifest"), std::string::npos);
  EXPECT_THROW(Index::create(empty, Config{}), usage_error) << "create refuses a folder holding other files";
}

TEST(IndexFormat, VersionMismatchIsNamed) {
  const Built b = build("version");
  std::string m = read_file(b.dir + "/MANIFEST");
  m.replace(0, std::string("gpudedup-index 1").size(), "gpudedup-index 7");
  const auto at = m.rfind("checksum ");
  const uint64_t sum = detail::xxhash64(reinterpret_cast<const uint8_t*>(m.data()), at, 0);
  char line[40];
  std::snprintf(line, sizeof line, "checksum %016llx\n", static_cast<unsigned long long>(sum));
  write_file(b.dir + "/MANIFEST", m.substr(0, at) + line);
  EXPECT_NE(error_of([&] { Index::open(b.dir); }).find("format version 7"), std::string::npos);
}

TEST(IndexFormat, CorruptedManifestIsRefused) {
  const Built b = build("manifest");
  std::string m = read_file(b.dir + "/MANIFEST");
  const auto at = m.find("generation ") + 11;
  m[at] = m[at] == '1' ? '2' : '1';
  write_file(b.dir + "/MANIFEST", m);
  EXPECT_NE(error_of([&] { Index::open(b.dir); }).find("checksum mismatch"), std::string::npos);
  write_file(b.dir + "/MANIFEST", m.substr(0, m.size() / 2));
  EXPECT_NE(error_of([&] { Index::open(b.dir); }).find("corrupted"), std::string::npos);
}

TEST(IndexFormat, CorruptedSegmentDataIsFoundOnReadAndByVerify) {
  const Built b = build("segdata");
  std::string seg = read_file(b.segment);
  seg[4096 + 100] ^= 0x01;  // inside the first signature rows
  write_file(b.segment, seg);
  const Index idx = Index::open(b.dir);  // lazily verified: opening is still fine
  EXPECT_NE(error_of([&] { idx.verify(); }).find("checksum mismatch in block 0"), std::string::npos);
  // A query that reads that block fails instead of answering from flipped bits.
  EXPECT_NE(error_of([&] { idx.query(b.docs.batch, b.docs.ids); }).find("corrupted"), std::string::npos);
}

TEST(IndexFormat, CorruptedHeaderTrailerOrSizeIsFoundAtOpen) {
  {
    const Built b = build("seghead");
    std::string seg = read_file(b.segment);
    seg[20] ^= 0x10;
    write_file(b.segment, seg);
    EXPECT_NE(error_of([&] { Index::open(b.dir); }).find("header checksum"), std::string::npos);
  }
  {
    const Built b = build("segtrail");
    std::string seg = read_file(b.segment);
    seg[seg.size() - 3] ^= 0x10;
    write_file(b.segment, seg);
    EXPECT_NE(error_of([&] { Index::open(b.dir); }).find("trailer checksum"), std::string::npos);
  }
  {
    const Built b = build("segsize");
    const std::string seg = read_file(b.segment);
    write_file(b.segment, seg.substr(0, seg.size() - 8));
    EXPECT_NE(error_of([&] { Index::open(b.dir); }).find("size"), std::string::npos);
  }
  {
    const Built b = build("segmissing");
    std::remove(b.segment.c_str());
    EXPECT_NE(error_of([&] { Index::open(b.dir); }).find("incomplete"), std::string::npos);
  }
}

TEST(IndexFormat, StatsCountBytesPerDocument) {
  const Built b = build("stats");
  const IndexStats s = Index::open(b.dir).stats();
  EXPECT_EQ(s.documents, 50u);
  EXPECT_EQ(s.segments, 1u);
  // Signatures (4 P bytes) dominate; the band tables add 12 bytes per band.
  EXPECT_GT(s.bytes_per_document, 4.0 * 64);
  EXPECT_LT(s.bytes_per_document, 4.0 * 64 + 12.0 * s.lsh.bands + 4096.0 * 3 / 50 + 64);
}

TEST(IndexFormat, CraftedSegmentWithValidChecksumsCannotReadOutsideIt) {
  // A band table entry naming a document far past the end, with every checksum (block,
  // trailer, header, manifest) recomputed: the reader must refuse, not read out of bounds.
  const Built b = build("crafted");
  std::string seg = read_file(b.segment);
  detail::SegmentHeader h;
  std::memcpy(&h, seg.data(), sizeof h);
  const uint32_t bogus = 0x7ffffff0;
  for (uint64_t e = 0; e < h.band_entries * h.bands; ++e) std::memcpy(&seg[h.docs_at + e * 4], &bogus, 4);
  auto hash = [&](uint64_t from, uint64_t len) {
    return detail::xxhash64(reinterpret_cast<const uint8_t*>(seg.data()) + from, size_t(len), 0);
  };
  const uint64_t blocks = detail::checksum_blocks(h.fences_at - detail::segment_header_bytes);
  for (uint64_t k = 0; k < blocks; ++k) {
    const uint64_t start = detail::segment_header_bytes + k * detail::checksum_block_bytes;
    const uint64_t sum = hash(start, std::min(detail::checksum_block_bytes, h.fences_at - start));
    std::memcpy(&seg[h.checksums_at + k * 8], &sum, 8);
  }
  h.trailer_checksum = hash(h.fences_at, h.file_bytes - h.fences_at);
  std::memcpy(seg.data(), &h, sizeof h);
  h.header_checksum = hash(0, offsetof(detail::SegmentHeader, header_checksum));
  std::memcpy(seg.data(), &h, sizeof h);
  write_file(b.segment, seg);
  auto m = detail::decode_manifest(read_file(b.dir + "/MANIFEST"), b.dir);
  m.segments[0].header_checksum = h.header_checksum;
  write_file(b.dir + "/MANIFEST", detail::encode_manifest(m));

  const Index idx = Index::open(b.dir);
  idx.verify();  // every checksum is right
  EXPECT_NE(error_of([&] { idx.query(b.docs.batch, b.docs.ids); }).find("names document"), std::string::npos);
}
