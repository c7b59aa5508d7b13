// Times the exact similarity join on a synthetic corpus with huge near-duplicate
// clusters (docs/exact-join.md records the figures).
//   exact_join_bench [docs=20000] [threshold=0.8] [threads=0] [similarity=jaccard]
// Documents are 5-20 KB of Zipf-distributed words; clusters of 3000, 1000, 1000 and
// 100 x 20 members are copies of one base document with 0.2-3% of the words replaced
// (a few are exact copies); the rest are unrelated. Char 5-gram shingles.
#include <omp.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

#include "gpudedup/minhash.hpp"
#include "host/exact/exact_join.hpp"

using namespace gpudedup;

namespace {

struct Corpus {
  std::mt19937_64 rng{42};
  std::vector<std::string> vocab;
  std::vector<double> cdf;

  Corpus() {
    const char* letters = "etaoinshrdlcumwfgypbvkjxqz";
    for (int i = 0; i < 50000; ++i) {
      std::string w;
      const int len = 2 + int(rng() % 9);
      for (int k = 0; k < len; ++k) w += letters[std::min<uint64_t>(25, uint64_t(std::exp(double(rng() % 1000) / 1000 * 3.2)) - 1)];
      vocab.push_back(w);
    }
    double sum = 0;
    for (int i = 0; i < 50000; ++i) cdf.push_back(sum += 1.0 / (i + 1));
    for (auto& c : cdf) c /= sum;
  }
  const std::string& word() {
    const double u = std::uniform_real_distribution<double>(0, 1)(rng);
    return vocab[size_t(std::lower_bound(cdf.begin(), cdf.end(), u) - cdf.begin())];
  }
  std::vector<std::string> document() {
    std::vector<std::string> words;
    const size_t bytes = 5000 + rng() % 15000;
    for (size_t n = 0; n < bytes;) n += (words.emplace_back(word())).size() + 1;
    return words;
  }
  std::string mutate(std::vector<std::string> words, double rate) {
    std::string out;
    for (auto& w : words) {
      if (std::uniform_real_distribution<double>(0, 1)(rng) < rate) w = word();
      out += w;
      out += ' ';
    }
    return out;
  }
};

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  const size_t docs = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 20000;
  const double t = argc > 2 ? std::atof(argv[2]) : 0.8;
  const int threads = argc > 3 ? std::atoi(argv[3]) : 0;
  const Similarity sim = argc > 4 && std::string(argv[4]) == "containment" ? Similarity::containment
                                                                           : Similarity::jaccard;
  Corpus gen;
  std::vector<size_t> clusters = {3000, 1000, 1000};
  for (int i = 0; i < 100; ++i) clusters.push_back(20);
  DocumentBatch batch;
  for (size_t c : clusters) {
    const auto base = gen.document();
    for (size_t m = 0; m < c && batch.size() < docs; ++m) {
      const double rate = m % 50 == 0 ? 0.0 : 0.002 + double(gen.rng() % 1000) / 1000 * 0.028;
      batch.add(gen.mutate(base, rate));
    }
  }
  while (batch.size() < docs) batch.add(gen.mutate(gen.document(), 0));
  Config config;
  config.backend = Backend::cpu;
  config.threads = threads;
  MinHashEngine engine(config);
  auto t0 = std::chrono::steady_clock::now();
  const ShingleSets sets = engine.shingle_sets(batch);
  const double shingle_s = since(t0);
  t0 = std::chrono::steady_clock::now();
  const auto pairs = detail::exact_similarity_join(sets, t, sim, threads);
  const double join_s = since(t0);
  std::printf("documents %zu  text %.1f MB  shingles %zu (%.0f per doc)  threads %d\n", batch.size(),
              double(batch.bytes.size()) / 1e6, sets.hashes.size(), double(sets.hashes.size()) / double(batch.size()),
              threads > 0 ? threads : omp_get_max_threads());
  std::printf("%s t=%.2f: %zu pairs  shingling %.2f s (1 thread)  join %.2f s\n", to_string(sim), t,
              pairs.size(), shingle_s, join_s);
  return 0;
}
