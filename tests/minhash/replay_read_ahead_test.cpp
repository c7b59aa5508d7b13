// The exact check's replay read on a thread of its own (replay_read_ahead.hpp): every
// wanted document reaches the shingling thread once, in input order, over several chunks;
// an error on either side ends both threads and reaches the caller. And the replay's
// shingling (shingle_set) keeps the caller's set storage from document to document.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "gpudedup/errors.hpp"
#include "host/minhash/compute_backend.hpp"
#include "host/minhash/replay_read_ahead.hpp"
#include "host/shingle/shingling.hpp"

using namespace gpudedup;
using namespace gpudedup::detail;

namespace {

/// Documents of random words, together a few chunks of replay_chunk_bytes.
std::vector<std::string> texts_over_chunks(size_t chunks) {
  std::mt19937_64 rng(11);
  std::vector<std::string> texts;
  size_t bytes = 0;
  while (bytes < chunks * replay_chunk_bytes) {
    std::string t;
    const size_t words = 200 + rng() % 4000;
    for (size_t w = 0; w < words; ++w) t += "w" + std::to_string(rng() % 50000) + ' ';
    bytes += t.size();
    texts.push_back(std::move(t));
  }
  return texts;
}

/// A replay over texts in memory that stops, when asked, with a data_error at document `fail_at`.
TextReplay replay_of(const std::vector<std::string>& texts, size_t* given, size_t fail_at = SIZE_MAX) {
  return [&texts, given, fail_at](const std::vector<uint8_t>& wanted,
                                  const std::function<void(uint64_t, std::string_view)>& use) {
    for (size_t d = 0; d < texts.size(); ++d) {
      if (d == fail_at) throw data_error("document " + std::to_string(d) + " changed");
      if (!wanted[d]) continue;
      ++*given;
      use(d, texts[d]);
    }
  };
}

SketchSpec spec_of(int threads = 2) {
  Config c;
  c.threads = threads;
  return make_sketch_spec(c);
}

/// Every document of `texts` wanted; replay_read_ahead with `use` through the replay of
/// replay_of(texts, given, fail_at).
template <class Use>
void read_all_ahead(const std::vector<std::string>& texts, size_t* given, size_t fail_at, Use&& use) {
  const std::vector<uint8_t> wanted(texts.size(), 1);
  const SketchSpec spec = spec_of();
  ReplayChunk work(spec);
  replay_read_ahead(spec, replay_of(texts, given, fail_at), wanted, work, use);
}

}  // namespace

TEST(ReplayReadAhead, EveryWantedDocumentArrivesOnceInOrderWithItsSet) {
  for (const int threads : {1, 2}) {  // 1: read on the calling thread
    const std::vector<std::string> texts = texts_over_chunks(3);
    std::vector<uint8_t> wanted(texts.size(), 0);
    for (size_t d = 0; d < texts.size(); ++d) wanted[d] = d % 3 != 1;
    const SketchSpec spec = spec_of(threads);
    ReplayChunk work(spec);
    size_t given = 0, chunks = 0;
    std::vector<uint32_t> order;
    std::vector<uint8_t> scratch;
    std::vector<uint64_t> expected;
    size_t wrong_sets = 0;
    replay_read_ahead(spec, replay_of(texts, &given), wanted, work, [&](ReplayChunk& chunk) {
      ++chunks;
      chunk.flush([&](uint32_t d, const std::vector<uint64_t>& set) {
        order.push_back(d);
        shingle_set(spec.shingles, texts[d], scratch, expected);
        wrong_sets += set != expected;
      });
    });
    std::vector<uint32_t> want_order;
    for (size_t d = 0; d < texts.size(); ++d)
      if (wanted[d]) want_order.push_back(uint32_t(d));
    EXPECT_EQ(order, want_order) << threads;
    EXPECT_EQ(wrong_sets, 0u);
    EXPECT_EQ(given, want_order.size());
    EXPECT_GE(chunks, 2u) << threads;  // handed over more than once
  }
}

TEST(ReplayReadAhead, AReplayErrorReachesTheCallerAfterTheChunksBeforeIt) {
  const std::vector<std::string> texts = texts_over_chunks(3);
  size_t given = 0, taken = 0;
  const size_t fail_at = texts.size() - 2;
  EXPECT_THROW(read_all_ahead(texts, &given, fail_at,
                              [&](ReplayChunk& chunk) { chunk.flush([&](uint32_t, auto&) { ++taken; }); }),
               data_error);
  EXPECT_EQ(given, fail_at);
  EXPECT_LE(taken, fail_at);  // nothing after the failure
  EXPECT_GT(taken, 0u);
}

TEST(ReplayReadAhead, AnErrorOfTheCheckStopsTheReplay) {
  const std::vector<std::string> texts = texts_over_chunks(4);
  size_t given = 0, uses = 0;
  EXPECT_THROW(read_all_ahead(texts, &given, SIZE_MAX,
                              [&](ReplayChunk&) {
                                ++uses;
                                throw std::runtime_error("check failed");
                              }),
               std::runtime_error);
  EXPECT_EQ(uses, 1u);
  EXPECT_LT(given, texts.size());  // at most the chunks read ahead, not the whole input
}

TEST(ReplayShingling, ASetKeepsItsStorageFromDocumentToDocument) {
  const SketchSpec spec = spec_of();
  std::vector<uint8_t> scratch;
  std::vector<uint64_t> set;
  const std::vector<std::string> texts = texts_over_chunks(1);
  shingle_set(spec.shingles, texts[0] + texts[1] + texts[2], scratch, set);  // the largest
  const uint64_t* storage = set.data();
  for (size_t d = 3; d < 40; ++d) {
    shingle_set(spec.shingles, texts[d], scratch, set);
    ASSERT_EQ(set.data(), storage) << "document " << d;
    ASSERT_TRUE(std::is_sorted(set.begin(), set.end()));
    ASSERT_TRUE(std::adjacent_find(set.begin(), set.end()) == set.end());
  }
}

TEST(ReplayReadAhead, ACallersThreadReplayRunsOnTheCallingThread) {
  const std::vector<std::string> texts = texts_over_chunks(2);
  const std::vector<uint8_t> wanted(texts.size(), 1);
  const SketchSpec spec = spec_of(2);  // two threads would read ahead on a thread of its own
  for (const bool callers_thread : {false, true}) {
    size_t given = 0, on_caller = 0;
    const std::thread::id caller = std::this_thread::get_id();
    const TextReplay inner = replay_of(texts, &given);
    const auto counting = [&](const std::vector<uint8_t>& w, const std::function<void(uint64_t, std::string_view)>& use) {
      on_caller += std::this_thread::get_id() == caller;
      inner(w, use);
    };
    const TextReplay replay = callers_thread ? TextReplay(CallersThreadReplay{counting}) : TextReplay(counting);
    ReplayChunk work(spec);
    size_t used = 0;
    replay_read_ahead(spec, replay, wanted, work, [&](ReplayChunk& chunk) {
      chunk.flush([](uint32_t) { return true; }, [&](uint32_t, const std::vector<uint64_t>&) { ++used; });
    });
    EXPECT_EQ(given, texts.size());
    EXPECT_EQ(used, texts.size());
    EXPECT_EQ(on_caller, callers_thread ? 1u : 0u) << (callers_thread ? "a CallersThreadReplay left the caller's thread"
                                                                      : "two threads did not read ahead");
  }
}
