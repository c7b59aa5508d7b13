// gpudedup::Index: answers, persistence, merges, concurrency and agreement with dedup.
#include "gpudedup/index.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <set>
#include <thread>

#include "gpudedup/minhash.hpp"
#include "gpudedup/detail/minhash.hpp"
#include "gpudedup/errors.hpp"
#include "host/index/durable_file.hpp"
#include "host/index/manifest.hpp"
#include "host/index/segment_reader.hpp"
#include "kernels/index/index_cuda.hpp"
#include "support/index_test_support.hpp"

using namespace gpudedup;
using namespace index_test;

namespace {

Config small_config() {
  Config c;
  c.minhash.num_perm = 128;
  c.threshold = 0.7;
  c.threads = 2;
  return c;
}

// The key that document 0 (a copy of the repeated text) has in band b.
uint64_t band_key_of_copy(const detail::Segment& seg, uint32_t b) {
  const uint32_t rows = seg.header().rows;
  return detail::band_key(seg.signature(0) + uint64_t(b) * rows, rows, b);
}

IndexOpenOptions writer() {
  IndexOpenOptions o;
  o.mode = IndexMode::read_write;
  return o;
}

}  // namespace

TEST(Index, AnswersNewDuplicateAndEmpty) {
  std::mt19937_64 rng(1);
  const auto a = random_words(rng, 150), b = random_words(rng, 150);
  Index idx = Index::create(fresh_dir("answers"), small_config());
  Docs base;
  base.add("a", join(a));
  base.add("b", join(b));
  idx.insert(base.batch, base.ids);
  EXPECT_EQ(idx.size(), 2u);

  Docs q;
  q.add("a-copy", join(a));
  q.add("b-near", join(near_copy(rng, b, 3)));
  q.add("fresh", join(random_words(rng, 150)));
  q.add("blank", "   ");
  const auto ans = idx.query(q.batch, q.ids);
  ASSERT_EQ(ans.size(), 4u);
  EXPECT_TRUE(ans[0].duplicate);
  EXPECT_EQ(ans[0].match_id, "a");
  EXPECT_EQ(ans[0].match, 0u);
  EXPECT_EQ(ans[0].similarity, 1.0);
  EXPECT_FALSE(ans[0].in_batch);
  EXPECT_TRUE(ans[1].duplicate);
  EXPECT_EQ(ans[1].match_id, "b");
  EXPECT_GE(ans[1].similarity, 0.7);
  EXPECT_LT(ans[1].similarity, 1.0);
  EXPECT_FALSE(ans[2].duplicate);
  EXPECT_FALSE(ans[3].duplicate);
  EXPECT_TRUE(ans[3].empty);
  EXPECT_EQ(idx.size(), 2u) << "query must not insert";
}

TEST(Index, WithinBatchOnlyNewDocumentsAreMatched) {
  std::mt19937_64 rng(2);
  // x; y ~ x; z ~ y but not ~ x: y is a duplicate (not indexed), so z is compared with x
  // only and is new. One dedup over all three would chain z into x's cluster.
  const auto x = random_words(rng, 120);
  auto y = x, z = x;
  for (size_t i = 0; i < 12; ++i) y[i * 10] = z[i * 10] = random_words(rng, 1)[0];
  for (size_t i = 0; i < 12; ++i) z[i * 10 + 5] = random_words(rng, 1)[0];
  Docs d;
  d.add("x", join(x));
  d.add("y", join(y));
  d.add("z", join(z));
  d.add("x-again", join(x));
  Config c = small_config();
  c.threshold = 0.6;
  Index idx = Index::create(fresh_dir("batch"), c);
  const auto q = idx.query(d.batch, d.ids);
  const auto qi = idx.query_insert(d.batch, d.ids);
  for (size_t i = 0; i < q.size(); ++i) {
    EXPECT_EQ(q[i].duplicate, qi[i].duplicate) << i;
    EXPECT_EQ(q[i].match_id, qi[i].match_id) << i;
  }
  EXPECT_FALSE(q[0].duplicate);
  ASSERT_TRUE(q[1].duplicate);
  EXPECT_TRUE(q[1].in_batch);
  EXPECT_EQ(q[1].match_id, "x");
  ASSERT_TRUE(q[3].duplicate);
  EXPECT_EQ(q[3].match_id, "x");
  EXPECT_EQ(q[3].similarity, 1.0);
  // z: similar to y (a duplicate) only, or to x; either way never to y.
  EXPECT_NE(q[2].match_id, "y");
  // Only the new documents were indexed, in order.
  std::vector<std::string> indexed;
  for (uint64_t i = 0; i < idx.size(); ++i) indexed.push_back(idx.id(i));
  std::vector<std::string> expected{"x"};
  if (!q[2].duplicate) expected.push_back("z");
  EXPECT_EQ(indexed, expected);
}

TEST(Index, PersistsAcrossReopenAndMergesKeepOrder) {
  std::mt19937_64 rng(3);
  const std::string dir = fresh_dir("persist");
  std::vector<std::vector<std::string>> texts;
  {
    Index idx = Index::create(dir, small_config());
    for (int b = 0; b < 21; ++b) {
      Docs d;
      for (int i = 0; i < 5 + b % 3; ++i) {
        texts.push_back(random_words(rng, 80));
        d.add("d" + std::to_string(texts.size() - 1), join(texts.back()));
      }
      idx.insert(d.batch, d.ids);
    }
    const IndexStats st = idx.stats();
    EXPECT_EQ(st.documents, texts.size());
    EXPECT_LT(st.segments, 21u) << "tier merges keep the segment count down";
  }
  IndexOpenOptions ro;
  const Index reader = Index::open(dir, ro);
  ASSERT_EQ(reader.size(), texts.size());
  for (uint64_t i = 0; i < reader.size(); ++i) EXPECT_EQ(reader.id(i), "d" + std::to_string(i));
  Docs q;
  for (size_t i = 0; i < texts.size(); i += 7) q.add("q" + std::to_string(i), join(near_copy(rng, texts[i], 2)));
  const auto before = reader.query(q.batch, q.ids);
  {
    Index w = Index::open(dir, writer());
    w.compact();
    EXPECT_EQ(w.stats().segments, 1u);
  }
  const Index after_reader = Index::open(dir, ro);
  const auto after = after_reader.query(q.batch, q.ids);
  for (size_t k = 0; k < before.size(); ++k) {
    ASSERT_TRUE(before[k].duplicate) << k;
    EXPECT_EQ(before[k].match_id, "d" + std::to_string(k * 7));
    EXPECT_EQ(after[k].match_id, before[k].match_id);
    EXPECT_EQ(after[k].similarity, before[k].similarity);
  }
  // The old reader still answers from its snapshot although compaction removed its files.
  const auto old = reader.query(q.batch, q.ids);
  EXPECT_EQ(old[0].match_id, before[0].match_id);
  after_reader.verify();
}

TEST(Index, AgreesWithDedupWhereNoChainingOccurs) {
  // Clusters are cliques: every member is a near-copy of one base (2 edits in 200 words),
  // so members are also similar to each other and no pair chains through a third.
  std::mt19937_64 rng(4);
  Docs all;
  std::vector<Docs> batches(4);
  std::vector<std::vector<std::string>> bases;
  for (int k = 0; k < 400; ++k) {
    std::string text;
    if (k >= 20 && rng() % 3 == 0) {
      text = join(near_copy(rng, bases[rng() % bases.size()], 2));
    } else {
      bases.push_back(random_words(rng, 200));
      text = join(bases.back());
    }
    const std::string id = "doc" + std::to_string(k);
    all.add(id, text);
    batches[size_t(k) / 100].add(id, text);
  }
  Config c = small_config();
  c.threshold = 0.8;
  MinHashEngine engine(c);
  engine.add(all.batch);
  const DedupResult r = engine.finish();
  std::map<std::string, std::string> dedup_removed;
  for (uint64_t d = 0; d < r.documents; ++d)
    if (r.representative[d] != d) dedup_removed[all.ids[d]] = all.ids[r.representative[d]];

  Index idx = Index::create(fresh_dir("agree"), c);
  std::map<std::string, std::string> index_removed;
  for (const auto& b : batches) {
    const auto ans = idx.query_insert(b.batch, b.ids);
    for (size_t i = 0; i < ans.size(); ++i)
      if (ans[i].duplicate) index_removed[b.ids[i]] = ans[i].match_id;
  }
  EXPECT_GT(dedup_removed.size(), 60u);
  EXPECT_EQ(index_removed, dedup_removed);
}

TEST(Index, RefusesOtherParametersNamingThem) {
  const std::string dir = fresh_dir("params");
  Index::create(dir, small_config());
  Config other = small_config();
  other.minhash.num_perm = 64;
  IndexOpenOptions o;
  o.expect = &other;
  try {
    Index::open(dir, o);
    FAIL() << "opened with another --num-perm";
  } catch (const usage_error& e) {
    EXPECT_NE(std::string(e.what()).find("`minhash.num_perm`: the index has 128, you gave 64"), std::string::npos) << e.what();
  }
  Config bands = small_config();
  bands.lsh.bands = 8;
  bands.lsh.rows = 8;
  o.expect = &bands;
  EXPECT_THROW(Index::open(dir, o), usage_error);
  Config words = small_config();
  words.shingle.kind = ShingleKind::words;
  o.expect = &words;
  EXPECT_THROW(Index::open(dir, o), usage_error);
  Config sampled = small_config();
  sampled.sampling.kind = SampleKind::mins;
  EXPECT_THROW(Index::create(fresh_dir("sampled"), sampled), usage_error);
  const Config same = small_config();
  o.expect = &same;
  EXPECT_NO_THROW(Index::open(dir, o));
  // Another verification threshold is an override, not another index.
  Config stricter = small_config();
  stricter.threshold = 0.9;
  o.expect = &stricter;
  o.threshold = 0.9;
  const Index strict = Index::open(dir, o);
  EXPECT_EQ(strict.config().threshold, 0.9);
  EXPECT_EQ(strict.lsh_params().bands, Index::open(dir).lsh_params().bands);
}

TEST(Index, OneWriterAtATime) {
  const std::string dir = fresh_dir("lock");
  Index w = Index::create(dir, small_config());
  EXPECT_THROW(Index::open(dir, writer()), data_error);
  EXPECT_NO_THROW(Index::open(dir, IndexOpenOptions{}));  // readers need no lock
  Docs d;
  d.add("a", "some text here");
  const Index reader = Index::open(dir, IndexOpenOptions{});
  EXPECT_THROW(const_cast<Index&>(reader).insert(d.batch, d.ids), usage_error);
}

TEST(Index, ReaderSeesPublishedBatchesAfterRefreshWhileWriterWorks) {
  std::mt19937_64 rng(5);
  const std::string dir = fresh_dir("concurrent");
  Index w = Index::create(dir, small_config());
  Index r = Index::open(dir, IndexOpenOptions{});
  std::vector<std::vector<std::string>> texts;
  for (int i = 0; i < 40; ++i) texts.push_back(random_words(rng, 60));
  std::atomic<bool> done{false};
  std::atomic<int> errors{0};
  std::thread reader([&] {
    uint64_t last = 0;
    while (!done) {
      try {
        r.refresh();
        const uint64_t n = r.size();
        if (n < last) ++errors;
        last = n;
        Docs q;
        for (uint64_t k = 0; k < n; ++k) q.add("q", join(texts[k]));
        for (const auto& a : r.query(q.batch, q.ids)) errors += !a.duplicate;
      } catch (...) {
        ++errors;
      }
    }
  });
  for (int i = 0; i < 40; ++i) {
    Docs d;
    d.add("t" + std::to_string(i), join(texts[size_t(i)]));
    w.insert(d.batch, d.ids);
    if (i % 13 == 12) w.compact();
  }
  done = true;
  reader.join();
  EXPECT_EQ(errors.load(), 0);
  r.refresh();
  EXPECT_EQ(r.size(), 40u);
}

TEST(Index, ProbeRunsEqualBruteForceAcrossFenceStretches) {
  // 9,000 entries per band (over two fence stretches of 4,096), with a run of 5,000 equal
  // keys (copies of one document) that crosses both stretch boundaries.
  std::mt19937_64 rng(8);
  Config c = small_config();
  c.minhash.num_perm = 16;
  c.lsh.bands = 4;
  c.lsh.rows = 4;
  const std::string dir = fresh_dir("probe");
  Index idx = Index::create(dir, c);
  Docs d;
  const std::string copy = join(random_words(rng, 30));
  for (int i = 0; i < 9000; ++i) d.add("d" + std::to_string(i), i % 9 < 5 ? copy : join(random_words(rng, 30)));
  idx.insert(d.batch, d.ids);
  const auto m = detail::decode_manifest(detail::read_whole_file(dir + "/MANIFEST"), dir);
  ASSERT_EQ(m.segments.size(), 1u);
  const auto seg = detail::Segment::open(dir + "/" + m.segments[0].file, m.segments[0], {m.params.hash(), m.params.num_perm, m.params.bands, m.params.rows}, 0);
  auto probe = detail::make_cpu_bucket_probe(2);
  for (uint32_t b = 0; b < 4; ++b) {
    const uint64_t n = seg->header().band_entries;
    ASSERT_EQ(n, 9000u);
    const uint64_t* keys = seg->band_keys(b);
    std::vector<uint64_t> probes{keys[0], keys[n - 1], 0, ~uint64_t(0)};
    for (int k = 0; k < 200; ++k) probes.push_back(rng() % 2 ? keys[rng() % n] : rng());
    for (uint64_t key : probes) {
      for (uint32_t limit : {1u, 256u, 100000u}) {
        const uint64_t pos = uint64_t(std::lower_bound(keys, keys + n, key) - keys);
        uint64_t count = 0;
        while (pos + count < n && keys[pos + count] == key && count < limit) ++count;
        const detail::BucketRange r = seg->find(b, key, limit);
        EXPECT_EQ(r.pos, pos);
        EXPECT_EQ(r.count, count);
        std::vector<detail::BucketRange> out(4);
        std::vector<uint64_t> row(4, key);
        probe->probe(*seg, row.data(), 1, 4, limit, out.data());
        EXPECT_EQ(out[b], r);
      }
    }
    // The documents of the long run are in document order.
    const detail::BucketRange run = seg->find(b, band_key_of_copy(*seg, b), 100000);
    EXPECT_EQ(run.count, 5000u);
    for (uint32_t k = 1; k < run.count; ++k) EXPECT_LT(seg->band_doc(b, run.pos + k - 1), seg->band_doc(b, run.pos + k));
  }
}
