// The manifest is validated as data, not trusted: manifests with valid checksums but
// inconsistent contents (crafted with encode_manifest) are refused as a corrupted index,
// exit 1 naming the index, and no writer replaces or deletes a segment because of them.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <functional>
#include <limits>

#include "gpudedup/errors.hpp"
#include "gpudedup/index.hpp"
#include "host/index/manifest.hpp"
#include "support/files.hpp"
#include "support/index_test_support.hpp"
#include "support/program.hpp"

using namespace gpudedup;
using namespace index_test;
using test_support::read_file;
using test_support::write_file;
namespace fs = std::filesystem;

namespace {

IndexOpenOptions writer() {
  IndexOpenOptions o;
  o.mode = IndexMode::read_write;
  return o;
}

/// An index of `batches` inserts of 20 documents each (one segment per insert: fewer
/// than Index::merge_width, so none is merged). Its folder is absolute, for the program.
std::string build(const std::string& name, int batches) {
  const std::string dir = fs::absolute(fresh_dir(name)).string();
  Config c;
  c.minhash.num_perm = 64;
  Index idx = Index::create(dir, c);
  std::mt19937_64 rng(5);
  for (int b = 0; b < batches; ++b) {
    Docs docs;
    for (int i = 0; i < 20; ++i) docs.add("b" + std::to_string(b) + "-" + std::to_string(i), join(random_words(rng, 30)));
    idx.insert(docs.batch, docs.ids);
  }
  return dir;
}

detail::Manifest manifest_of(const std::string& dir) {
  return detail::decode_manifest(read_file(dir + "/MANIFEST"), dir + "/MANIFEST");
}

void write_manifest(const std::string& dir, const detail::Manifest& m) {
  write_file(dir + "/MANIFEST", detail::encode_manifest(m));  // a valid checksum
}

/// Every file of the folder and its bytes.
std::map<std::string, std::string> files_of(const std::string& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename() != "LOCK") out[e.path().filename().string()] = read_file(e.path().string());
  return out;
}

/// `gpudedup index add DIR` of a small new file; its exit code, stderr in *err.
int cli_add(const std::string& dir, std::string* err) {
  const std::string input = dir + ".more.txt";
  write_file(input, "a document the index has not seen, about lighthouses and tides\n");
  const auto r = test_support::run_cli("index add -q " + dir + " " + input);
  *err = r.err;
  return r.code;
}

}  // namespace

TEST(IndexManifest, NextSegmentAtOrBelowALiveSegmentIsRefused) {
  for (uint64_t next : {uint64_t(2), uint64_t(1)}) {  // segments 1 and 2 are live; 3 is next
    const std::string dir = build("next_segment", 2);
    detail::Manifest m = manifest_of(dir);
    ASSERT_EQ(m.next_segment, 3u);
    m.next_segment = next;
    write_manifest(dir, m);
    const auto before = files_of(dir);
    const std::string e = error_of([&] { Index::open(dir); });
    EXPECT_NE(e.find("index manifest " + dir + "/MANIFEST is corrupted"), std::string::npos) << e;
    EXPECT_NE(e.find("not below next_segment " + std::to_string(next)), std::string::npos) << e;
    EXPECT_NE(error_of([&] { Index::open(dir, writer()); }).find("is corrupted"), std::string::npos);
    std::string err;
    EXPECT_EQ(cli_add(dir, &err), 1) << err;
    EXPECT_NE(err.find(dir + "/MANIFEST is corrupted"), std::string::npos) << err;
    EXPECT_EQ(files_of(dir), before) << "no segment replaced or deleted";
  }
}

TEST(IndexManifest, SegmentNumbersListedTwiceOrMisspelledAreRefused) {
  const std::string dir = build("numbers", 2);
  const detail::Manifest good = manifest_of(dir);
  detail::Manifest twice = good;
  twice.segments.push_back(twice.segments[0]);
  write_manifest(dir, twice);
  EXPECT_NE(error_of([&] { Index::open(dir); }).find("segment 1 is listed twice"), std::string::npos);

  detail::Manifest short_name = good;  // seg-1.gds is segment 1 too, under another name
  short_name.segments[0].file = "seg-1.gds";
  fs::copy_file(dir + "/seg-00000001.gds", dir + "/seg-1.gds");
  write_manifest(dir, short_name);
  EXPECT_NE(error_of([&] { Index::open(dir); }).find("bad segment name 'seg-1.gds'"), std::string::npos);

  detail::Manifest zero = good;
  zero.next_segment = 0;
  zero.segments.clear();
  write_manifest(dir, zero);
  EXPECT_NE(error_of([&] { Index::open(dir); }).find("next_segment 0"), std::string::npos);
}

TEST(IndexManifest, AnOlderManifestDoesNotLetAWriterDeleteNewerSegments) {
  const std::string dir = build("older", 1);
  const std::string older = read_file(dir + "/MANIFEST");  // segment 1; next 2
  {
    Index idx = Index::open(dir, writer());
    std::mt19937_64 rng(8);
    for (int b = 0; b < 2; ++b) {  // segments 2 and 3
      Docs docs;
      for (int i = 0; i < 20; ++i) docs.add("n" + std::to_string(b) + "-" + std::to_string(i), join(random_words(rng, 30)));
      idx.insert(docs.batch, docs.ids);
    }
  }
  ASSERT_TRUE(fs::exists(dir + "/seg-00000003.gds"));
  write_file(dir + "/MANIFEST", older);  // restored alone
  const auto before = files_of(dir);
  const std::string e = error_of([&] { Index::open(dir, writer()); });
  EXPECT_NE(e.find("index " + dir + " is corrupted: it holds seg-00000003.gds, newer than its manifest"),
            std::string::npos)
      << e;
  std::string err;
  EXPECT_EQ(cli_add(dir, &err), 1) << err;
  EXPECT_NE(err.find("nothing was deleted"), std::string::npos) << err;
  EXPECT_EQ(files_of(dir), before) << "the newer segments are kept";
  // Readers still read what the manifest names.
  EXPECT_EQ(Index::open(dir).size(), 20u);
}

TEST(IndexManifest, WhatACrashedWriterLeavesIsStillRemoved) {
  // A writer renames its segment into place, then publishes: a crash between the two
  // leaves one unlisted segment numbered next_segment, which the next writer removes.
  const std::string dir = build("leftover", 1);
  fs::copy_file(dir + "/seg-00000001.gds", dir + "/seg-00000002.gds");
  write_file(dir + "/seg-00000003.gds.tmp", "partial");
  {
    Index idx = Index::open(dir, writer());
    EXPECT_EQ(idx.size(), 20u);
  }
  EXPECT_FALSE(fs::exists(dir + "/seg-00000002.gds"));
  EXPECT_FALSE(fs::exists(dir + "/seg-00000003.gds.tmp"));
  std::string err;
  EXPECT_EQ(cli_add(dir, &err), 0) << err;
}

TEST(IndexManifest, ParametersOutOfRangeAreCorruptionNamingTheIndex) {
  const std::string dir = build("params", 1);
  const detail::Manifest good = manifest_of(dir);
  const std::vector<std::pair<std::string, std::function<void(detail::IndexParams&)>>> damage = {
      {"num_perm 0 is out of range", [](detail::IndexParams& p) { p.num_perm = 0; }},
      {"num_perm 5000 is out of range", [](detail::IndexParams& p) { p.num_perm = 5000; }},
      {"ngram 0 is out of range", [](detail::IndexParams& p) { p.ngram = 0; }},
      {"ngram 65 is out of range", [](detail::IndexParams& p) { p.ngram = 65; }},
      {"bands x rows 0 x", [](detail::IndexParams& p) { p.bands = 0; }},
      {"bands x rows 64 x 2", [](detail::IndexParams& p) { p.bands = 64, p.rows = 2; }},
      {"threshold 1.5", [](detail::IndexParams& p) { p.threshold = 1.5; }},
      {"threshold 0.0", [](detail::IndexParams& p) { p.threshold = 0; }},
      {"threshold nan", [](detail::IndexParams& p) { p.threshold = std::numeric_limits<double>::quiet_NaN(); }},
      {"stop words with char shingles", [](detail::IndexParams& p) { p.remove_stop_words = true; }},
  };
  for (const auto& [want, damage_it] : damage) {
    detail::Manifest m = good;
    damage_it(m.params);
    write_manifest(dir, m);
    const std::string e = error_of([&] { Index::open(dir); });
    EXPECT_NE(e.find(dir + "/MANIFEST is corrupted (" + want), std::string::npos) << e;
    const auto r = test_support::run_cli("index stats " + dir);
    EXPECT_EQ(r.code, 1) << want << ": " << r.err;
    EXPECT_NE(r.err.find(dir + "/MANIFEST is corrupted"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("--"), std::string::npos) << "names no option the user did not give: " << r.err;
  }
}
