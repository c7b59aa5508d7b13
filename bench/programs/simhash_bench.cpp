// SimHash benchmark: fingerprint + search time on random ~1 KB documents with planted
// near-duplicates. usage: simhash_bench [documents=100000] [threads=0]
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

#include "gpudedup/simhash.hpp"

using namespace gpudedup;

namespace {

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// Words of 2..10 random letters drawn with a Zipf-like skew; every 10th document is a
/// copy of an earlier one with a few words changed.
DocumentBatch make_corpus(size_t n) {
  std::mt19937_64 rng(42);
  std::vector<std::string> vocab(50000);
  for (auto& w : vocab) {
    const size_t len = 2 + rng() % 9;
    for (size_t i = 0; i < len; ++i) w += char('a' + rng() % 26);
  }
  DocumentBatch b;
  std::vector<std::string> docs;
  for (size_t d = 0; d < n; ++d) {
    std::string t;
    if (d % 10 == 9) {
      t = docs[rng() % docs.size()];
      for (int e = 0; e < 3; ++e) t[rng() % t.size()] = ' ';
    } else {
      while (t.size() < 1000) {
        const double u = std::uniform_real_distribution<double>(0, 1)(rng);
        t += vocab[size_t(std::pow(u, 3.0) * double(vocab.size() - 1))];
        t += ' ';
      }
    }
    docs.push_back(t);
    b.add(t);
  }
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  const size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 100000;
  Config c;
  c.backend = Backend::cpu;
  c.threads = argc > 2 ? std::atoi(argv[2]) : 0;
  const DocumentBatch corpus = make_corpus(n);
  std::printf("%zu documents, %.1f MB of text\n", n, double(corpus.bytes.size()) / 1e6);
  for (auto w : {SimHashWeights::tf, SimHashWeights::tfidf}) {
    for (uint32_t k : {3u, 6u}) {
      SimHashConfig s;
      s.weights = w;
      s.hamming = k;
      s.verify = VerifyMode::none;  // fingerprint and search time alone
      SimHashEngine e(c, s);
      auto t0 = std::chrono::steady_clock::now();
      if (e.needs_df_pass()) e.count_df(corpus);
      const double df = since(t0);
      t0 = std::chrono::steady_clock::now();
      e.add(corpus);
      const double fp = since(t0);
      t0 = std::chrono::steady_clock::now();
      const DedupResult r = e.finish();
      const double search = since(t0);
      std::printf("weights=%-6s k=%u  df pass %.3f s  fingerprints %.3f s (%.1f MB/s)  search+cluster %.3f s"
                  "  pairs within k %llu  removed %llu\n",
                  to_string(w), k, df, fp, double(corpus.bytes.size()) / 1e6 / fp, search,
                  (unsigned long long)r.candidate_pairs, (unsigned long long)r.removed);
    }
  }
  return 0;
}
