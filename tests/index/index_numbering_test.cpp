// An index created with Config::first_document_number numbers its documents from there:
// numbers past 2^32 are stored (segment headers, the manifest), returned by queries and
// resolved by id(), across reopening and compaction.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "gpudedup/errors.hpp"
#include "gpudedup/index.hpp"
#include "support/files.hpp"
#include "support/index_test_support.hpp"

using namespace gpudedup;
using namespace index_test;

namespace {

constexpr uint64_t first = (uint64_t(1) << 32) - 5;

TEST(IndexNumbering, NumbersPast2To32AreStoredAndReturned) {
  std::mt19937_64 rng(4);
  std::vector<std::vector<std::string>> texts;
  for (int i = 0; i < 8; ++i) texts.push_back(random_words(rng, 120));
  Config c;
  c.minhash.num_perm = 128;
  c.threshold = 0.7;
  c.threads = 2;
  c.first_document_number = first;
  const std::string dir = fresh_dir("numbering");
  {
    Index idx = Index::create(dir, c);
    for (int part = 0; part < 2; ++part) {  // two segments: 2^32-5 .. 2^32-2, 2^32-1 .. 2^32+2
      Docs d;
      for (int i = part * 4; i < part * 4 + 4; ++i) d.add("doc" + std::to_string(i), join(texts[i]));
      idx.insert(d.batch, d.ids);
    }
    EXPECT_EQ(idx.size(), 8u);
  }
  EXPECT_NE(test_support::read_file(dir + "/MANIFEST").find("\nfirst_document 4294967291\n"), std::string::npos);

  auto check = [&](const Index& idx) {
    Docs q;
    for (int i = 0; i < 8; ++i) q.add("copy" + std::to_string(i), join(near_copy(rng, texts[i], 2)));
    const auto answers = idx.query(q.batch, q.ids);
    ASSERT_EQ(answers.size(), 8u);
    for (int i = 0; i < 8; ++i) {
      SCOPED_TRACE(i);
      EXPECT_TRUE(answers[i].duplicate);
      EXPECT_FALSE(answers[i].in_batch);
      EXPECT_EQ(answers[i].match, first + uint64_t(i));
      EXPECT_EQ(answers[i].match_id, "doc" + std::to_string(i));
      EXPECT_EQ(idx.id(first + uint64_t(i)), "doc" + std::to_string(i));
    }
    EXPECT_GT(answers[7].match, uint64_t(UINT32_MAX) + 1);
    EXPECT_THROW(idx.id(first - 1), usage_error);
    EXPECT_THROW(idx.id(first + 8), usage_error);
  };
  {
    IndexOpenOptions o;
    o.mode = IndexMode::read_write;
    Index idx = Index::open(dir, o);
    check(idx);
    idx.compact();  // one segment, numbers kept
    EXPECT_EQ(idx.stats().segments, 1u);
    check(idx);
  }
  check(Index::open(dir));
}

}  // namespace
