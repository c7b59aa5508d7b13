// The band walk runs on several threads (host/minhash/cpu_backend.cpp: pieces of whole
// buckets, appended in bucket order) and its answer does not depend on how many: a corpus
// with large (windowed) buckets, small families and near-threshold copies gives the same
// result, pairs in the same order with the same similarities, at 1, 2 and 4 threads,
// under every verification the walk serves; and the walk cut into pieces lists the pairs
// of the walk of the whole band, in its order.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gpudedup/minhash.hpp"
#include "host/minhash/compute_backend.hpp"
#include "support/documents.hpp"
#include "support/result_equality.hpp"

using namespace gpudedup;

namespace {

using test_support::random_letter_words;

/// `copies` copies of one random 60-word text, each with a random share (up to
/// `max_rate`) of its words replaced: pairs from equal down to well below the threshold.
void add_family(std::mt19937_64& rng, int copies, double max_rate, std::vector<std::string>& out) {
  std::vector<std::string> base;
  for (int i = 0; i < 60; ++i) base.push_back(random_letter_words(rng, 1));
  for (int c = 0; c < copies; ++c) {
    const double rate = max_rate * double(rng() % 1000) / 1000;
    std::string text;
    for (const auto& w : base) text += (double(rng() % 10000) / 10000 < rate ? random_letter_words(rng, 1) : w) + " ";
    out.push_back(text);
  }
}

/// About 37,000 documents (more entries than cpu_backend.cpp's walk_piece_min_cost: more
/// than one piece of the walk at any thread count; below parallel_keys_min, so within a
/// walk the threads sort the next bands ahead, one band each): four families of 150 (buckets above the all-pairs limit: windowed, then
/// completed), 6,000 of 2..6 and singles, shuffled so that families interleave in
/// document order. `small`: about 1,900 documents in families of 40..60 (crowded buckets
/// of all their pairs), fewer entries than one piece holds, cut by their pairs' cost.
DocumentBatch corpus(uint64_t seed, bool small) {
  std::mt19937_64 rng(seed);
  std::vector<std::string> texts;
  if (small) {
    for (int f = 0; f < 38; ++f) add_family(rng, 40 + int(rng() % 21), 0.12, texts);
  } else {
    for (int f = 0; f < 4; ++f) add_family(rng, 150, 0.12, texts);
    for (int f = 0; f < 6000; ++f) add_family(rng, 2 + int(rng() % 5), 0.1, texts);
    for (int s = 0; s < 12000; ++s) add_family(rng, 1, 0, texts);
  }
  std::shuffle(texts.begin(), texts.end(), rng);
  DocumentBatch b;
  for (const auto& t : texts) b.add(t);
  return b;
}

DedupResult run(const DocumentBatch& batch, VerifyMode verify, bool all_pairs, int threads) {
  Config c;
  c.backend = Backend::cpu;
  c.verify = verify;
  c.all_pairs = all_pairs;
  c.threads = threads;
  MinHashEngine e(c);
  e.add(batch);
  return e.finish();
}

/// A CPU backend under --verify none on `threads` threads and the batch's signatures,
/// for calling the band walk directly.
struct Sketched {
  Config config;
  std::unique_ptr<detail::ComputeBackend> backend;
  Signatures sigs;
  std::vector<uint32_t> sizes;
  LshParams lsh;
  Sketched(const DocumentBatch& batch, int threads, bool all_pairs) {
    config.backend = Backend::cpu;
    config.verify = VerifyMode::none;
    config.all_pairs = all_pairs;
    config.threads = threads;
    backend = detail::make_cpu_backend(detail::make_sketch_spec(config));
    sigs.num_perm = config.minhash.num_perm;
    sigs.values.resize(batch.size() * sigs.num_perm);
    sizes.resize(batch.size());
    backend->sketch(batch, sigs.values.data(), sizes.data(), nullptr);
    lsh = choose_lsh_params(config.threshold, config.minhash.num_perm);
  }
  detail::CorpusView view() const { return {&sigs, &sizes, nullptr}; }
};

}  // namespace

TEST(BandWalkThreads, SameResultAtOneTwoAndFourThreads) {
  for (const bool small : {false, true}) {
    SCOPED_TRACE(small ? "small corpus of crowded buckets" : "large corpus");
    const DocumentBatch batch = corpus(11, small);
    // The walk's verifications: the default's (auto: estimate, borderline kept), exact
    // sets, and none with every pair of every bucket listed.
    const std::pair<VerifyMode, bool> runs[] = {
        {VerifyMode::automatic, false}, {VerifyMode::exact, false}, {VerifyMode::none, true}};
    for (const auto& [v, all_pairs] : runs) {
      SCOPED_TRACE(std::string("verify ") + std::to_string(int(v)) + (all_pairs ? ", all pairs" : ""));
      const DedupResult one = run(batch, v, all_pairs, 1);
      ASSERT_GT(one.pairs.size(), small ? 1000u : 5000u);  // work for every part of the walk
      for (const int threads : {2, 4}) test_support::expect_same_result(one, run(batch, v, all_pairs, threads));
    }
  }
}

TEST(BandWalkThreads, PiecesListTheWholeBandsPairsInOrder) {
  // The walk cut into pieces (band_pairs, under --verify none every candidate passes)
  // against the uncut walk of the same sorted band (band_candidates): a piece boundary
  // that split a bucket, or lost or repeated one, changes the list. The large corpus is
  // cut into several pieces at every thread count, the small one by its pairs' cost.
  for (const bool small : {false, true}) {
    for (const bool all_pairs : {false, true}) {
      SCOPED_TRACE(std::string(small ? "small corpus" : "large corpus") + (all_pairs ? ", all pairs" : ""));
      const Sketched sk(corpus(17, small), 2, all_pairs);
      const auto& backend = sk.backend;
      const detail::CorpusView view = sk.view();
      const LshParams& lsh = sk.lsh;
      uint64_t listed = 0;
      for (uint32_t band = 0; band < lsh.bands; band += 6) {
        std::vector<std::pair<uint32_t, uint32_t>> whole;
        backend->band_candidates(view, band, lsh.rows, whole);
        std::vector<ScoredPair> cut;
        uint64_t candidates = 0;
        detail::WindowedBuckets windowed;
        backend->band_pairs(view, band, lsh.rows, [](uint32_t, uint32_t) { return false; }, cut, &candidates,
                            &windowed);
        ASSERT_EQ(candidates, whole.size()) << "band " << band;
        ASSERT_EQ(cut.size(), whole.size()) << "band " << band;
        for (size_t i = 0; i < cut.size(); ++i) {
          ASSERT_EQ(cut[i].a, whole[i].first) << "band " << band << ", pair " << i;
          ASSERT_EQ(cut[i].b, whole[i].second) << "band " << band << ", pair " << i;
        }
        listed += cut.size();
      }
      EXPECT_GT(listed, small ? 10000u : 50000u);  // crowded buckets in every band looked at
    }
  }
}

TEST(BandWalkThreads, BandsSortedAheadInAWalkAreTheBandsSortedAlone) {
  // Inside a walk (begin_band_walk) the CPU backend sorts the next bands ahead, one per
  // thread: each band's candidates equal those of the same band sorted alone outside any
  // walk, in order, walked twice, out of order, past the walk's last band, listed by
  // band_candidates and then by band_pairs, and in a second walk of fewer bands.
  const DocumentBatch batch = corpus(23, true);
  for (const int threads : {2, 4}) {
    SCOPED_TRACE("threads " + std::to_string(threads));
    const Sketched sk(batch, threads, false);
    const auto& backend = sk.backend;
    const detail::CorpusView view = sk.view();
    const LshParams& lsh = sk.lsh;
    using Pairs = std::vector<std::pair<uint32_t, uint32_t>>;
    std::vector<Pairs> alone(lsh.bands);
    for (uint32_t band = 0; band < lsh.bands; ++band) backend->band_candidates(view, band, lsh.rows, alone[band]);
    auto in_walk = [&](uint32_t band) {
      Pairs out;
      backend->band_candidates(view, band, lsh.rows, out);
      return out;
    };
    backend->begin_band_walk(view, lsh.bands, lsh.rows);
    for (uint32_t band = 0; band < lsh.bands; ++band) EXPECT_EQ(in_walk(band), alone[band]) << "band " << band;
    for (const uint32_t band : {3u, 3u, 1u, lsh.bands - 1, 0u}) EXPECT_EQ(in_walk(band), alone[band]) << "band " << band;
    {  // band_pairs after band_candidates of the same band (under --verify none all pass)
      std::vector<ScoredPair> passed;
      uint64_t candidates = 0;
      detail::WindowedBuckets windowed;
      backend->band_pairs(view, 5, lsh.rows, [](uint32_t, uint32_t) { return false; }, passed, &candidates,
                          &windowed);
      ASSERT_EQ(passed.size(), alone[5].size());
      for (size_t i = 0; i < passed.size(); ++i) {
        ASSERT_EQ(passed[i].a, alone[5][i].first) << "pair " << i;
        ASSERT_EQ(passed[i].b, alone[5][i].second) << "pair " << i;
      }
    }
    backend->end_band_walk();
    backend->begin_band_walk(view, 4, lsh.rows);  // a walk of 4 bands: band 6 is outside it
    for (const uint32_t band : {2u, 6u, 3u}) EXPECT_EQ(in_walk(band), alone[band]) << "band " << band;
    backend->end_band_walk();
    EXPECT_GT(alone[0].size(), 1000u);
  }
}
