// Exceptions thrown inside OpenMP parallel regions reach the caller (host/core/
// parallel_errors.hpp) instead of calling std::terminate: the helper itself, then every
// region the engines and the index run through, each guarded call failing in turn.
#include "host/core/parallel_errors.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <algorithm>
#include <functional>
#include <new>
#include <random>
#include <stdexcept>

#include "gpudedup/config.hpp"
#include "gpudedup/index.hpp"
#include "gpudedup/method.hpp"
#include "support/index_test_support.hpp"

using namespace gpudedup;
using namespace index_test;

namespace {

struct Disarm {
  ~Disarm() { detail::inject_parallel_failure(0); }
};

// Runs `scenario` with the 1st, 2nd, ... guarded call inside a parallel region failing,
// until a run makes fewer guarded calls than the one chosen (it then succeeds). Each
// failing run must throw std::bad_alloc to the caller. Returns the guarded calls seen.
long fail_each_guarded_call(const std::function<void()>& scenario, long cap = 4000) {
  Disarm disarm;
  long n = 1;
  for (; n <= cap; ++n) {
    detail::inject_parallel_failure(n);
    bool threw = false;
    try {
      scenario();
    } catch (const std::bad_alloc&) {
      threw = true;
    }
    if (!threw) break;
  }
  detail::inject_parallel_failure(0);
  EXPECT_LE(n, cap) << "scenario kept failing";
  return n - 1;
}

DocumentBatch small_corpus(size_t docs) {
  std::mt19937_64 rng(7);
  DocumentBatch b;
  std::vector<std::string> base = random_words(rng, 60);
  for (size_t i = 0; i < docs; ++i) b.add(join(i % 3 == 0 ? base : near_copy(rng, base, i % 5)));
  b.add("");
  return b;
}

void run_method(Config c) {
  c.backend = Backend::cpu;
  c.threads = 2;
  const auto m = make_method(c);
  const DocumentBatch b = small_corpus(24);
  if (m->needs().prepass) m->prepass(b);
  m->add(b);
  const DedupResult r = m->finish();
  ASSERT_EQ(r.documents, 25u);
}

}  // namespace

TEST(ParallelErrors, FirstExceptionReachesTheCallerAndLaterWorkStops) {
  detail::ParallelErrors errors;
  std::atomic<int> ran{0};
#pragma omp parallel for num_threads(2) schedule(dynamic, 1)
  for (int i = 0; i < 1000; ++i) errors.run([&] {
    ++ran;
    if (i == 3) throw std::runtime_error("boom");
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  });
  EXPECT_TRUE(errors.failed());
  EXPECT_THROW(errors.rethrow(), std::runtime_error);
  EXPECT_LT(ran.load(), 1000) << "threads stop taking work after a failure";
}

TEST(ParallelErrors, NoFailureNoThrowAndEveryIterationRuns) {
  detail::ParallelErrors errors;
  std::vector<int> seen(500, 0);
#pragma omp parallel for num_threads(4)
  for (int i = 0; i < 500; ++i) errors.run([&] { seen[size_t(i)] = 1; });
  EXPECT_NO_THROW(errors.rethrow());
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), 500);
}

TEST(ParallelErrors, InjectedFailureHitsTheChosenCallOnce) {
  Disarm disarm;
  detail::inject_parallel_failure(3);
  detail::ParallelErrors errors;
  int ran = 0;
  for (int i = 0; i < 10; ++i) errors.run([&] { ++ran; });  // one thread: calls in order
  EXPECT_EQ(ran, 2);
  EXPECT_THROW(errors.rethrow(), std::bad_alloc);
  EXPECT_FALSE(detail::parallel_failure_armed());
}

TEST(ParallelErrors, EveryMethodsRegionsThrowToTheCaller) {
  for (const char* name : {"minhash", "exact", "simhash", "bloom"}) {
    Config c;
    c.method = name;
    EXPECT_GT(fail_each_guarded_call([&] { run_method(c); }), 0) << name;
  }
}

TEST(ParallelErrors, MinHashWithKeptSetsThrowsToTheCaller) {
  Config c;
  c.method = "minhash";
  c.verify = VerifyMode::exact;  // the sorted sets are kept
  EXPECT_GT(fail_each_guarded_call([&] { run_method(c); }), 0);
  c.verify = VerifyMode::automatic;  // the set cache's arenas are filled
  EXPECT_GT(fail_each_guarded_call([&] { run_method(c); }), 0);
}

TEST(ParallelErrors, SimHashIdfAndBloomLshThrowToTheCaller) {
  Config s;
  s.method = "simhash";
  s.simhash.weights = SimHashWeights::tfidf;  // the df pass
  EXPECT_GT(fail_each_guarded_call([&] { run_method(s); }), 0);
  Config b;
  b.method = "bloom";
  b.bloom.all_pairs_limit = 4;  // the bit-sampling LSH search
  b.bloom.lsh_tables = 2;
  EXPECT_GT(fail_each_guarded_call([&] { run_method(b); }), 0);
}

TEST(ParallelErrors, IndexInsertQueryAndCompactThrowToTheCaller) {
  Config c;
  c.minhash.num_perm = 32;
  c.threshold = 0.7;
  c.threads = 2;
  const DocumentBatch b = small_corpus(5);
  std::vector<std::string> ids;
  for (size_t i = 0; i < b.size(); ++i) ids.push_back("d" + std::to_string(i));
  int round = 0;
  const long calls = fail_each_guarded_call([&] {
    Index idx = Index::create(fresh_dir("parallel_errors_" + std::to_string(round++)), c);
    idx.insert(b, ids);
    idx.query_insert(b, ids);
    idx.query(b, ids);
    idx.compact();
    EXPECT_GT(idx.size(), 0u);
  });
  EXPECT_GT(calls, 0);
}
